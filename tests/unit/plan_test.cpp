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
