// hw::describe, the one description of this machine, on the fakes: a fake libnvidia-ml
// (tests/fakes/fake_nvml.cpp) and a fake /sys/class/drm tree. What bench stores is what hw
// lists, and a CPU-only build and a CUDA build on one host describe one machine.
#include "hw/describe.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "fakes/fake_nvml_state.h"
#include "fit/targets.h"
#include "report/comparison.h"
#include "report/hw_printer.h"
#include "store/record_json.h"
#include "support/temp_dir.h"

namespace rigbench::hw {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

// A fake /sys/class/drm with one AMD card: 8 GiB of VRAM, 1 GiB used.
struct FakeDrm {
  FakeDrm() {
    const auto dev = dir.path() / "card0" / "device";
    std::filesystem::create_directories(dev);
    testing::write_file((dev / "vendor").string(), "0x1002\n");
    testing::write_file((dev / "device").string(), "0x73ff\n");
    testing::write_file((dev / "mem_info_vram_total").string(), std::to_string(8 * kGiB) + "\n");
    testing::write_file((dev / "mem_info_vram_used").string(), std::to_string(kGiB) + "\n");
    testing::write_file((dev / "product_name").string(), "AMD Radeon RX 6600 XT\n");
  }
  std::string root() const { return dir.path().string(); }
  testing::TempDir dir;
};

// One NVIDIA GPU: 24 GiB, 2 GiB used.
void one_nvidia_gpu(testing::FakeNvml& nvml) {
  nvml.set("count", 1);
  nvml.set("gpu0.name", "NVIDIA GeForce RTX 3090");
  nvml.set("gpu0.memory_total_bytes", 24 * kGiB);
  nvml.set("gpu0.memory_used_bytes", 2 * kGiB);
}

DeviceInfo device(const std::string& name, const std::string& description, uint64_t total, uint64_t free) {
  return {name, description, "gpu", total, free};
}

TEST(DescribeFakes, ACpuOnlyBuildListsTheDriversGpus) {
  testing::FakeNvml nvml;
  one_nvidia_gpu(nvml);
  FakeDrm drm;
  const MachineInfo m = describe({{"CPU"}, {}}, {"", drm.root()});
  EXPECT_FALSE(m.cpu.empty());
  EXPECT_GT(m.ram_bytes, 0u);
  EXPECT_EQ(m.backends, std::vector<std::string>{"CPU"});
  ASSERT_EQ(m.gpus.size(), 2u);
  EXPECT_EQ(m.gpus[0].name, "nvml:gpu0");
  EXPECT_EQ(m.gpus[0].description, "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(m.gpus[0].memory_total_bytes, 24 * kGiB);
  EXPECT_EQ(m.gpus[0].memory_free_bytes, 22 * kGiB);
  EXPECT_EQ(m.gpus[1].name, "amdgpu:card0");
  EXPECT_EQ(m.gpus[1].description, "AMD Radeon RX 6600 XT");
  EXPECT_EQ(m.gpus[1].memory_total_bytes, 8 * kGiB);
  EXPECT_EQ(gpu_source(m.gpus[0]), "nvml");
  EXPECT_EQ(gpu_source(m.gpus[1]), "amdgpu");
  EXPECT_FALSE(offloadable(m.gpus[0]));
}

// The record bench stores (machine = describe) holds the GPUs `hw -o json` lists, with the
// same names and memory.
TEST(DescribeFakes, TheStoredRecordHoldsTheGpusHwLists) {
  testing::FakeNvml nvml;
  one_nvidia_gpu(nvml);
  FakeDrm drm;
  const GgmlView ggml{{"CPU", "Vulkan"},
                      {device("Vulkan0", "AMD Radeon RX 6600 XT (RADV NAVI23)", 8 * kGiB, 7 * kGiB)}};

  RunRecord rec;
  rec.machine = describe(ggml, {"", drm.root()});
  auto stored = store::from_json(store::to_json(rec));
  ASSERT_TRUE(stored) << stored.error().message;

  report::HwReport hw;
  hw.machine = describe(ggml, {"", drm.root()});
  std::ostringstream out;
  report::print_hw(hw, report::OutputFormat::kJson, out);
  const auto listed = nlohmann::json::parse(out.str())["gpus"];

  ASSERT_EQ(stored->machine.gpus.size(), listed.size());
  ASSERT_EQ(listed.size(), 2u);  // Vulkan0 stands for the AMD card; the NVIDIA GPU from NVML
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const DeviceInfo& g = stored->machine.gpus[i];
    EXPECT_EQ(g.name, listed[i]["name"]);
    EXPECT_EQ(g.description, listed[i]["description"]);
    EXPECT_EQ(g.memory_total_bytes, listed[i]["memory_total_bytes"].get<uint64_t>());
    EXPECT_EQ(g.memory_free_bytes, listed[i]["memory_free_bytes"].get<uint64_t>());
  }
  EXPECT_EQ(listed[0]["name"], "Vulkan0");
  EXPECT_EQ(listed[0]["description"], "AMD Radeon RX 6600 XT");  // the driver's name, not the backend's
  EXPECT_EQ(listed[0]["source"], "ggml");
  EXPECT_EQ(listed[1]["name"], "nvml:gpu0");
  EXPECT_EQ(listed[1]["source"], "nvml");
}

// The same host, benched by a CPU-only build and by a CUDA build: one machine in compare,
// never "host" and "host (2)".
TEST(DescribeFakes, ACpuBuildAndACudaBuildDescribeOneMachine) {
  testing::FakeNvml nvml;
  one_nvidia_gpu(nvml);
  FakeDrm drm;
  RunRecord cpu_build, cuda_build;
  cpu_build.machine = describe({{"CPU"}, {}}, {"", drm.root()});
  cuda_build.machine =
      describe({{"CPU", "CUDA"}, {device("CUDA0", "NVIDIA GeForce RTX 3090", 24 * kGiB, 23 * kGiB)}}, {"", drm.root()});
  ASSERT_EQ(cuda_build.machine.gpus.size(), 2u);
  EXPECT_EQ(cuda_build.machine.gpus[0].name, "CUDA0");  // ggml's device first: the one fit plans on
  EXPECT_EQ(cuda_build.machine.gpus[1].name, "amdgpu:card0");
  EXPECT_EQ(report::machine_identity(cpu_build).key, report::machine_identity(cuda_build).key);
  EXPECT_EQ(report::machine_identity(cpu_build).label, report::machine_identity(cuda_build).label);
}

TEST(DescribeFakes, NoDriversAndNoGgmlDevicesListNoGpu) {
  const MachineInfo m = describe({{"CPU"}, {}}, {"/nonexistent/libnvidia-ml.so.1", "/nonexistent/drm"});
  EXPECT_TRUE(m.gpus.empty());
  EXPECT_EQ(m.backends, std::vector<std::string>{"CPU"});
}

TEST(MergeGpus, EachGgmlDeviceStandsForOneDriverGpu) {
  // Two identical GPUs; this process sees one through CUDA (CUDA_VISIBLE_DEVICES=0).
  const auto m = merge_gpus({device("CUDA0", "NVIDIA GeForce RTX 3090", 24 * kGiB, 20 * kGiB)},
                            {device("nvml:gpu0", "NVIDIA GeForce RTX 3090", 24 * kGiB, 22 * kGiB),
                             device("nvml:gpu1", "NVIDIA GeForce RTX 3090", 24 * kGiB, 24 * kGiB)});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "CUDA0");
  EXPECT_EQ(m[0].memory_free_bytes, 20 * kGiB);  // ggml's own figures for its device
  EXPECT_EQ(m[1].name, "nvml:gpu1");
}

TEST(MergeGpus, ExactNamesMatchBeforeOneContainingTheOther) {
  const auto m = merge_gpus({device("CUDA0", "NVIDIA GeForce RTX 3090", 24 * kGiB, 0)},
                            {device("nvml:gpu0", "NVIDIA GeForce RTX 3090 Ti", 24 * kGiB, 0),
                             device("nvml:gpu1", "NVIDIA GeForce RTX 3090", 24 * kGiB, 0)});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].description, "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(m[1].name, "nvml:gpu0");
  EXPECT_EQ(m[1].description, "NVIDIA GeForce RTX 3090 Ti");
}

TEST(ThisMachineTarget, PlansOnAGgmlDeviceNeverOnAGpuOnlyADriverLists) {
  MachineInfo m;
  m.cpu = "Test CPU";
  m.gpus = {device("nvml:gpu0", "NVIDIA H200", 141 * kGiB, 140 * kGiB)};
  const fit::Target cpu = fit::this_machine(m, 10.0);
  EXPECT_EQ(cpu.backend, "cpu");  // a CPU-only build cannot offload to the H200
  EXPECT_EQ(cpu.bandwidth_gbps, 10.0);
  m.gpus.insert(m.gpus.begin(), device("CUDA0", "NVIDIA H200", 141 * kGiB, 139 * kGiB));
  const fit::Target gpu = fit::this_machine(m, 10.0);
  EXPECT_EQ(gpu.backend, "cuda");
  EXPECT_EQ(gpu.capacity_bytes, 139 * kGiB);
}

// A CUDA build on a machine without an NVIDIA GPU (ggml-cuda registers, lists no device), and a
// Vulkan build whose ggml-vulkan skipped lavapipe: each backend is named with what it means.
TEST(BackendsWithoutDevices, CudaOrVulkanCompiledInWithNoDeviceIsNamed) {
  MachineInfo m;
  m.backends = {"CUDA", "BLAS", "RPC", "CPU"};
  EXPECT_EQ(backends_without_devices(m), std::vector<std::string>{"CUDA"});
  EXPECT_EQ(no_device_note("CUDA").rfind("CUDA: compiled in, but no CUDA device is present", 0), 0u);
  DeviceInfo nvml;
  nvml.name = "nvml:gpu0";  // a driver's GPU does not count: ggml cannot put layers on it
  m.gpus = {nvml};
  EXPECT_EQ(backends_without_devices(m), std::vector<std::string>{"CUDA"});
  DeviceInfo cuda;
  cuda.name = "CUDA0";
  m.gpus.push_back(cuda);
  EXPECT_TRUE(backends_without_devices(m).empty());
  m.backends = {"Vulkan", "CPU"};
  EXPECT_EQ(backends_without_devices(m), std::vector<std::string>{"Vulkan"});
  EXPECT_NE(no_device_note("Vulkan").find("GGML_VK_VISIBLE_DEVICES=0"), std::string::npos);
  m.backends = {"CPU"};
  EXPECT_TRUE(backends_without_devices(m).empty());
}

}  // namespace
}  // namespace rigbench::hw
