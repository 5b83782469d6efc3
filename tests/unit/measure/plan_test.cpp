#include "measure/plan.h"

#include <gtest/gtest.h>

namespace rigbench::measure {
namespace {

TEST(Expand, IsTheCartesianProductModelOutermostTestsInnermost) {
  PlanSpec spec;
  spec.models = {"a.gguf", "b.gguf"};
  spec.n_prompt = {512, 1024};
  spec.n_gen = {128};
  spec.knobs["n_threads"] = {"1", "2"};
  spec.knobs["n_depth"] = {"0"};
  const auto plan = expand(spec);
  // Per model and thread count: pp512, pp1024, tg128 (llama-bench's tests, not their product).
  ASSERT_EQ(plan.size(), 12u);
  EXPECT_EQ(plan[0].model_path, "a.gguf");
  EXPECT_EQ(plan[5].model_path, "a.gguf");
  EXPECT_EQ(plan[6].model_path, "b.gguf");
  const std::vector<std::pair<int, int>> tests = {{512, 0}, {1024, 0}, {0, 128}};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(plan[i].params.n_prompt, tests[i % 3].first) << i;
    EXPECT_EQ(plan[i].params.n_gen, tests[i % 3].second) << i;
    EXPECT_EQ(plan[i].params.n_threads, i < 3 ? 1 : 2) << i;
  }
}

TEST(Expand, OnePpTestPerPromptAndOneTgTestPerGenNeverTheirProduct) {
  // The newcomer's case: -p 32,64 -n 16,32 ran pp32, pp64, tg16 and tg32 twice each.
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {32, 64};
  spec.n_gen = {16, 32};
  spec.knobs["n_threads"] = {"1"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].params.n_prompt, 32);
  EXPECT_EQ(plan[1].params.n_prompt, 64);
  EXPECT_EQ(plan[2].params.n_gen, 16);
  EXPECT_EQ(plan[3].params.n_gen, 32);
  for (const auto& tc : plan) EXPECT_TRUE(tc.params.n_prompt == 0 || tc.params.n_gen == 0);
}

TEST(Expand, PgPairsAreTestsOfTheirOwn) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {0};
  spec.n_gen = {0};
  spec.n_pg = {{64, 16}, {128, 32}};
  spec.knobs["n_threads"] = {"1"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].params.n_prompt, 64);
  EXPECT_EQ(plan[0].params.n_gen, 16);
  EXPECT_EQ(plan[0].params.n_ctx, 80);
  EXPECT_EQ(plan[1].params.n_prompt, 128);
  EXPECT_EQ(plan[1].params.n_gen, 32);
}

TEST(Expand, ContextHoldsDepthAndTheTestsTokens) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {100};
  spec.n_gen = {20};
  spec.knobs["n_depth"] = {"300"};
  spec.knobs["n_threads"] = {"4"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].params.n_ctx, 400);  // pp100 @ d300
  EXPECT_EQ(plan[1].params.n_ctx, 320);  // tg20 @ d300
  EXPECT_EQ(plan[0].params.n_threads, 4);
  EXPECT_EQ(plan[0].params.repetitions, 5);
}

TEST(Expand, AnAskedContextSizeIsKept) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {100};
  spec.n_gen = {0};
  spec.knobs["n_ctx"] = {"4096"};
  spec.knobs["n_threads"] = {"1"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].params.n_ctx, 4096);
}

TEST(Expand, LoadModeIsAModelLoadKnobNextToGpuLayers) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_gen = {0};
  spec.knobs["n_gpu_layers"] = {"0", "99"};
  spec.knobs["load_mode"] = {"none", "mmap"};
  spec.knobs["flash_attn"] = {"on", "off"};
  spec.knobs["n_threads"] = {"1"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 8u);  // 2 ngl x 2 load modes x 2 fa
  // Each (n_gpu_layers, load_mode) pair holds its runs together, so the model loads 4 times.
  const std::vector<std::pair<int, std::string>> loads = {{0, "none"},  {0, "none"},  {0, "mmap"},  {0, "mmap"},
                                                          {99, "none"}, {99, "none"}, {99, "mmap"}, {99, "mmap"}};
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].params.n_gpu_layers, loads[i].first) << i;
    EXPECT_EQ(plan[i].params.load_mode, loads[i].second) << i;
    EXPECT_EQ(plan[i].params.flash_attn, i % 2 == 0 ? "on" : "off") << i;
  }
}

TEST(Expand, KnobsDefaultToBenchParams) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_gen = {0};
  spec.knobs["n_threads"] = {"1"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].params.load_mode, "auto");
  EXPECT_EQ(plan[0].params.poll, 50);
  EXPECT_EQ(plan[0].params.n_batch, 2048);
  EXPECT_FALSE(spec.varies("load_mode"));
  EXPECT_TRUE(spec.varies("n_threads"));  // 1 is not the default (0 = physical cores)
}

TEST(Expand, SkipsTestsWithNothingToMeasure) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {0, 64};
  spec.n_gen = {0};
  spec.knobs["n_threads"] = {"1"};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].params.n_prompt, 64);
  EXPECT_EQ(plan[0].params.n_gen, 0);
}

}  // namespace
}  // namespace rigbench::measure
