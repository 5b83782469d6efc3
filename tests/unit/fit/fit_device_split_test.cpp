// fit over machines (llama.cpp's RPC backend): the network term of the tg bound, llama.cpp's
// layer split rule over unlike devices, and the plan's verdicts, on header-only files of real
// model shapes written here.
#include <gtest/gtest.h>

#include <filesystem>

#include "fit/device_split.h"
#include "fit/memory_model.h"
#include "model/model_shape.h"
#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

model::ModelShape shape_of(const std::string& preset, const std::string& quant) {
  static testing::TempDir* dir = new testing::TempDir();
  const std::string path = dir->file(preset + "-" + quant + ".gguf");
  if (!std::filesystem::exists(path)) {
    synth::SynthRequest req;
    req.preset = preset;
    req.quant = quant;
    req.output_path = path;
    req.header_only = true;
    auto written = synth::run_synth(req, nullptr);
    EXPECT_TRUE(written) << written.error().message;
  }
  auto shape = model::read_shape(path);
  EXPECT_TRUE(shape) << shape.error().message;
  return *shape;
}

fit::SplitDevice device(const std::string& name, uint64_t capacity, double bw, const std::string& endpoint,
                        const std::string& backend = "rpc") {
  fit::SplitDevice d;
  d.target.name = name;
  d.target.backend = backend;
  d.target.capacity_bytes = capacity;
  d.target.bandwidth_gbps = bw;
  d.endpoint = endpoint;
  return d;
}

TEST(NetworkTerm, OneRoundTripPerHopAsGgmlRpcWaitsForOneAnswerPerSplit) {
  // ggml-rpc.cpp (protocol 6): SET_TENSOR and GRAPH_RECOMPUTE are sent without an answer; the
  // GET_TENSOR of the split's output is the one wait. The relay's count (rpc_e2e_tests,
  // bench/rpc_network_term) saw 1 GET_TENSOR, 1 GRAPH_RECOMPUTE and 5 or 6 SET_TENSOR per token
  // per server.
  EXPECT_EQ(fit::kRpcRoundTripsPerHop, 1);
  EXPECT_EQ(fit::kRpcInputsPerHop, 5);
  // Llama-3.1-70B, a middle hop at depth 0 with flash attention: hidden state 8192 x 4 B, a mask
  // row of 256 f16 cells, position + K/V ids 20 B; 5 SET_TENSOR headers of 9 + 296 + 8 B;
  // GRAPH_RECOMPUTE 9 + 4 B; GET_TENSOR request 9 + 296 + 16 B. Back: 8 + 8192 x 4 B.
  const auto mid = fit::rpc_hop_traffic(8192, 128256, 256, true, false);
  EXPECT_EQ(mid.bytes_to_server, 32768u + 512u + 20u + 5u * 313u + 13u + 321u);
  EXPECT_EQ(mid.bytes_from_server, 8u + 32768u);
  EXPECT_EQ(mid.round_trips, 1);
  // The hop holding the output layer: one more input (output ids, i32) and the logits back.
  const auto out = fit::rpc_hop_traffic(8192, 128256, 256, false, true);
  EXPECT_EQ(out.bytes_to_server, 32768u + 1024u + 24u + 6u * 313u + 13u + 321u);
  EXPECT_EQ(out.bytes_from_server, 8u + 128256u * 4u);
  // Two hops at 1 Gb/s and 0.5 ms: 2 round trips and every byte both ways.
  const fit::Link link{1.0, 0.5, "test", "stated", "stated"};
  const auto net = fit::network_per_token({mid, out}, link);
  EXPECT_EQ(net.hops, 2);
  EXPECT_EQ(net.round_trips, 2);
  const uint64_t bytes = mid.bytes_to_server + mid.bytes_from_server + out.bytes_to_server + out.bytes_from_server;
  EXPECT_EQ(net.bytes, bytes);
  EXPECT_NEAR(net.seconds, 2 * 0.5e-3 + bytes * 8 / 1e9, 1e-15);
  EXPECT_TRUE(net.known);
  EXPECT_EQ(fit::network_per_token({}, link).seconds, 0.0);
  // A link of unknown bandwidth cannot carry bytes in 0 s: the term says it is not known.
  EXPECT_FALSE(fit::network_per_token({mid}, fit::Link{0, 2.0, "test", "", ""}).known);
}

TEST(NetworkTerm, MaskCoversTheCellsInUsePaddedTo256AtMostTheContext) {
  EXPECT_EQ(fit::mask_cells(8192, 0), 256u);
  EXPECT_EQ(fit::mask_cells(8192, 255), 256u);
  EXPECT_EQ(fit::mask_cells(8192, 256), 512u);
  EXPECT_EQ(fit::mask_cells(8192, 100000), 8192u);
  EXPECT_EQ(fit::mask_cells(128, 0), 128u);
}

TEST(SplitLayers, LlamaCppRuleRpcFirstOutputOnLastDevice) {
  // 80 blocks + output, all offloaded, shares 1:1: 40.5 layers each -> blocks 0..40 on the
  // first device (positions < 0.5), 41..79 and the output on the second.
  const auto placed = fit::split_layer_devices(80, -1, {1, 1});
  int first = 0, second = 0;
  for (int il = 0; il < 80; ++il) (placed[static_cast<std::size_t>(il)] == 0 ? first : second)++;
  EXPECT_EQ(first, 41);
  EXPECT_EQ(second, 39);
  EXPECT_EQ(placed[80], 1);
  // -ngl 10: the last 9 blocks and the output, split over both; the rest on the host.
  const auto partial = fit::split_layer_devices(80, 10, {1, 1});
  EXPECT_EQ(partial[70], -1);
  EXPECT_EQ(partial[71], 0);
  EXPECT_EQ(partial[75], 0);
  EXPECT_EQ(partial[76], 1);
  EXPECT_EQ(partial[80], 1);
}

TEST(DeviceSplit, Llama70BOverA3090AndA64GBDesktopFitsWithANetworkTerm) {
  const auto shape = shape_of("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 8192;
  // The desktop runs ggml-rpc-server (CPU, 64 GB), the 3090 box runs the model.
  std::vector<fit::SplitDevice> devs = {device("desktop", 64 * kGiB, 51.2, "remote 1", "cpu"),
                                        device("RTX 3090", 24 * kGiB, 936, "", "cuda")};
  fit::Target host;
  host.host_ram_bytes = 32 * kGiB;
  host.host_bandwidth_gbps = 51.2;
  const fit::Link link{1.0, 0.5, "test"};
  const auto plan = fit::plan_device_split(shape, devs, host, ctx, -1, 0, link);
  ASSERT_EQ(plan.devices.size(), 2u);
  EXPECT_EQ(plan.verdict, fit::Verdict::kFits);
  EXPECT_EQ(plan.n_layers[0] + plan.n_layers[1], 80);
  EXPECT_GT(plan.n_layers[0], plan.n_layers[1]);  // by free memory: 64 GB vs 24 GB
  EXPECT_EQ(plan.output_device, 1);
  EXPECT_EQ(plan.hops, 1);
  // One hop (the desktop, not holding the output layer): its round trip and its bytes.
  const auto hop = fit::rpc_hop_traffic(8192, shape.n_vocab, 256, ctx.flash_attn, false);
  EXPECT_EQ(plan.round_trips_per_token, 1);
  EXPECT_EQ(plan.network_bytes_per_token, hop.bytes_to_server + hop.bytes_from_server);
  EXPECT_NEAR(plan.network_s_per_token, fit::network_per_token({hop}, link).seconds, 1e-15);
  EXPECT_LT(plan.tg_bound_tps, plan.compute_bound_tps);
  EXPECT_NEAR(1.0 / plan.tg_bound_tps, 1.0 / plan.compute_bound_tps + plan.network_s_per_token, 1e-9);
  // Every byte of the weights is somewhere: devices plus host.
  uint64_t weights = plan.host.weights;
  for (const auto& d : plan.devices) weights += d.device.weights;
  EXPECT_EQ(weights, shape.tensor_bytes);
}

TEST(DeviceSplit, AutoOffloadStopsWhereADeviceIsFullAndEachDeviceHasItsVerdict) {
  const auto shape = shape_of("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 4096;
  std::vector<fit::SplitDevice> devs = {device("a", 16 * kGiB, 100, "h:1"), device("b", 16 * kGiB, 100, "h:2")};
  fit::Target host;
  host.host_ram_bytes = 128 * kGiB;
  host.host_bandwidth_gbps = 50;
  const auto all = fit::plan_device_split(shape, devs, host, ctx, -1, 0, {1, 0.5, "t"});
  EXPECT_EQ(all.verdict, fit::Verdict::kNo);  // ~40 GiB does not go into 2 x 15 GiB usable
  EXPECT_EQ(all.devices[0].verdict, fit::Verdict::kNo);
  const auto aut = fit::plan_device_split(shape, devs, host, ctx, -2, 0, {1, 0.5, "t"});
  EXPECT_EQ(aut.verdict, fit::Verdict::kPartial);
  EXPECT_LT(aut.n_gpu_layers, 81);
  for (const auto& d : aut.devices) EXPECT_LE(d.device.total(), d.target.usable_bytes());
  EXPECT_EQ(aut.hops, 2);
}

TEST(DeviceSplit, ADeviceOfUnknownBandwidthMakesTheBoundUnknownNotZeroSeconds) {
  const auto shape = shape_of("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 4096;
  // The first server holds layers but its bandwidth is not known (0): before, it added 0 s and
  // the bound came out as if its layers were free.
  std::vector<fit::SplitDevice> devs = {device("mystery", 64 * kGiB, 0, "h:1"), device("b", 64 * kGiB, 100, "h:2")};
  fit::Target host;
  host.host_ram_bytes = 128 * kGiB;
  host.host_bandwidth_gbps = 50;
  const auto plan = fit::plan_device_split(shape, devs, host, ctx, -1, 0, {1, 0.5, "t", "", ""});
  EXPECT_GT(plan.n_layers[0], 0);
  EXPECT_EQ(plan.tg_bound_tps, 0.0);
  EXPECT_EQ(plan.compute_bound_tps, 0.0);
  EXPECT_NE(plan.bound_unknown.find("mystery"), std::string::npos) << plan.bound_unknown;
  for (const auto& d : plan.devices) EXPECT_EQ(d.tg_bound_tps, 0.0);
  EXPECT_GT(plan.network_s_per_token, 0.0);  // the network is still known
  // With its bandwidth known, the bound is known and finite.
  devs[0].target.bandwidth_gbps = 100;
  const auto known = fit::plan_device_split(shape, devs, host, ctx, -1, 0, {1, 0.5, "t", "", ""});
  EXPECT_TRUE(known.bound_unknown.empty());
  EXPECT_GT(known.tg_bound_tps, 0.0);
}

}  // namespace
}  // namespace rigbench
