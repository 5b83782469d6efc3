// fit over machines (llama.cpp's RPC backend): the network term of the tg bound, llama.cpp's
// layer split rule over unlike devices, and the plan's verdicts, on header-only files of real
// model shapes (support/preset_shape.h).
#include <gtest/gtest.h>

#include "fit/compute_buffer.h"
#include "fit/device_split.h"
#include "fit/memory_model.h"
#include "fit/planner.h"
#include "model/model_shape.h"
#include "support/fit_targets.h"
#include "support/preset_shape.h"

namespace rigbench {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

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
  // Llama-3.1-70B, a middle hop at depth 0 with flash attention: hidden state 8192 x 4 B, a mask
  // row of 256 f16 cells, position + K/V ids 20 B; 5 SET_TENSOR headers of 9 + 296 + 8 B;
  // GRAPH_RECOMPUTE 9 + 4 B; GET_TENSOR request 9 + 296 + 16 B. Back: 8 + 8192 x 4 B.
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams fa;
  fa.n_ctx = 8192;
  const auto in = fit::token_inputs(shape, fa, 8192, 0);
  EXPECT_EQ(in.mask_bytes, 512u);
  EXPECT_EQ(in.position_and_row_id_bytes, 4u + 16u);
  // One count of them for the wire and for the compute buffers' copies (compute_buffer.h).
  EXPECT_EQ(in.position_and_row_id_bytes, fit::position_and_row_id_bytes(shape, fa));
  EXPECT_EQ(in.tensors + 1, 5);  // + the hidden state: the 5 SET_TENSORs the relay counted
  const auto mid = fit::rpc_hop_traffic(8192, 128256, in, false);
  EXPECT_EQ(mid.bytes_to_server, 32768u + 512u + 20u + 5u * 313u + 13u + 321u);
  EXPECT_EQ(mid.bytes_from_server, 8u + 32768u);
  EXPECT_EQ(mid.round_trips, 1);
  // The hop holding the output layer, without flash attention: an f32 mask row, and V's row ids one
  // i64 per value of a token's V (8 KV heads x 128: llama_kv_cache::build_input_v_idxs, V stored
  // transposed; before, 8 B were counted); one more input (output ids, i32) and the logits back.
  fit::ContextParams no_fa = fa;
  no_fa.flash_attn = false;
  const auto in_no_fa = fit::token_inputs(shape, no_fa, 8192, 0);
  EXPECT_EQ(in_no_fa.position_and_row_id_bytes, 4u + 8u + 1024u * 8u);
  EXPECT_EQ(in_no_fa.position_and_row_id_bytes, fit::position_and_row_id_bytes(shape, no_fa));
  const auto out = fit::rpc_hop_traffic(8192, 128256, in_no_fa, true);
  EXPECT_EQ(out.bytes_to_server, 32768u + 1024u + 4u + 8200u + 4u + 6u * 313u + 13u + 321u);
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

TEST(NetworkTerm, SlidingWindowModelsSendTheWindowCachesMaskAndRowIdsToo) {
  // Gemma-2-9B (every other layer slides, window 4096): build_attn_inp_kv_iswa gives each cache a
  // mask and K/V row ids, so a hop takes 7 tensors besides the hidden state (before: 5, and the
  // window's mask was not counted). At -c 8192 and depth 5000 the full mask spans 5120 cells, the
  // window's its 4608 (PAD(4096 + 512, 256)).
  const auto shape = testing::preset_shape("Gemma-2-9B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 8192;
  const auto in = fit::token_inputs(shape, ctx, 8192, 5000);
  EXPECT_EQ(in.mask_bytes, (5120u + 4608u) * 2u);
  EXPECT_EQ(in.position_and_row_id_bytes, 4u + 2u * 16u);
  EXPECT_EQ(in.tensors, 7);
  // Early in the context both masks cover the 256 cells in use.
  EXPECT_EQ(fit::token_inputs(shape, ctx, 8192, 0).mask_bytes, 2u * 256u * 2u);
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

// llama.cpp's own no_alloc plan (rigbench fit --rpc --check -o json, two or three ggml-rpc-servers
// on 127.0.0.1, -c 4096 -ngl -1 -ts 1,1[,1]) of the header-only Llama-3.2-1B Q4_K_M written here:
// per device weights + KV + compute, the host's weights + compute. With every layer on more than
// one device llama.cpp runs pipeline parallelism (compute_buffer.h): 4 copies of each split's
// inputs. Before: RPC0 0.983, RPC1 0.975, host 1.017 of these (the norm crossing into the second
// device, the hole of a middle block, the host's fifth mask).
struct LlamaCppPlan {
  std::vector<uint64_t> devices;
  uint64_t host;
};

std::vector<uint64_t> device_totals(const fit::SplitPlan& plan) {
  std::vector<uint64_t> totals;
  for (const auto& d : plan.devices) totals.push_back(d.device.weights + d.device.kv + d.device.compute);
  return totals;
}

fit::SplitPlan plan_over_servers(const model::ModelShape& shape, int n_servers, bool flash_attn) {
  fit::ContextParams ctx;
  ctx.n_ctx = 4096;
  ctx.flash_attn = flash_attn;
  std::vector<fit::SplitDevice> devs;
  for (int i = 0; i < n_servers; ++i) {
    devs.push_back(device("RPC" + std::to_string(i), 24 * kGiB, 30, "127.0.0.1:" + std::to_string(50601 + i)));
    devs.back().share = 1;
  }
  const fit::Target host = testing::split_host(24 * kGiB, 30);
  return fit::plan_device_split(shape, devs, host, ctx, -1, 0, {1, 0.5, "t", "", ""});
}

TEST(PipelineParallel, EachDeviceAndTheHostAsLlamaCppsNoAllocPlanOfLlama1BOverTwoAndThreeServers) {
  const auto shape = testing::preset_shape("Llama-3.2-1B", "Q4_K_M");
  // Flash attention (llama.cpp's auto resolves to on): to 128 bytes (an alignment on the first device).
  for (const auto& [n, want] : std::vector<std::pair<int, LlamaCppPlan>>{
           {2, {{498425984, 849408128}, 240693248}}, {3, {{365985920, 378167424, 716968064}, 240693248}}}) {
    const auto plan = plan_over_servers(shape, n, true);
    const auto got = device_totals(plan);
    ASSERT_EQ(got.size(), want.devices.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(static_cast<double>(got[i]), static_cast<double>(want.devices[i]), 128) << n << " servers, RPC" << i;
    EXPECT_EQ(plan.host.weights + plan.host.kv + plan.host.compute, want.host) << n << " servers";
  }
  // Without flash attention: the masks in F32, the V row ids one per value of the widest V (512
  // i64 per token, 4 copies on the host and on each device); the scores' phase is the fitted one
  // (within 1 %: llama.cpp's allocator lays the block out tighter).
  const auto plan = plan_over_servers(shape, 2, false);
  const auto got = device_totals(plan);
  const std::vector<uint64_t> want = {745873536, 892907648};
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(static_cast<double>(got[i]) / static_cast<double>(want[i]), 1.0, 0.01) << "RPC" << i;
  EXPECT_EQ(plan.host.weights + plan.host.kv + plan.host.compute, 265842688u);
}

TEST(PipelineParallel, TheHostKeepsFourCopiesOfEachGraphInputAndTheSecondDeviceTheCrossingNorm) {
  const auto shape = testing::preset_shape("Llama-3.2-1B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 4096;
  const uint64_t u = 512, e = 2048, mask = 4096 * u * 2;
  // Host: 4 x (mask + tokens, positions, K and V row ids, output ids: 4 + 4 + 8 + 8 + 4 B a token)
  // + the embedding input and its lookup.
  EXPECT_EQ(fit::pipeline_host_compute_bytes(shape, ctx), 4 * (mask + u * 28) + 2 * u * e * 4);
  // The second device of two, holding the output layer: 4 x (the previous device's output and its
  // first block's norm, positions, row ids, mask, output ids) + the logits beside one n_embd.
  fit::PipelineRole last;
  last.output = true;
  last.middle_layer = true;
  EXPECT_EQ(fit::pipeline_device_compute_bytes(shape, ctx, last),
            4 * (mask + u * (2 * e * 4 + 4 + 16 + 4)) + u * 4 * (shape.n_vocab + e));
  // The first device: the embedding crosses alone; its FFN phase over a middle block: 3 n_embd
  // (the residual's hole) + 3 n_ff.
  fit::PipelineRole first;
  first.first = true;
  first.middle_layer = true;
  EXPECT_EQ(fit::pipeline_device_compute_bytes(shape, ctx, first),
            4 * (mask + u * (e * 4 + 4 + 16)) + u * 4 * (3 * e + 3 * 8192));
  // Without a middle block (a device holding one block) the hole is not there.
  first.middle_layer = false;
  EXPECT_EQ(fit::pipeline_device_compute_bytes(shape, ctx, first),
            4 * (mask + u * (e * 4 + 4 + 16)) + u * 4 * (2 * e + 3 * 8192));
}

// `count` devices of one catalog backend (fit --device NAME --count N, and --rank's counts):
// llama.cpp pipelines over them as over rpc-servers where the backend's devices report async
// compute and events (memory_model.h backend_pipelines), with the same rule
// (estimate_split_devices).
fit::Target catalog_like(const std::string& backend) {
  fit::Target t;
  t.name = backend;
  t.backend = backend;
  t.capacity_bytes = 24 * kGiB;
  t.host_ram_bytes = 64 * kGiB;
  t.bandwidth_gbps = t.host_bandwidth_gbps = 100;
  return t;
}

TEST(PipelineParallel, BackendsThatReportAsyncComputeAndEvents) {
  for (const char* b : {"cuda", "rocm", "vulkan", "sycl", "metal", "rpc", "CUDA"})
    EXPECT_TRUE(fit::backend_pipelines(b)) << b;
  for (const char* b : {"cpu", "opencl", "cann", "webgpu", "gpu", ""}) EXPECT_FALSE(fit::backend_pipelines(b)) << b;
}

// Several CUDA (or ROCm, SYCL) cards cannot be run here. The scheduler's copies do not depend on
// the backend (ggml-backend.cpp: the inputs of every split, on any backend with n_copies > 1), so
// the expected bytes are llama.cpp's no_alloc plan of the same split over two and three
// ggml-rpc-servers (CPU backend behind RPC devices, which pipeline: the test above), derived, not
// measured on CUDA; each card adds its backend's stated overhead.
TEST(PipelineParallel, CountOfCudaCardsKeepsTheCopiesLlamaCppPlansOverRpcServers) {
  const auto shape = testing::preset_shape("Llama-3.2-1B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 4096;
  for (const char* backend : {"cuda", "rocm", "sycl"}) {
    for (const auto& [n, want] : std::vector<std::pair<int, LlamaCppPlan>>{
             {2, {{498425984, 849408128}, 240693248}}, {3, {{365985920, 378167424, 716968064}, 240693248}}}) {
      const auto rs = fit::plan_fit_split(shape, catalog_like(backend), ctx, -1, 0, n, {});
      ASSERT_EQ(rs.size(), want.devices.size());
      for (std::size_t i = 0; i < rs.size(); ++i) {
        const auto& d = rs[i].device;
        EXPECT_NEAR(static_cast<double>(d.weights + d.kv + d.compute), static_cast<double>(want.devices[i]), 128)
            << backend << " x" << n << " #" << i;
        EXPECT_EQ(d.overhead, fit::backend_overhead_bytes(backend));
      }
      EXPECT_EQ(rs[0].host.weights + rs[0].host.kv + rs[0].host.compute, want.host) << backend << " x" << n;
      // The rpc path's rule and this one are one: the same split over servers plans the same compute.
      const auto servers = plan_over_servers(shape, n, true);
      for (std::size_t i = 0; i < rs.size(); ++i) EXPECT_EQ(rs[i].device.compute, servers.devices[i].device.compute);
      EXPECT_EQ(rs[0].host.compute, servers.host.compute);
    }
  }
}

// llama.cpp's own no_alloc plan over two and three Vulkan devices, measured here: Mesa's lavapipe
// listed two or three times (GGML_VK_VISIBLE_DEVICES=0,0[,0], rigbench fit models/stories260K.gguf
// -c 4096 --check with RIGBENCH_LLAMA_LOG=1 on a Vulkan build: "pipeline parallelism enabled" and
// sched_reserve's compute buffer per device, 2 decimals, and their exact sum in --check's
// compute_bytes), with GGML_VK_DISABLE_GRAPH_OPTIMIZE=1. By default ggml-vulkan reorders each
// split's nodes for fusion, which moves one n_embd x n_ubatch F32 (128 KiB here) from the first
// device's buffer to the next one's (17.80 / 18.43 MiB for 17.92 / 18.30, the sum the same); the
// rule follows the graph's own order, as the CPU behind rpc-servers runs it.
TEST(PipelineParallel, CountOfVulkanDevicesAsLlamaCppPlansOverLavapipe) {
  auto shape = model::read_shape(RIGBENCH_TEST_MODEL);
  ASSERT_TRUE(shape) << shape.error().message;
  constexpr double kMiB = 1 << 20;
  struct Measured {
    int n;
    bool flash_attn;
    std::vector<double> devices_mib;
    double host_mib;
    uint64_t compute_bytes;  // every device and the host
  };
  // With flash attention: each buffer to its 2 decimals, the sum to the byte. Without it the host to
  // its 2 decimals, each device within 0.5 % above (the scores' phase is the single-device fit,
  // which llama.cpp's allocator lays out tighter: 97.77 / 98.28 MiB planned).
  for (const Measured& m : std::vector<Measured>{{2, true, {17.92, 18.30}, 16.30, 55083008},
                                                 {3, true, {17.92, 18.42, 18.30}, 16.30, 74399744},
                                                 {2, false, {97.52, 98.03}, 32.79, 239435776},
                                                 {3, false, {97.52, 98.02, 97.91}, 32.79, 342089728}}) {
    fit::ContextParams ctx;
    ctx.n_ctx = 4096;
    ctx.flash_attn = m.flash_attn;
    const auto rs = fit::plan_fit_split(*shape, catalog_like("vulkan"), ctx, -1, 0, m.n, {});
    ASSERT_EQ(rs.size(), m.devices_mib.size());
    uint64_t sum = rs[0].host.compute;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const double got = static_cast<double>(rs[i].device.compute) / kMiB;
      if (m.flash_attn) EXPECT_NEAR(got, m.devices_mib[i], 0.005) << m.n << " #" << i;
      else EXPECT_NEAR(got / m.devices_mib[i], 1.0025, 0.0025) << m.n << " #" << i << " without flash attention";
      sum += rs[i].device.compute;
    }
    EXPECT_NEAR(static_cast<double>(rs[0].host.compute) / kMiB, m.host_mib, 0.005) << m.n;
    if (m.flash_attn) EXPECT_EQ(sum, m.compute_bytes) << m.n;
  }
}

// No copies where llama.cpp does not pipeline: one device, a layer left on the host, the KV cache
// on the host, a tensor override, or a backend whose devices report no async compute (OpenCL).
TEST(PipelineParallel, NoCopiesWhereLlamaCppDoesNotPipeline) {
  const auto shape = testing::preset_shape("Llama-3.2-1B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 4096;
  const int n_layer = static_cast<int>(shape.n_layer);
  auto computes = [&](const std::string& backend, const fit::ContextParams& c, int ngl, int count) {
    std::vector<uint64_t> out;
    for (const auto& r : fit::plan_fit_split(shape, catalog_like(backend), c, ngl, 0, count, {}))
      out.push_back(r.device.compute);
    return out;
  };
  const uint64_t plain = fit::compute_buffer_bytes(shape, ctx, false);
  const uint64_t with_output = fit::compute_buffer_bytes(shape, ctx, true);
  EXPECT_EQ(computes("cuda", ctx, -1, 1), std::vector<uint64_t>{with_output});
  EXPECT_EQ(computes("opencl", ctx, -1, 2), (std::vector<uint64_t>{plain, with_output}));
  EXPECT_EQ(computes("cuda", ctx, n_layer, 2), (std::vector<uint64_t>{plain, with_output}));
  fit::ContextParams no_kv = ctx;
  no_kv.offload_kqv = false;
  EXPECT_EQ(computes("cuda", no_kv, -1, 2),
            (std::vector<uint64_t>{fit::compute_buffer_bytes(shape, no_kv, false),
                                   fit::compute_buffer_bytes(shape, no_kv, true)}));
  fit::ContextParams overridden = ctx;
  overridden.tensor_overrides = {{"nothing_matches", "CPU"}};
  EXPECT_EQ(computes("cuda", overridden, -1, 2), (std::vector<uint64_t>{plain, with_output}));
  // And with every condition met, the copies.
  EXPECT_GT(computes("cuda", ctx, -1, 2)[0], plain);
}

// Llama-3.1-70B Q4_K_M at -c `n_ctx` over `devs` (-ngl `ngl`: -1 all, -2 auto), beside a host of
// `host_ram` bytes at `host_gbps` GB/s; the link 1 Gb/s, 0.5 ms.
const fit::Link kLink{1.0, 0.5, "test", "stated", "stated"};
fit::SplitPlan llama70b_over(const std::vector<fit::SplitDevice>& devs, uint64_t host_ram, double host_gbps = 51.2,
                             int n_ctx = 8192, int ngl = -1) {
  fit::ContextParams ctx;
  ctx.n_ctx = n_ctx;
  return fit::plan_device_split(testing::preset_shape("Llama-3.1-70B", "Q4_K_M"), devs,
                                testing::split_host(host_ram, host_gbps), ctx, ngl, 0, kLink);
}

TEST(DeviceSplit, Llama70BOverA3090AndA64GBDesktopFitsWithANetworkTerm) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 8192;
  // The desktop runs ggml-rpc-server (CPU, 64 GB), the 3090 box runs the model.
  const auto plan = llama70b_over({device("desktop", 64 * kGiB, 51.2, "remote 1", "cpu"),
                                   device("RTX 3090", 24 * kGiB, 936, "", "cuda")},
                                  32 * kGiB);
  ASSERT_EQ(plan.devices.size(), 2u);
  EXPECT_EQ(plan.verdict, fit::Verdict::kFits);
  EXPECT_EQ(plan.n_layers[0] + plan.n_layers[1], 80);
  EXPECT_GT(plan.n_layers[0], plan.n_layers[1]);  // by free memory: 64 GB vs 24 GB
  EXPECT_EQ(plan.output_device, 1);
  EXPECT_EQ(plan.hops, 1);
  // One hop (the desktop, not holding the output layer): its round trip and its bytes.
  const auto hop = fit::rpc_hop_traffic(8192, shape.n_vocab, fit::token_inputs(shape, ctx, 8192, 0), false);
  EXPECT_EQ(plan.round_trips_per_token, 1);
  EXPECT_EQ(plan.network_bytes_per_token, hop.bytes_to_server + hop.bytes_from_server);
  EXPECT_NEAR(plan.network_s_per_token, fit::network_per_token({hop}, kLink).seconds, 1e-15);
  EXPECT_LT(plan.tg_bound_tps, plan.compute_bound_tps);
  EXPECT_NEAR(1.0 / plan.tg_bound_tps, 1.0 / plan.compute_bound_tps + plan.network_s_per_token, 1e-9);
  // Every byte of the weights is somewhere: devices plus host.
  uint64_t weights = plan.host.weights;
  for (const auto& d : plan.devices) weights += d.device.weights;
  EXPECT_EQ(weights, shape.tensor_bytes);
}

// fit --rpc / --rpc-device printed "fits" with max n_ctx "-" (JSON max_ctx 0): the split never
// searched for it. Now every device's row carries the plan's: the largest context at which this
// placement has room on every device and in host RAM.
TEST(DeviceSplit, MaxCtxIsTheLargestContextWithRoomOnEveryDeviceAndTheHost) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams ctx;
  ctx.n_ctx = 8192;
  // Two 24 GiB cards, one behind an rpc-server: as fit --device 'RTX 3090' --count 2 (17152).
  std::vector<fit::SplitDevice> devs = {device("RTX 3090 remote", 24 * kGiB, 936, "remote 1", "cuda"),
                                        device("RTX 3090", 24 * kGiB, 936, "", "cuda")};
  const fit::Target host = testing::split_host(64 * kGiB, 51.2);
  const auto plan = llama70b_over(devs, 64 * kGiB);
  ASSERT_EQ(plan.verdict, fit::Verdict::kFits);
  EXPECT_EQ(plan.max_ctx, 17152);
  EXPECT_EQ(plan.max_ctx % 256, 0);
  for (const auto& d : plan.devices) EXPECT_EQ(d.max_ctx, plan.max_ctx) << d.target.name;
  // It fits there and not 256 cells further (below the trained context, 131072).
  ASSERT_LT(plan.max_ctx, 131072);
  fit::ContextParams at = ctx, past = ctx;
  at.n_ctx = plan.max_ctx;
  past.n_ctx = plan.max_ctx + 256;
  EXPECT_EQ(fit::plan_device_split(shape, devs, host, at, -1, 0, kLink).verdict, fit::Verdict::kFits);
  EXPECT_EQ(fit::plan_device_split(shape, devs, host, past, -1, 0, kLink).verdict, fit::Verdict::kNo);
  // The split's layers are each device's own.
  EXPECT_EQ(plan.devices[0].split_layers, plan.n_layers[0]);
  EXPECT_EQ(plan.devices[1].split_layers, plan.n_layers[1]);
  EXPECT_FALSE(plan.devices[0].split_output);
  EXPECT_TRUE(plan.devices[1].split_output);
  EXPECT_EQ(fit::split_layers_text(plan.devices[1]), std::to_string(plan.n_layers[1]) + " layers + output");
  // A placement with no room at any context reads 0 ("-").
  std::vector<fit::SplitDevice> tiny = {device("tiny", 2 * kGiB, 50, "h:1")};
  EXPECT_EQ(fit::plan_device_split(shape, tiny, host, ctx, -1, 0, kLink).max_ctx, 0);
}

// fit --rpc and bench --rpc build their split with one function: the servers' devices in order,
// then this machine's GPU; the round trip the servers' median unless stated.
TEST(DeviceSplit, RpcSplitSetupPutsTheServersFirstAndTakesTheirMedianRoundTrip) {
  const fit::Target gpu = testing::local_target("this machine: Vulkan0", "vulkan", 8 * kGiB, 32 * kGiB, 40);
  const std::vector<fit::RpcServerMemory> servers = {
      {"a:1", {10 * kGiB, 6 * kGiB}, 0.30}, {"b:2", {4 * kGiB}, 0.10}, {"c:3", {2 * kGiB}, 0.20}};
  const fit::SplitSetup s = fit::rpc_split_setup(servers, gpu, 0, -1);
  ASSERT_EQ(s.devices.size(), 5u);
  EXPECT_EQ(s.devices[0].target.name, "RPC0 a:1");
  EXPECT_EQ(s.devices[1].target.name, "RPC1 a:1");
  EXPECT_EQ(s.devices[3].target.name, "RPC3 c:3");
  EXPECT_EQ(s.devices[1].target.capacity_bytes, 6 * kGiB);
  EXPECT_EQ(s.devices[2].target.bandwidth_gbps, 40);  // assumed: this machine's
  EXPECT_EQ(s.devices[4].target.name, gpu.name);
  EXPECT_EQ(s.devices[4].endpoint, "");
  EXPECT_EQ(s.host.host_ram_bytes, 32 * kGiB);
  EXPECT_DOUBLE_EQ(s.link.rtt_ms, 0.20);
  EXPECT_EQ(s.link.rtt_from, "measured");
  EXPECT_DOUBLE_EQ(s.link.gbps, 1.0);
  EXPECT_EQ(s.link.gbps_from, "assumed");
  EXPECT_EQ(s.link.source, "1 Gb/s assumed (gigabit Ethernet; --link-gbps), round trip 0.200 ms measured (median of 5 per server)");
  // Stated figures win; a CPU-only machine adds no device.
  fit::Target cpu = gpu;
  cpu.backend = "cpu";
  const fit::SplitSetup stated = fit::rpc_split_setup(servers, cpu, 2.5, 20);
  EXPECT_EQ(stated.devices.size(), 4u);
  EXPECT_DOUBLE_EQ(stated.link.rtt_ms, 20);
  EXPECT_EQ(stated.link.rtt_from, "stated");
  EXPECT_EQ(stated.link.source, "--link-gbps 2.500, --link-rtt-ms 20.000");
}

TEST(DeviceSplit, AutoOffloadStopsWhereADeviceIsFullAndEachDeviceHasItsVerdict) {
  std::vector<fit::SplitDevice> devs = {device("a", 16 * kGiB, 100, "h:1"), device("b", 16 * kGiB, 100, "h:2")};
  const auto all = llama70b_over(devs, 128 * kGiB, 50, 4096);
  EXPECT_EQ(all.verdict, fit::Verdict::kNo);  // ~40 GiB does not go into 2 x 15 GiB usable
  EXPECT_EQ(all.devices[0].verdict, fit::Verdict::kNo);
  const auto aut = llama70b_over(devs, 128 * kGiB, 50, 4096, -2);
  EXPECT_EQ(aut.verdict, fit::Verdict::kPartial);
  EXPECT_LT(aut.n_gpu_layers, 81);
  for (const auto& d : aut.devices) EXPECT_LE(d.device.total(), d.target.usable_bytes());
  EXPECT_EQ(aut.hops, 2);
}

TEST(DeviceSplit, ADeviceOfUnknownBandwidthMakesTheBoundUnknownNotZeroSeconds) {
  // The first server holds layers but its bandwidth is not known (0): before, it added 0 s and
  // the bound came out as if its layers were free.
  std::vector<fit::SplitDevice> devs = {device("mystery", 64 * kGiB, 0, "h:1"), device("b", 64 * kGiB, 100, "h:2")};
  const auto plan = llama70b_over(devs, 128 * kGiB, 50, 4096);
  EXPECT_GT(plan.n_layers[0], 0);
  EXPECT_EQ(plan.tg_bound_tps, 0.0);
  EXPECT_EQ(plan.compute_bound_tps, 0.0);
  EXPECT_NE(plan.bound_unknown.find("mystery"), std::string::npos) << plan.bound_unknown;
  for (const auto& d : plan.devices) EXPECT_EQ(d.tg_bound_tps, 0.0);
  EXPECT_GT(plan.network_s_per_token, 0.0);  // the network is still known
  // With its bandwidth known, the bound is known and finite.
  devs[0].target.bandwidth_gbps = 100;
  const auto known = llama70b_over(devs, 128 * kGiB, 50, 4096);
  EXPECT_TRUE(known.bound_unknown.empty());
  EXPECT_GT(known.tg_bound_tps, 0.0);
}

}  // namespace
}  // namespace rigbench
