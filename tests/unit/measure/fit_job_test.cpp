// measure::answer_fit on machines this one is not: the GPUs are described (a MachineInfo made
// here, the hardware faked as answer_fit's describe_machine sees it), never opened, as fit plans
// from metadata alone without --check. -dev names this machine's devices as llama.cpp's -dev does.
#include "measure/fit_job.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rigbench {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

MachineInfo two_gpu_machine() {
  MachineInfo m;
  m.cpu = "a test CPU";
  m.ram_bytes = 64 * kGiB;
  m.gpus = {{"BLAS", "an accelerator", "accel", 0, 0},  // llama.cpp never offloads layers to one
            {"Vulkan0", "GPU A", "gpu", 24 * kGiB, 24 * kGiB},
            {"Vulkan1", "GPU B", "gpu", 12 * kGiB, 12 * kGiB}};
  return m;
}

measure::FitRequest llama_8b(const std::string& device, int ctx_size) {
  measure::FitRequest r;
  r.preset = "Llama-3.1-8B";
  r.ctx_size = ctx_size;
  r.device = device;
  r.host_bandwidth_gbps = 50;  // stated: nothing is measured here
  return r;
}

Result<measure::FitAnswer> answer(const measure::FitRequest& r) {
  return measure::answer_fit(r, [] { return two_gpu_machine(); });
}

// The plan's devices by name, in its order.
std::vector<std::string> device_names(const measure::FitAnswer& a) {
  std::vector<std::string> out;
  for (const auto& r : a.report.results) out.push_back(r.target.name);
  return out;
}

TEST(FitJobFakeTwoGpuMachine, DevNamesASplitInItsOrderAndSmNoneKeepsTheMainGpu) {
  const auto split = answer(llama_8b("vulkan1/Vulkan0", 8192));
  ASSERT_TRUE(split) << split.error().message;
  ASSERT_EQ(device_names(*split), (std::vector<std::string>{"Vulkan1 (GPU B)", "Vulkan0 (GPU A)"}));
  // By free memory, as llama.cpp splits by default: GPU A (24 GiB) takes twice GPU B's blocks.
  const int b = split->report.results[0].split_layers, a = split->report.results[1].split_layers;
  EXPECT_EQ(a + b, 32);
  EXPECT_NEAR(a, 2 * b, 1);

  measure::FitRequest none = llama_8b("Vulkan1/Vulkan0", 8192);
  none.knobs["split_mode"] = "none";
  none.knobs["main_gpu"] = "1";
  const auto one = answer(none);
  ASSERT_TRUE(one) << one.error().message;
  ASSERT_EQ(one->report.results.size(), 1u);  // one device: this machine's table, the device above it
  EXPECT_EQ(one->report.results[0].target.capacity_bytes, 24 * kGiB);
  ASSERT_FALSE(one->report.preamble.empty());
  EXPECT_EQ(one->report.preamble.front(), "device: this machine: Vulkan0 (GPU A)");

  none.knobs["main_gpu"] = "2";
  const auto past = answer(none);
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().code, ErrorCode::kUsage);
  EXPECT_EQ(past.error().message, "-mg/--main-gpu 2 with -sm none: the split has 2 devices (0..1)");
}

TEST(FitJobFakeTwoGpuMachine, AutoTakesEveryGpuAndNoAcceleratorAndNoneIsTheCpu) {
  const auto both = answer(llama_8b("auto", 8192));
  ASSERT_TRUE(both) << both.error().message;
  EXPECT_EQ(device_names(*both), (std::vector<std::string>{"Vulkan0 (GPU A)", "Vulkan1 (GPU B)"}));
  // Without -c the split's default context is not planned: the first GPU alone, said so.
  const auto first = answer(llama_8b("auto", 0));
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_EQ(first->report.results.size(), 1u);
  EXPECT_EQ(first->report.results[0].target.backend, "vulkan");
  bool said = false;
  for (const auto& n : first->report.notes) said = said || n.find("this machine has 2 GPUs") != std::string::npos;
  EXPECT_TRUE(said);
  const auto cpu = answer(llama_8b("none", 8192));
  ASSERT_TRUE(cpu) << cpu.error().message;
  ASSERT_EQ(cpu->report.results.size(), 1u);
  EXPECT_EQ(cpu->report.results[0].target.backend, "cpu");
  EXPECT_EQ(cpu->report.results[0].target.capacity_bytes, 64 * kGiB);
  const auto lacks = answer(llama_8b("Vulkan2", 8192));
  ASSERT_FALSE(lacks);
  EXPECT_EQ(lacks.error().message,
            "-dev/--device Vulkan2: 'Vulkan2' is not a device of this machine (it has Vulkan0, Vulkan1), nor a "
            "catalog name");
}

}  // namespace
}  // namespace rigbench
