// bench's preflight (measure/preflight.h): a run over rpc-servers is planned as `fit --rpc` plans
// it, so the tg bound bench prints beside the measured tg is fit's, the network term included.
#include "measure/preflight.h"

#include <gtest/gtest.h>

#include "fit/device_split.h"
#include "model/model_file.h"
#include "support/fit_targets.h"

namespace rigbench::measure {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

model::ModelShape stories() {
  auto file = model::check_model_file(RIGBENCH_TEST_MODEL);
  EXPECT_TRUE(file) << file.error().message;
  return file->shape;
}

fit::Target cpu_machine() { return testing::local_target("this machine", "cpu", 16 * kGiB, 16 * kGiB, 20); }

TestCase run_with(const std::string& rpc, const std::string& ts = "0.00") {
  TestCase tc;
  tc.model_path = RIGBENCH_TEST_MODEL;
  tc.params.n_ctx = 512;
  tc.params.n_gpu_layers = -1;
  tc.params.rpc = rpc;
  tc.params.tensor_split = ts;
  return tc;
}

// bench --rpc printed the local bound (memory only, 32426.6 t/s for stories260K) beside the
// measured tg while fit --rpc printed 8480.48 t/s for the same split: bench now asks the same
// function (fit::plan_device_split) with the same setup (fit::rpc_split_setup).
TEST(Preflight, RpcRunsBoundIsFitsWithTheNetworkTerm) {
  const model::ModelShape shape = stories();
  const std::map<std::string, model::ModelShape> shapes = {{RIGBENCH_TEST_MODEL, shape}};
  const fit::Target local = cpu_machine();
  const std::string rpc = "127.0.0.1:50052,127.0.0.1:50053";
  const fit::SplitSetup setup = fit::rpc_split_setup(
      {{"127.0.0.1:50052", {8 * kGiB}, 0.09}, {"127.0.0.1:50053", {4 * kGiB}, 0.11}}, local, 0, -1);
  const Preflight pre = preflight({run_with("none"), run_with(rpc), run_with(rpc, "1/3")}, shapes, local, false,
                                  {{rpc, setup}});
  ASSERT_EQ(pre.rooflines.size(), 3u);
  fit::ContextParams ctx;
  ctx.n_ctx = 512;
  // A local run keeps plan_fit's bound.
  EXPECT_DOUBLE_EQ(pre.rooflines[0].tg_bound_tps, fit::plan_fit(shape, local, ctx, -1, 0).tg_bound_tps);
  // The split run: fit's bound over the same devices and link.
  const fit::SplitPlan by_memory = fit::plan_device_split(shape, setup.devices, setup.host, ctx, -1, 0, setup.link);
  ASSERT_GT(by_memory.tg_bound_tps, 0);
  EXPECT_EQ(by_memory.hops, 2);
  EXPECT_DOUBLE_EQ(pre.rooflines[1].tg_bound_tps, by_memory.tg_bound_tps);
  EXPECT_LT(pre.rooflines[1].tg_bound_tps, by_memory.compute_bound_tps);  // the network counts
  EXPECT_LT(pre.rooflines[1].tg_bound_tps, pre.rooflines[0].tg_bound_tps);
  // Its two terms are kept for the note beside a tg above the bound; a local run has neither.
  EXPECT_DOUBLE_EQ(pre.rooflines[1].memory_bound_tps, by_memory.compute_bound_tps);
  EXPECT_DOUBLE_EQ(pre.rooflines[1].network_ms_per_token, by_memory.network_s_per_token * 1e3);
  EXPECT_EQ(pre.rooflines[0].memory_bound_tps, 0.0);
  EXPECT_EQ(pre.rooflines[0].network_ms_per_token, 0.0);
  // -ts as llama-bench writes it ("1/3"): the shares of the same split.
  std::vector<fit::SplitDevice> shared = setup.devices;
  fit::set_split_shares(shared, {1, 3});
  const fit::SplitPlan by_ts = fit::plan_device_split(shape, shared, setup.host, ctx, -1, 0, setup.link);
  EXPECT_DOUBLE_EQ(pre.rooflines[2].tg_bound_tps, by_ts.tg_bound_tps);
  EXPECT_LT(by_ts.n_layers[0], by_ts.n_layers[1]);
  for (const auto& r : pre.refusals) EXPECT_EQ(r, "");
}

TEST(Preflight, RpcRunRefusedWhenADeviceOfTheSplitLacksRoom) {
  const model::ModelShape shape = stories();
  const std::map<std::string, model::ModelShape> shapes = {{RIGBENCH_TEST_MODEL, shape}};
  const fit::Target local = cpu_machine();
  // A server with 1 GiB free keeps nothing: llama.cpp's --fit keeps 1 GiB free.
  const std::string rpc = "h:1";
  const auto setup = fit::rpc_split_setup({{"h:1", {kGiB}, 0.1}}, local, 0, -1);
  const Preflight refused = preflight({run_with(rpc)}, shapes, local, false, {{rpc, setup}});
  EXPECT_NE(refused.refusals[0].find("will not fit the split over --rpc h:1: RPC0 h:1 needs"), std::string::npos)
      << refused.refusals[0];
  EXPECT_EQ(preflight({run_with(rpc)}, shapes, local, true, {{rpc, setup}}).refusals[0], "");
}

// tune -np N: every candidate is planned for N sequences as fit plans them (llama.cpp's default,
// one KV stream each: PAD(PAD(512) / 4) = 256 cells a stream, 1024 in all, twice 512's), and a
// machine that holds one sequence's plan but not four's refuses the run, saying so.
TEST(Preflight, PlansTheSequencesAsFitDoesAndNamesThemWhenRefused) {
  const model::ModelShape shape = stories();
  const std::map<std::string, model::ModelShape> shapes = {{RIGBENCH_TEST_MODEL, shape}};
  fit::Target local = cpu_machine();
  const Preflight one = preflight({run_with("none")}, shapes, local, false, {}, 1);
  const Preflight four = preflight({run_with("none")}, shapes, local, false, {}, 4);
  fit::ContextParams ctx;
  ctx.n_ctx = 512;
  const fit::FitResult f1 = fit::plan_fit(shape, local, ctx, -1, 0);
  ctx.n_seq = 4;
  const fit::FitResult f4 = fit::plan_fit(shape, local, ctx, -1, 0);
  EXPECT_EQ(one.rooflines[0].estimate_bytes, f1.device.total() + f1.host.total());
  EXPECT_EQ(four.rooflines[0].estimate_bytes, f4.device.total() + f4.host.total());
  EXPECT_EQ(f4.device.kv + f4.host.kv, 2 * (f1.device.kv + f1.host.kv));
  ASSERT_GT(four.rooflines[0].estimate_bytes, one.rooflines[0].estimate_bytes);

  local.reserve_bytes = 0;
  local.capacity_bytes = (one.rooflines[0].estimate_bytes + four.rooflines[0].estimate_bytes) / 2;
  local.host_ram_bytes = local.capacity_bytes;
  EXPECT_EQ(preflight({run_with("none")}, shapes, local, false, {}, 1).refusals[0], "");
  const std::string refused = preflight({run_with("none")}, shapes, local, false, {}, 4).refusals[0];
  EXPECT_NE(refused.find("at n_ctx 512 for 4 sequences will not fit this machine"), std::string::npos) << refused;
}

}  // namespace
}  // namespace rigbench::measure
