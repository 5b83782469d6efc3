#include "measure/warnings.h"

#include <gtest/gtest.h>

namespace rigbench::measure {
namespace {

struct Fixture {
  std::vector<TestCase> plan;
  std::map<std::string, ModelInfo> models;
  MachineInfo machine;
  Fixture(int threads, int n_ctx, bool synthetic) {
    TestCase tc;
    tc.model_path = "m.gguf";
    tc.params.n_threads = threads;
    tc.params.n_ctx = n_ctx;
    plan = {tc, tc};  // the same warning twice is said once
    ModelInfo m;
    m.name = "M";
    m.n_ctx_train = 2048;
    m.synthetic = synthetic;
    models["m.gguf"] = m;
    machine.cores = 2;
    machine.threads = 4;
  }
};

TEST(PlanWarnings, NoneForASoundPlan) {
  Fixture f(2, 640, false);
  EXPECT_TRUE(plan_warnings(f.plan, f.models, f.machine, "Release").empty());
}

TEST(PlanWarnings, ThreadsBeyondLogicalCpusNameTheRemedy) {
  Fixture f(8, 640, false);
  const auto w = plan_warnings(f.plan, f.models, f.machine, "Release");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].cause, "-t 8 exceeds the 4 logical CPUs: threads contend and tg collapses");
  EXPECT_EQ(w[0].remedy, "use -t 2 (the physical cores) or fewer");
}

TEST(PlanWarnings, ContextBeyondTrainingSyntheticModelAndDebugBuild) {
  Fixture f(2, 4096, true);
  for (auto& tc : f.plan) tc.params.n_prompt = 4096;  // the test's own tokens make the context
  const auto w = plan_warnings(f.plan, f.models, f.machine, "Debug");
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NE(w[0].cause.find("Debug build"), std::string::npos);
  EXPECT_EQ(w[1].cause, "n_ctx 4096 (depth + prompt + generation) exceeds the 2048 tokens model 'M' was trained for");
  EXPECT_EQ(w[1].remedy, "lower -d, -p or -n");
  // The default model's warning was 133 columns on stderr: one line within 120.
  EXPECT_EQ(w[2].cause, "model 'M' is synthetic: the real model's speed and memory, random outputs");
  EXPECT_LE(std::string("rigbench: warning: ").size() + w[2].cause.size() + std::string("Llama-3.2-1B").size(), 120u);
}

// A user's bug: `bench -p 16 -n 16 -c 4096` on a 2048-token model was told to lower -d, -p or
// -n; the context was -c's.
TEST(PlanWarnings, AContextFromDashCIsToldToLowerDashC) {
  Fixture f(2, 4096, false);
  for (auto& tc : f.plan) tc.params.n_prompt = tc.params.n_gen = 16;
  const auto w = plan_warnings(f.plan, f.models, f.machine, "Release");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].cause, "n_ctx 4096 (-c) exceeds the 2048 tokens model 'M' was trained for");
  EXPECT_EQ(w[0].remedy, "lower -c");
  // -c above a test that alone passes the trained context: both need lowering.
  for (auto& tc : f.plan) tc.params.n_prompt = 3000;
  const auto both = plan_warnings(f.plan, f.models, f.machine, "Release");
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].remedy, "lower -c, and -d, -p or -n (the test alone needs more than that too)");
}

TEST(ContextWarning, ASuitesContextNamesItsPromptsAndNoneWithinOrUnknown) {
  const auto w = context_warning(5107, 2048, "M", ContextSource::kSuite);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->cause, "n_ctx 5107 (the suite's longest prompt + its generation) exceeds the 2048 tokens model 'M' "
                      "was trained for");
  EXPECT_EQ(w->remedy, "use prompts that fit (--prompts FILE) or a model trained for a longer context");
  EXPECT_FALSE(context_warning(2048, 2048, "M", ContextSource::kSuite));
  EXPECT_FALSE(context_warning(5107, 0, "M", ContextSource::kTest));  // no context_length in the file
}

// -ngl on a build whose ggml lists no device but the CPU: one note, the remedy by backend.
PlanSpec ngl_spec(std::vector<std::string> values) {
  PlanSpec spec;
  spec.knobs["n_gpu_layers"] = std::move(values);
  return spec;
}

TEST(OffloadNote, CpuOnlyBuildSaysLayersStayOnTheCpu) {
  MachineInfo m;
  m.backends = {"CPU"};
  const auto w = offload_note(ngl_spec({"0", "99"}), m);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->cause,
            "-ngl 99: this build's ggml backends (CPU) list no device but the CPU, so every layer stays on the CPU "
            "(the record says backend CPU)");
  EXPECT_NE(w->remedy.find("RIGBENCH_BACKENDS=vulkan|cuda|metal"), std::string::npos);
}

TEST(OffloadNote, NoneWithoutNglOrWithNglZeroOnly) {
  MachineInfo m;
  m.backends = {"CPU"};
  EXPECT_FALSE(offload_note(PlanSpec{}, m).has_value());  // the default -ngl: nothing asked
  EXPECT_FALSE(offload_note(ngl_spec({"0"}), m).has_value());
}

// bench --rpc H:P -ngl 99 on a CPU-only host (the usual RPC setup): the layers go to the
// rpc-servers, so no "stays on the CPU" note; a local run beside it (--rpc none) keeps it.
TEST(OffloadNote, NoneWhenEveryRunSendsLayersToRpcServers) {
  MachineInfo m;
  m.backends = {"CPU", "RPC"};
  PlanSpec spec = ngl_spec({"99"});
  spec.knobs["rpc"] = {"127.0.0.1:50052,127.0.0.1:50053"};
  EXPECT_FALSE(offload_note(spec, m).has_value());
  spec.knobs["rpc"] = {"none", "127.0.0.1:50052"};
  EXPECT_TRUE(offload_note(spec, m).has_value());
}

TEST(OffloadNote, NoneWhenAGgmlDeviceTakesLayers) {
  MachineInfo m;
  m.backends = {"Vulkan", "CPU"};
  DeviceInfo d;
  d.name = "Vulkan0";
  d.description = "llvmpipe (LLVM 15.0.6, 256 bits)";
  m.gpus = {d};
  EXPECT_FALSE(offload_note(ngl_spec({"99"}), m).has_value());
}

TEST(OffloadNote, DriverOnlyGpuDoesNotTakeLayersAndVulkanOrCudaWithoutDeviceSaySo) {
  MachineInfo m;
  DeviceInfo nvml;
  nvml.name = "nvml:gpu0";  // NVML sees it, this build's ggml does not
  m.gpus = {nvml};
  m.backends = {"Vulkan", "CPU"};
  auto w = offload_note(ngl_spec({"-1"}), m);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->remedy.find("GGML_VK_VISIBLE_DEVICES=0"), std::string::npos);
  m.backends = {"CUDA", "CPU"};
  w = offload_note(ngl_spec({"99"}), m);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->remedy.find("no CUDA device is present"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::measure
