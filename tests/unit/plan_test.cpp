#include "bench/plan.h"

#include <gtest/gtest.h>

namespace rigbench::bench {
namespace {

TEST(Expand, IsTheCartesianProductModelOutermost) {
  PlanSpec spec;
  spec.models = {"a.gguf", "b.gguf"};
  spec.n_prompt = {512, 1024};
  spec.n_gen = {128};
  spec.n_threads = {1, 2};
  spec.n_depth = {0};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 8u);
  EXPECT_EQ(plan[0].model_path, "a.gguf");
  EXPECT_EQ(plan[3].model_path, "a.gguf");
  EXPECT_EQ(plan[4].model_path, "b.gguf");
  // n_prompt varies fastest, then threads.
  EXPECT_EQ(plan[0].params.n_prompt, 512);
  EXPECT_EQ(plan[1].params.n_prompt, 1024);
  EXPECT_EQ(plan[0].params.n_threads, 1);
  EXPECT_EQ(plan[2].params.n_threads, 2);
}

TEST(Expand, ContextHoldsDepthPromptAndGeneration) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {100};
  spec.n_gen = {20};
  spec.n_depth = {300};
  spec.n_threads = {4};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].params.n_ctx, 420);
  EXPECT_EQ(plan[0].params.n_threads, 4);
  EXPECT_EQ(plan[0].params.repetitions, 5);
}

TEST(Expand, LoadModeIsAModelLoadKnobNextToGpuLayers) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_gpu_layers = {0, 99};
  spec.load_mode = {"none", "mmap"};
  spec.flash_attn = {"on", "off"};
  spec.n_threads = {1};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 8u);  // 2 ngl x 2 load modes x 2 fa
  // Each (n_gpu_layers, load_mode) pair holds its runs together, so the model loads 4 times.
  const std::vector<std::pair<int, std::string>> loads = {{0, "none"}, {0, "none"}, {0, "mmap"}, {0, "mmap"},
                                                          {99, "none"}, {99, "none"}, {99, "mmap"}, {99, "mmap"}};
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].params.n_gpu_layers, loads[i].first) << i;
    EXPECT_EQ(plan[i].params.load_mode, loads[i].second) << i;
    EXPECT_EQ(plan[i].params.flash_attn, i % 2 == 0 ? "on" : "off") << i;
  }
}

TEST(Expand, LoadModeDefaultsToAuto) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_threads = {1};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].params.load_mode, "auto");
}

TEST(Expand, SkipsRunsWithNothingToMeasure) {
  PlanSpec spec;
  spec.models = {"m"};
  spec.n_prompt = {0, 64};
  spec.n_gen = {0};
  spec.n_threads = {1};
  const auto plan = expand(spec);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].params.n_prompt, 64);
  EXPECT_EQ(plan[0].params.n_gen, 0);
}

}  // namespace
}  // namespace rigbench::bench
