// The speed prediction (fit/speed_prediction.h) and its leave-one-device-out check
// (fit/speed_accuracy.h) on hand-made points whose efficiencies are known.
#include "fit/speed_prediction.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/significance.h"
#include "fit/speed_accuracy.h"
#include "fit/speed_points.h"
#include "hw/catalog.h"
#include "hw/published_results.h"

namespace rigbench::fit {
namespace {

// A tg point of `device` in class gpu/cuda: 1e9 weight bytes at 1e12 bytes/s, rate = 1000 x eff.
SpeedPoint tg(const std::string& device, double eff, const std::string& type = "Q4_K_M") {
  SpeedPoint p;
  p.device = device;
  p.device_class = "gpu/cuda";
  p.model = "m";
  p.file_type = type;
  p.phase = Phase::kTg;
  p.work_per_token = 1e9;
  p.peak_per_s = 1e12;
  p.tokens_per_s = 1000 * eff;
  return p;
}

SpeedQuery query(const std::string& device, double peak = 2e12) {
  SpeedQuery q;
  q.device = device;
  q.device_class = "gpu/cuda";
  q.phase = Phase::kTg;
  q.file_type = "Q4_K_M";
  q.work_per_token = 1e9;
  q.peak_per_s = peak;
  return q;
}

TEST(SpeedPrediction, TheClasssMedianDeviceEfficiencyTimesTheRoofline) {
  // C's 0.2 (a build with a slow path, say) does not pull the prediction down: the median device's is used.
  const std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.8), tg("C", 0.2), tg("C", 0.2, "F16")};
  EXPECT_DOUBLE_EQ(efficiency(pts[0]), 0.5);
  const SpeedPrediction p = predict_speed(pts, query("D"));
  ASSERT_TRUE(p.has_basis);
  EXPECT_FALSE(p.from_own_device);
  EXPECT_EQ(p.n_points, 4);  // every type: the class's devices, not its file types
  EXPECT_NEAR(p.efficiency, 0.5, 1e-12);
  EXPECT_NEAR(p.mean_tps, 2000 * 0.5, 1e-9);
  EXPECT_LT(p.low_tps, p.mean_tps);
  EXPECT_GT(p.high_tps, p.mean_tps);
  EXPECT_NE(p.basis.find("4 points of gpu/cuda on 3 devices (the median device's efficiency)"), std::string::npos)
      << p.basis;
}

TEST(SpeedPrediction, OwnPointsFirstAndTheQuerysFileType) {
  const std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.8), tg("B", 0.9, "F16")};
  const SpeedPrediction p = predict_speed(pts, query("B"));
  ASSERT_TRUE(p.has_basis);
  EXPECT_TRUE(p.from_own_device);
  EXPECT_EQ(p.n_points, 1);  // B's Q4_K_M point; its F16 one is another type
  EXPECT_NEAR(p.mean_tps, 2000 * 0.8, 1e-9);
  EXPECT_EQ(p.nearest.device, "B");
  // One point: the interval takes the class's spread (A and B), so it is not empty.
  EXPECT_LT(p.low_tps, p.mean_tps);
}

// The RTX 4090's predicted tg of a 1B model reached 3188 t/s at the top of its interval, over
// the 1300 t/s its bandwidth allows: the interval stops at the roofline and says so.
TEST(SpeedPrediction, TheIntervalNeverReachesPastTheRoofline) {
  const std::vector<SpeedPoint> pts = {tg("A", 0.9), tg("B", 0.3), tg("C", 0.95)};
  const SpeedPrediction p = predict_speed(pts, query("D"));  // roofline 2000 t/s
  ASSERT_TRUE(p.has_basis);
  EXPECT_LT(p.mean_tps, 2000);
  EXPECT_DOUBLE_EQ(p.high_tps, 2000);
  EXPECT_LT(p.low_tps, p.mean_tps);
  EXPECT_NE(p.basis.find("; capped at the roofline bound"), std::string::npos) << p.basis;
  const SpeedPrediction tight = predict_speed({tg("A", 0.5), tg("B", 0.51)}, query("D"));
  EXPECT_LT(tight.high_tps, 2000);
  EXPECT_EQ(tight.basis.find("capped"), std::string::npos) << tight.basis;
}

// "nearest: RTX 4090, llama 7B Q8_0 (Q8_0) 98.13 t/s" said the type twice.
TEST(SpeedPrediction, TheNearestPointSaysItsTypeOnce) {
  SpeedPoint named = tg("A", 0.5, "Q8_0");
  named.model = "llama 7B Q8_0";
  SpeedPoint described = tg("B", 0.5);
  described.model = "llama 8B Q4_K - Medium";
  auto q = query("D");
  q.file_type = "Q8_0";
  EXPECT_NE(predict_speed({named}, q).basis.find("nearest: A, llama 7B Q8_0 500.00 t/s"), std::string::npos)
      << predict_speed({named}, q).basis;
  EXPECT_NE(predict_speed({described}, query("D")).basis.find("nearest: B, llama 8B Q4_K - Medium (Q4_K_M) 500.00 t/s"),
            std::string::npos)
      << predict_speed({described}, query("D")).basis;
}

TEST(SpeedPrediction, NoBasisSaysWhy) {
  const std::vector<SpeedPoint> pts = {tg("A", 0.5)};
  SpeedQuery q = query("X");
  q.device_class = "gpu/rocm";
  const SpeedPrediction none = predict_speed(pts, q);
  EXPECT_FALSE(none.has_basis);
  EXPECT_EQ(none.basis, "no basis (no tg result of gpu/rocm)");
  const SpeedPrediction no_peak = predict_speed(pts, query("X", 0));
  EXPECT_FALSE(no_peak.has_basis);
  EXPECT_NE(no_peak.basis.find("bandwidth is not in the catalog"), std::string::npos);
}

TEST(SpeedPrediction, ClassNamesFromBackends) {
  EXPECT_EQ(speed_class("apple", "Metal,BLAS"), "apple/metal");
  EXPECT_EQ(speed_class("gpu", "CUDA"), "gpu/cuda");
  EXPECT_EQ(speed_class("gpu", "ROCm"), "gpu/rocm");
  EXPECT_EQ(speed_class("cpu", "CPU AVX2"), "cpu/cpu");
  EXPECT_EQ(speed_class("gpu", "OpenCL"), "gpu/opencl");  // its own class, never the CPU's
}

TEST(SpeedPrediction, TheIntervalIsTheSpreadBetweenDevicesNotBetweenRows) {
  // A's three rows agree; A and B differ by 2x. The spread is between two devices (df 1), not
  // among four rows (which would be narrower: three of them equal).
  const std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("A", 0.5), tg("A", 0.5), tg("B", 0.25)};
  const SpeedPrediction p = predict_speed(pts, query("X"));
  ASSERT_TRUE(p.has_basis);
  const double mean = (std::log(0.5) + std::log(0.25)) / 2;  // the median of two devices: their mean
  const double sd = std::log(2.0) / std::sqrt(2.0);          // of the devices' means
  const double half = student_t_quantile(0.95, 1) * sd * std::sqrt(1.0 + 1.0 / 2);
  EXPECT_NEAR(p.mean_tps, 2000 * std::exp(mean), 1e-9);
  EXPECT_NEAR(p.low_tps, 2000 * std::exp(mean - half), 1e-9);
  EXPECT_DOUBLE_EQ(p.high_tps, 2000);  // capped at the roofline
}

TEST(SpeedPrediction, PointsOlderThanTheWindowAreNotLearnedFromNorHeldOut) {
  std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.2), tg("C", 0.5), tg("D", 0.5)};
  EXPECT_EQ(recent_since(pts), "");  // none dated: every point counts
  pts[0].date = "2026-02-07";
  pts[1].date = "2024-03-03";  // 23 months before A's: out
  pts[3].date = "2024-08-07";  // exactly 18 months before: in
  EXPECT_EQ(recent_since(pts), "2024-08-07");
  const SpeedPrediction p = predict_speed(pts, query("X"));
  ASSERT_TRUE(p.has_basis);
  EXPECT_EQ(p.n_points, 3);  // A, D and the undated C
  EXPECT_NEAR(p.efficiency, 0.5, 1e-12);
  const auto rows = leave_one_device_out(pts, Phase::kTg);
  ASSERT_EQ(rows.size(), 3u);  // B is not what a prediction is for
  for (const HeldOut& h : rows) EXPECT_NE(h.point.device, "B");
  // The window runs over a year's end: 2025-03-15 less 18 months is 2023-09-15.
  EXPECT_EQ(recent_since({[] {
              SpeedPoint q = tg("E", 0.5);
              q.date = "2025-03-15";
              return q;
            }()}),
            "2023-09-15");
}

TEST(SpeedPrediction, AClassWithOnlyOlderPointsKeepsThemAndSaysSo) {
  std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.4), tg("C", 0.6)};
  pts[0].date = "2026-02-07";
  pts[0].device_class = "gpu/vulkan";  // the newest point, of another class
  pts[1].date = "2024-01-07";
  pts[2].date = "2024-01-10";
  const SpeedPrediction p = predict_speed(pts, query("X"));  // gpu/cuda: B and C, both old
  ASSERT_TRUE(p.has_basis);
  EXPECT_EQ(p.n_points, 2);
  EXPECT_NEAR(p.efficiency, std::sqrt(0.4 * 0.6), 1e-12);
  EXPECT_NE(p.basis.find("2 points of gpu/cuda on 2 devices (the median device's efficiency), all published before "
                         "2024-08-07 (none since)"),
            std::string::npos)
      << p.basis;
}

TEST(SpeedPrediction, ADevicesOldPointsGiveWayToItsClasssRecentOnes) {
  // B's own points are from 2024; its class has 2026's: those first (today's llama.cpp), and B's
  // own old ones only where its class has none recent.
  std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.2), tg("C", 0.5)};
  pts[0].date = "2026-02-07";
  pts[1].date = "2024-01-07";
  pts[2].date = "2026-01-10";
  const SpeedPrediction p = predict_speed(pts, query("B"));
  ASSERT_TRUE(p.has_basis);
  EXPECT_FALSE(p.from_own_device);
  EXPECT_NEAR(p.efficiency, 0.5, 1e-12);
  pts[0].date = pts[2].date = "2024-02-01";  // the window now reaches back to 2022-08-01
  pts[1].date = "2022-01-01";
  EXPECT_FALSE(predict_speed(pts, query("B")).from_own_device);  // B's point is still the old one
  pts[1].date = "2024-01-31";
  const SpeedPrediction r = predict_speed(pts, query("B"));
  EXPECT_TRUE(r.from_own_device);  // B's own point is recent too: its own first
  EXPECT_NEAR(r.efficiency, 0.2, 1e-12);
}

TEST(SpeedPrediction, AMalformedDateIsUndatedAndTheDayKeepsWithinTheMonth) {
  std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.5)};
  pts[0].date = "2026-05";  // month only: as undated, never the newest
  pts[1].date = "2025-08-31";
  EXPECT_EQ(recent_since(pts), "2024-02-28");
  pts[1].date = "not a date";
  EXPECT_EQ(recent_since(pts), "");
}

TEST(SpeedPoints, TheShippedCardsOnASingleBoardComputerAndACacheInHostRamAreNotLearnedFrom) {
  auto rows = hw::load_published_results(hw::published_results_path());
  auto catalog = hw::load_catalog(hw::catalog_path());
  ASSERT_TRUE(rows && catalog);
  int sbc = 0, nkvo = 0;
  for (const hw::PublishedResult& r : *rows) {
    if (r.catalog.empty() || r.n_gen == 0) continue;
    sbc += r.host_kind == "sbc" ? 1 : 0;
    nkvo += r.no_kv_offload ? 1 : 0;
    if (r.host_kind == "sbc" || r.no_kv_offload) {
      EXPECT_FALSE(learnable(r, *catalog)) << r.line;
    }
  }
  EXPECT_GE(sbc, 5);   // RTX 3060, RTX 2080 Ti, Arc A310, RX 580, RX 7900 XT, RX 9070 XT
  EXPECT_EQ(nkvo, 1);  // the RTX 3090 Ti's nkvo 1 tg128
  // The RTX 2080 Ti's tg128 on llama 1B: the desktop's, never the Raspberry Pi's.
  std::vector<double> tg_2080ti;
  for (const SpeedPoint& p : published_points(*rows, *catalog)) {
    if (p.device == "RTX 2080 Ti" && p.phase == Phase::kTg) tg_2080ti.push_back(p.tokens_per_s);
  }
  EXPECT_EQ(tg_2080ti, std::vector<double>{424.32});
}

TEST(SpeedAccuracy, EachDeviceIsLeftOut) {
  // A and B agree, C is off by 2x: held out, C is predicted from A and B only (error +150 %).
  const std::vector<SpeedPoint> pts = {tg("A", 0.5), tg("B", 0.5), tg("C", 0.2)};
  const auto rows = leave_one_device_out(pts, Phase::kTg);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_NEAR(rows[2].error, 0.5 / 0.2 - 1, 1e-9);
  EXPECT_FALSE(rows[2].predicted.from_own_device);
  const AccuracySummary s = summarize_accuracy(rows);
  EXPECT_EQ(s.n_points, 3);
  EXPECT_EQ(s.n_predicted, 3);
  // A from B and C: sqrt(0.5 x 0.2) / 0.5 - 1; B the same; C 1.5.
  const double e_ab = std::abs(std::sqrt(0.1) / 0.5 - 1);
  EXPECT_NEAR(s.median_abs_error, e_ab, 1e-9);
  EXPECT_NEAR(s.p90_abs_error, e_ab + 0.8 * (1.5 - e_ab), 1e-9);
}

}  // namespace
}  // namespace rigbench::fit
