// fit's analytic memory model against llama.cpp's own simulated allocation (no_alloc) on
// this machine's backend (CPU): every component within 2 % or 32 MiB, whichever is larger.
#include <gtest/gtest.h>

#include "engine/llama_simulate.h"
#include "fit/memory_model.h"
#include "model/model_shape.h"
#include "support/preset_shape.h"

namespace rigbench {
namespace {

struct Case {
  std::string model;  // preset name, or "stories260K" for the shipped model
  int n_ctx;
  bool flash_attn;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.model << " n_ctx " << c.n_ctx << (c.flash_attn ? " fa" : ""); }

void expect_close(const char* what, uint64_t estimate, uint64_t actual) {
  const double tolerance = std::max(0.02 * static_cast<double>(actual), 32.0 * 1024 * 1024);
  EXPECT_NEAR(static_cast<double>(estimate), static_cast<double>(actual), tolerance)
      << what << ": estimate " << estimate << " vs llama.cpp " << actual;
}

class FitVsLlamaCpp : public ::testing::TestWithParam<Case> {};

TEST_P(FitVsLlamaCpp, EveryComponentWithin2PercentOr32MiB) {
  const Case& c = GetParam();
  const std::string path = c.model == "stories260K" ? RIGBENCH_TEST_MODEL : testing::preset_file(c.model, "Q4_K_M");
  auto shape = model::read_shape(path);
  ASSERT_TRUE(shape) << shape.error().message;
  fit::ContextParams ctx;
  ctx.n_ctx = c.n_ctx;
  ctx.flash_attn = c.flash_attn;
  const fit::MemorySplit est = fit::estimate_memory(*shape, ctx, 0, "cpu");

  engine::SimulationSpec sim;
  sim.path = path;
  sim.n_ctx = c.n_ctx;
  sim.flash_attn = c.flash_attn ? "on" : "off";
  auto real = engine::simulate_memory(sim);
  ASSERT_TRUE(real) << real.error().message;
  uint64_t model = 0, context = 0, compute = 0;
  for (const auto& b : real->buffers) {
    model += b.model_bytes;
    context += b.context_bytes;
    compute += b.compute_bytes;
  }
  EXPECT_EQ(est.kv_size, real->n_ctx);
  expect_close("weights", est.host.weights, model);
  expect_close("kv", est.host.kv, context);
  expect_close("compute", est.host.compute, compute);
  expect_close("total", est.host.weights + est.host.kv + est.host.compute, model + context + compute);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* m : {"stories260K", "SmolLM2-135M", "Llama-3.2-1B", "Llama-3.1-8B", "Phi-3-mini-4k", "Qwen2.5-7B",
                        "Gemma-2-9B", "Mixtral-8x7B", "DeepSeek-V3", "bge-small-en-v1.5"}) {
    for (int n_ctx : {512, 4096, 32768}) {
      for (bool fa : {true, false}) {
        // Known gap, held by its own test below: MLA without flash attention at a small context.
        if (std::string(m) == "DeepSeek-V3" && n_ctx == 512 && !fa) continue;
        out.push_back({m, n_ctx, fa});
      }
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Presets, FitVsLlamaCpp, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string s = info.param.model + "_ctx" + std::to_string(info.param.n_ctx) +
                                           (info.param.flash_attn ? "_fa" : "_nofa");
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

// MLA without flash attention (not llama.cpp's default) at n_ctx 512: the model counts the
// absorbed-query tensors as live with the KQ scores, which llama.cpp does not keep together
// at that size; the estimate errs high (the safe side), by about a third of the compute.
TEST(FitMemoryModel, DeepSeekWithoutFlashAttentionAtSmallContextErrsHigh) {
  const std::string path = testing::preset_file("DeepSeek-V3", "Q4_K_M");
  auto shape = model::read_shape(path);
  ASSERT_TRUE(shape);
  fit::ContextParams ctx;
  ctx.n_ctx = 512;
  ctx.flash_attn = false;
  const uint64_t estimate = fit::estimate_memory(*shape, ctx, 0, "cpu").host.compute;
  engine::SimulationSpec sim;
  sim.path = path;
  sim.n_ctx = 512;
  sim.flash_attn = "off";
  auto real = engine::simulate_memory(sim);
  ASSERT_TRUE(real);
  uint64_t compute = 0;
  for (const auto& b : real->buffers) compute += b.compute_bytes;
  EXPECT_GE(estimate, compute);
  EXPECT_LE(static_cast<double>(estimate), 1.35 * static_cast<double>(compute));
}

TEST(FitMemoryModel, KvCacheFollowsLlamaCppRules) {
  model::ModelShape s;
  s.arch = "llama";
  s.n_layer = 2;
  s.n_embd = 4096;
  s.n_head = {32, 32};
  s.n_head_kv = {8, 8};
  s.n_ff = {14336, 14336};
  s.head_k = s.head_v = 128;
  s.n_vocab = 1000;
  fit::ContextParams c;
  c.n_ctx = 1000;  // padded to 1024
  auto m = fit::estimate_memory(s, c, 0, "cpu");
  EXPECT_EQ(m.kv_size, 1024);
  EXPECT_EQ(m.host.kv, 2u * 2 * (8 * 128) * 1024 * 2);  // layers x (K+V) x dims x cells x f16
  c.type_k = c.type_v = "q8_0";                         // 34 bytes per 32 values
  m = fit::estimate_memory(s, c, 0, "cpu");
  EXPECT_EQ(m.host.kv, 2u * 2 * (8 * 128 / 32 * 34) * 1024);
  // Sliding window: every other layer holds PAD(min(kv, n_swa + n_ubatch), 256) cells.
  s.n_swa = 256;
  s.swa_layer = {1, 0};
  c.type_k = c.type_v = "f16";
  m = fit::estimate_memory(s, c, 0, "cpu");
  EXPECT_EQ(m.host.kv, 2u * (8 * 128) * 2 * (1024 + 768));
  EXPECT_EQ(m.host.output, 1000u * 4);
  // Two sequences: a stream of PAD(1024 / 2) = 512 cells each, and a window per sequence
  // (min(512, 256 + 512) = 512 cells each).
  c.n_seq = 2;
  m = fit::estimate_memory(s, c, 0, "cpu");
  EXPECT_EQ(m.host.kv, 2u * (8 * 128) * 2 * (1024 + 1024));
  EXPECT_EQ(fit::padded_context(4097, 2), 2 * 2304);  // PAD(PAD(4097) / 2) per sequence, as llama.cpp
}

// A recurrent layer keeps no KV but a state per sequence: (r + s) f32 rows, whatever the context.
TEST(FitMemoryModel, RecurrentStateIsPerSequenceAndIndependentOfContext) {
  model::ModelShape s;
  s.arch = "mamba";
  s.n_layer = 2;
  s.n_embd = 64;
  s.n_head = s.n_head_kv = s.n_ff = {0, 0};
  s.kv_layer = {0, 0};
  s.recurrent_layer = {1, 1};
  s.state_r = 3 * 128;   // (d_conv - 1) x d_inner
  s.state_s = 16 * 128;  // d_state x d_inner
  s.n_vocab = 100;
  fit::ContextParams c;
  auto m = fit::estimate_memory(s, c, 0, "cpu");
  EXPECT_EQ(m.host.kv, 0u);
  EXPECT_EQ(m.host.recurrent, 2u * (3 + 16) * 128 * 4);
  c.n_ctx = 65536;
  c.n_seq = 3;
  m = fit::estimate_memory(s, c, 0, "cpu");
  EXPECT_EQ(m.host.recurrent, 3u * 2 * (3 + 16) * 128 * 4);
}

TEST(FitMemoryModel, OffloadPutsTheLastLayersAndOutputOnTheDevice) {
  model::ModelShape s;
  s.arch = "llama";
  s.n_layer = 4;
  s.n_embd = 64;
  s.n_head.assign(4, 4);
  s.n_head_kv.assign(4, 4);
  s.n_ff.assign(4, 128);
  s.head_k = s.head_v = 16;
  s.n_vocab = 100;
  auto tensor = [](std::string name, uint64_t bytes, int layer) {
    model::TensorInfo t;
    t.name = std::move(name), t.bytes = bytes, t.layer = layer;
    return t;
  };
  s.tensors = {tensor("token_embd.weight", 1000, -1), tensor("output.weight", 2000, -1),
               tensor("output_norm.weight", 10, -1)};
  for (int il = 0; il < 4; ++il) s.tensors.push_back(tensor("blk." + std::to_string(il) + ".ffn_up.weight", 100, il));
  fit::ContextParams c;
  c.n_ctx = 256;
  auto one = fit::estimate_memory(s, c, 1, "cuda");  // -ngl 1: only the output layer
  EXPECT_EQ(one.device.weights, 2010u);
  EXPECT_EQ(one.host.weights, 1400u);
  EXPECT_EQ(one.device.kv, 0u);
  auto three = fit::estimate_memory(s, c, 3, "cuda");  // output + blocks 2 and 3
  EXPECT_EQ(three.device.weights, 2210u);
  EXPECT_GT(three.device.kv, 0u);
  EXPECT_EQ(three.device.kv * 2, three.host.kv * 2);  // 2 of 4 layers each
  auto all = fit::estimate_memory(s, c, -1, "cuda");
  EXPECT_EQ(all.n_gpu_layers, 5);
  EXPECT_EQ(all.host.weights, 1000u);  // token_embd stays on the host
  EXPECT_EQ(all.device.overhead, 400ull << 20);
}

// llama.cpp's own plan (no_alloc) on a Vulkan device, every layer on it, n_ctx 4096, flash
// attention on: Mesa's lavapipe, whose ops take tensors up to 128 MiB (maxStorageBufferRange),
// measured with `GGML_VK_VISIBLE_DEVICES=0 build-vulkan/bin/rigbench fit MODEL --device auto -c
// 4096 -ngl -1 --check -o json` (llama_cpp's device_bytes and host_bytes; the Vulkan e2e test
// checks the same live). The device side is Vulkan0's weights, KV and compute; the host side
// token_embd (and the 1B's output layer), and in Vulkan_Host the graph's inputs, the embedding
// lookup and, for the 1B, the logits: its tied output (token_embd, 205 MiB) and its logits
// (250 MiB) are beyond 128 MiB, so llama.cpp keeps the output layer on the host and makes no
// copy of token_embd on the device. Without the limit (a GPU that takes them) the copy and the
// logits go to the device.
TEST(FitMemoryModel, VulkanWithEveryLayerOffloadedMatchesLlamaCppsPlanOnLavapipePerSide) {
  struct Measured {
    std::string model;
    uint64_t device, host;
  };
  const uint64_t kLavapipeMaxTensor = 134217728;
  for (const Measured& m : {Measured{"stories260K", 9187072, 4601856}, Measured{"Llama-3.2-1B", 781537408, 486529024}}) {
    SCOPED_TRACE(m.model);
    const std::string path = m.model == "stories260K" ? RIGBENCH_TEST_MODEL : testing::preset_file(m.model, "Q4_K_M");
    auto shape = model::read_shape(path);
    ASSERT_TRUE(shape) << shape.error().message;
    fit::ContextParams ctx;
    ctx.n_ctx = 4096;
    const fit::MemorySplit est = fit::estimate_memory(*shape, ctx, -1, "vulkan", kLavapipeMaxTensor);
    const auto side = [](const fit::Components& c) { return c.weights + c.kv + c.recurrent + c.compute; };
    EXPECT_NEAR(static_cast<double>(side(est.device)), static_cast<double>(m.device), 0.02 * m.device);
    EXPECT_NEAR(static_cast<double>(side(est.host)), static_cast<double>(m.host), 0.02 * m.host);
    if (m.model == "Llama-3.2-1B") {
      // A GPU without the limit: the tied output's copy (Q6_K, 205.5 MiB) and the logits
      // phase move to the device; the host keeps token_embd and the graph's inputs.
      const fit::MemorySplit gpu = fit::estimate_memory(*shape, ctx, -1, "vulkan");
      EXPECT_EQ(gpu.device.weights - est.device.weights, 215470080u);  // 128256 rows x 1680 bytes
      EXPECT_EQ(gpu.host.weights, est.host.weights);                      // token_embd itself
      EXPECT_LT(gpu.host.compute, 16u << 20);  // 12 MiB: the mask and two n_embd rows per token
      EXPECT_GT(gpu.device.compute, 250u << 20);  // the logits of 512 tokens
    }
  }
}

}  // namespace
}  // namespace rigbench
