// The bench runner with the real llama.cpp engine on the shipped model.
#include "measure/runner.h"

#include <gtest/gtest.h>

#include "engine/llama_build.h"
#include "engine/llama_engine.h"
#include "hw/describe.h"
#include "hw/machine.h"
#include "support/gguf_fixtures.h"
#include "support/temp_dir.h"

namespace rigbench::measure {
namespace {

TestCase small_case(int n_depth = 0) {
  TestCase tc;
  tc.model_path = RIGBENCH_TEST_MODEL;
  tc.params.n_prompt = 32;
  tc.params.n_gen = 8;
  tc.params.n_depth = n_depth;
  tc.params.n_ctx = n_depth + 40;
  tc.params.n_threads = 1;
  tc.params.repetitions = 3;
  return tc;
}

TEST(Runner, MeasuresPpTgAndTtftPerRepetition) {
  std::atomic<bool> cancel{false};
  auto engine = engine::make_llama_engine(&cancel);
  Runner runner(*engine, cancel);
  auto out = runner.run(small_case());
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_FALSE(out->interrupted);
  ASSERT_TRUE(out->results.pp && out->results.tg && out->results.ttft);
  EXPECT_EQ(out->results.pp->samples_ns.size(), 3u);
  EXPECT_EQ(out->results.tg->samples_ns.size(), 3u);
  EXPECT_EQ(out->results.pp->n_tokens, 32);
  EXPECT_EQ(out->results.tg->n_tokens, 8);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_GT(out->results.pp->samples_ns[i], 0);
    // TTFT spans the prompt and the sampling of the first token.
    EXPECT_GE(out->results.ttft->samples_ns[i], out->results.pp->samples_ns[i]);
  }
  EXPECT_GT(out->results.tg->tps.mean, 0);
  // Every generated token of every repetition timed; together they are at most the tg time.
  ASSERT_EQ(out->results.tg->itl_ns.size(), 3u * 8u);
  int64_t tokens = 0;
  for (int64_t t : out->results.tg->itl_ns) {
    EXPECT_GT(t, 0);
    tokens += t;
  }
  int64_t tg_total = 0;
  for (int64_t t : out->results.tg->samples_ns) tg_total += t;
  EXPECT_LE(tokens, tg_total);
  EXPECT_EQ(out->results.tg->itl_ms.n, 24u);
  EXPECT_LE(out->results.tg->itl_ms.median, out->results.tg->itl_ms.p99);
  uint64_t context = 0, model = 0;
  for (const auto& b : out->memory) {
    context += b.context_bytes;
    model += b.model_bytes;
  }
  EXPECT_EQ(model, 1171200u);  // F32 weights as llama.cpp allocates them (docs/fit.md)
  // KV: 5 layers x (K + V) x 4 KV heads x 8 dims x f16 x n_ctx padded to 256.
  EXPECT_EQ(context, 5u * 2 * 32 * 2 * 256);
  EXPECT_EQ(out->devices_used, (std::vector<std::string>{"CPU"}));
}

// llama.cpp clamps n_ubatch to n_batch: the outcome holds what ran (512 asked, 32 ran).
TEST(Runner, OutcomeHoldsTheBatchSizesLlamaCppUsed) {
  std::atomic<bool> cancel{false};
  auto engine = engine::make_llama_engine(&cancel);
  Runner runner(*engine, cancel);
  TestCase tc = small_case();
  tc.params.n_batch = 32;
  tc.params.n_ubatch = 512;
  auto out = runner.run(tc);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->params.n_batch, 32);
  EXPECT_EQ(out->params.n_ubatch, 32);
}

TEST(Runner, RunsAtDepth) {
  std::atomic<bool> cancel{false};
  auto engine = engine::make_llama_engine(&cancel);
  Runner runner(*engine, cancel);
  auto out = runner.run(small_case(100));
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->results.tg->samples_ns.size(), 3u);
}

TEST(Runner, CancelledBeforeStartKeepsNothingAndSaysInterrupted) {
  std::atomic<bool> cancel{true};
  auto engine = engine::make_llama_engine(&cancel);
  Runner runner(*engine, cancel);
  auto out = runner.run(small_case());
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->interrupted);
  EXPECT_FALSE(out->results.pp);
  EXPECT_FALSE(out->results.tg);
}

TEST(Engine, UnknownArchitectureIsRefusedWithLlamaCppsReason) {
  testing::TempDir dir;
  testing::write_gguf_with_key(RIGBENCH_TEST_MODEL, dir.file("x.gguf"), "general.architecture", "nonesuch");
  auto s = engine::check_loadable(dir.file("x.gguf"));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(s.error().message.find("unknown model architecture: 'nonesuch'"), std::string::npos) << s.error().message;
}

TEST(Machine, DescribesThisMachine) {
  const MachineInfo m = hw::describe({engine::ggml_backends(), engine::ggml_devices()});
  EXPECT_GE(m.threads, 1);
  EXPECT_GE(m.cores, 1);
  EXPECT_LE(m.cores, m.threads);
  EXPECT_GT(m.ram_bytes, 0u);
  EXPECT_FALSE(m.kernel.empty());
  EXPECT_NE(std::find(m.backends.begin(), m.backends.end(), "CPU"), m.backends.end());
  EXPECT_EQ(hw::default_threads(), m.cores);
}

// The tensor-size probe on the devices this build has: ggml's CPU device takes any size (no
// limit: 0); a name no device has is an error, not "no limit" (fit then says the limit is
// unknown); a Vulkan build's lavapipe says 128 MiB (fit --check against llama.cpp's plan in
// vulkan_e2e_test.cpp holds what follows from it).
TEST(Machine, MaxOpTensorBytesIsNoLimitOnTheCpuAndAnErrorForAnUnknownDevice) {
  auto cpu = engine::max_op_tensor_bytes("CPU");
  ASSERT_TRUE(cpu) << cpu.error().message;
  EXPECT_EQ(*cpu, 0u);
  auto unknown = engine::max_op_tensor_bytes("NoSuchDevice7");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
  EXPECT_NE(unknown.error().message.find("NoSuchDevice7"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::measure
