// This machine's own stored runs as speed points (fit/own_points.h): which runs count, what
// work and peak each point carries, and that a model measured here is predicted as measured.
#include "fit/own_points.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rigbench::fit {
namespace {

MachineInfo here() {
  MachineInfo m;
  m.hostname = "vm";
  m.cpu = "AMD EPYC";
  return m;
}

// A bench run on `here()` of a 1e9-parameter model: pp512 at `pp_tps`, tg128 at `tg_tps`,
// reading 5e8 bytes per generated token.
RunRecord run(double pp_tps, double tg_tps) {
  RunRecord r;
  r.record_id = "r1";
  r.test_time = "2026-12-04T20:38:19Z";
  r.machine = here();
  r.model.name = "Llama-3.2-1B";
  r.model.file_type = "Q4_K_M";
  r.model.n_params = 1'000'000'000;
  r.devices_used = {"CPU"};
  r.roofline.bytes_per_token = 500'000'000;
  ThroughputResult pp;
  pp.n_tokens = 512;
  pp.tps.mean = pp_tps;
  r.results.pp = pp;
  ThroughputResult tg;
  tg.n_tokens = 128;
  tg.tps.mean = tg_tps;
  r.results.tg = tg;
  return r;
}

TEST(OwnPoints, ARunHereGivesAPpAndATgPointOfThisMachine) {
  const auto pts = own_points({run(120, 40)}, here(), 30e9, 1.0);
  ASSERT_EQ(pts.size(), 2u);
  const SpeedPoint& pp = pts[0];
  EXPECT_EQ(pp.phase, Phase::kPp);
  EXPECT_EQ(pp.device, "this machine");
  EXPECT_EQ(pp.device_class, "this machine/cpu");
  EXPECT_DOUBLE_EQ(pp.work_per_token, 2e9);  // 2 x parameters
  EXPECT_DOUBLE_EQ(pp.peak_per_s, 1.0);
  EXPECT_EQ(pp.source, "stored run r1");
  EXPECT_EQ(pp.date, "2026-12-04");
  EXPECT_TRUE(pp.own);
  const SpeedPoint& tg = pts[1];
  EXPECT_EQ(tg.phase, Phase::kTg);
  EXPECT_DOUBLE_EQ(tg.tokens_per_s, 40);
  EXPECT_DOUBLE_EQ(tg.work_per_token, 5e8);  // the run's bytes read per token
  EXPECT_DOUBLE_EQ(tg.peak_per_s, 30e9);
  EXPECT_DOUBLE_EQ(efficiency(tg), 40 * 5e8 / 30e9);
}

TEST(OwnPoints, OnlyUndisturbedFullBenchRunsOfThisMachineCount) {
  EXPECT_TRUE(own_learnable(run(1, 1), here()));
  auto other = run(1, 1);
  other.machine.hostname = "rig-b";
  EXPECT_FALSE(own_learnable(other, here()));
  auto busy = run(1, 1);
  busy.noise.push_back({"machine_busy", "", "another process took 40 % of the CPU", ""});
  EXPECT_FALSE(own_learnable(busy, here()));
  auto outliers = run(1, 1);  // a few odd repetitions: the run still stands
  outliers.noise.push_back({"outliers", "tg", "1 of 5 repetitions", ""});
  EXPECT_TRUE(own_learnable(outliers, here()));
  auto trial = run(1, 1);
  trial.tags = {"tune:abc"};
  EXPECT_FALSE(own_learnable(trial, here()));
  auto deep = run(1, 1);
  deep.params.n_depth = 4096;
  EXPECT_FALSE(own_learnable(deep, here()));
  auto partial = run(1, 1);
  partial.devices_used = {"Vulkan0", "CPU"};
  partial.params.n_gpu_layers = 10;
  EXPECT_FALSE(own_learnable(partial, here()));
  auto full = partial;
  full.params.n_gpu_layers = 99;
  EXPECT_TRUE(own_learnable(full, here()));
  EXPECT_EQ(run_device(full), "Vulkan0");
  EXPECT_EQ(this_machine_class(run_device(full)), "this machine/vulkan");
  auto moe_on_cpu = run(1, 1);
  moe_on_cpu.params.n_cpu_moe = 4;
  EXPECT_FALSE(own_learnable(moe_on_cpu, here()));
  auto refused = run(1, 1);
  refused.refused = "will not fit this machine";
  EXPECT_FALSE(own_learnable(refused, here()));
  EXPECT_TRUE(own_points({other, busy, trial}, here(), 30e9, 1.0).empty());
}

TEST(OwnPoints, TheModelMeasuredIsPredictedAsMeasuredAndAnotherScaledByItsWork) {
  const auto pts = own_points({run(120, 40), run(130, 44)}, here(), 30e9, 1.0);
  SpeedQuery q;
  q.device = kThisMachine;
  q.device_class = this_machine_class("cpu");
  q.phase = Phase::kPp;
  q.work_per_token = 2e9;
  q.peak_per_s = 1.0;  // a unit: this machine's compute is not measured
  q.roofline_known = false;
  const SpeedPrediction same = predict_speed(pts, q);
  ASSERT_TRUE(same.has_basis) << same.basis;
  EXPECT_TRUE(same.from_own_device);
  EXPECT_NEAR(same.mean_tps, std::sqrt(120.0 * 130.0), 1e-9);  // the geometric mean of the two
  EXPECT_LT(same.low_tps, same.mean_tps);
  EXPECT_GT(same.high_tps, same.mean_tps);  // never cut at the unit's "roofline" of 5e-10 t/s
  q.work_per_token = 16e9;                  // an 8B: eight times the work
  EXPECT_NEAR(predict_speed(pts, q).mean_tps, std::sqrt(120.0 * 130.0) / 8, 1e-9);
  q.phase = Phase::kTg;
  q.work_per_token = 5e8;
  q.peak_per_s = 30e9;
  q.roofline_known = true;  // bandwidth measured: a rate above 60 t/s would be cut
  const SpeedPrediction tg = predict_speed(pts, q);
  EXPECT_NEAR(tg.mean_tps, std::sqrt(40.0 * 44.0), 1e-9);
  EXPECT_LE(tg.high_tps, 30e9 / 5e8);
  EXPECT_NE(tg.basis.find("2 points of this machine itself"), std::string::npos) << tg.basis;
}

}  // namespace
}  // namespace rigbench::fit
