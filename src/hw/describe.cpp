#include "hw/describe.h"

#include <algorithm>
#include <utility>

#include "core/strings.h"
#include "hw/gpus_sysfs.h"
#include "hw/machine.h"
#include "power/nvml_meter.h"

namespace rigbench::hw {

namespace {

std::string key(const DeviceInfo& d) { return to_lower(trim(d.description)); }

bool equal_names(const std::string& a, const std::string& b) { return !a.empty() && a == b; }

bool one_contains_other(const std::string& a, const std::string& b) {
  return !a.empty() && !b.empty() && (a.find(b) != std::string::npos || b.find(a) != std::string::npos);
}

}  // namespace

std::vector<DeviceInfo> merge_gpus(std::vector<DeviceInfo> ggml_devices, const std::vector<DeviceInfo>& driver_gpus) {
  std::vector<bool> ggml_taken(ggml_devices.size(), false), driver_seen(driver_gpus.size(), false);
  // Exact descriptions first, so "RTX 3090" is not taken by "RTX 3090 Ti" when both are present.
  for (auto* same : {&equal_names, &one_contains_other}) {
    for (std::size_t d = 0; d < driver_gpus.size(); ++d) {
      for (std::size_t g = 0; g < ggml_devices.size() && !driver_seen[d]; ++g) {
        if (ggml_taken[g] || !(*same)(key(ggml_devices[g]), key(driver_gpus[d]))) continue;
        ggml_taken[g] = driver_seen[d] = true;
        // The driver's name for the GPU, whatever the backend adds: the machine's identity
        // (compare) is then the same under every build.
        ggml_devices[g].description = driver_gpus[d].description;
      }
    }
  }
  for (std::size_t d = 0; d < driver_gpus.size(); ++d) {
    if (!driver_seen[d]) ggml_devices.push_back(driver_gpus[d]);
  }
  return ggml_devices;
}

std::string gpu_source(const DeviceInfo& gpu) {
  if (gpu.name.rfind("nvml:", 0) == 0) return "nvml";
  if (gpu.name.rfind("amdgpu:", 0) == 0) return "amdgpu";
  return "ggml";
}

std::vector<std::string> backends_without_devices(const MachineInfo& machine) {
  static const char* const kGpuBackends[] = {"CUDA", "ROCm", "MUSA", "Vulkan", "MTL", "SYCL", "OpenCL", "CANN"};
  std::vector<std::string> out;
  for (const std::string& b : machine.backends) {
    if (std::find(std::begin(kGpuBackends), std::end(kGpuBackends), b) == std::end(kGpuBackends)) continue;
    const bool listed = std::any_of(machine.gpus.begin(), machine.gpus.end(), [&](const DeviceInfo& g) {
      return offloadable(g) && g.name.rfind(b, 0) == 0;
    });
    if (!listed) out.push_back(b);
  }
  return out;
}

std::string no_device_note(const std::string& backend) {
  if (backend == "CUDA") {
    return "CUDA: compiled in, but no CUDA device is present (the driver lists none: check nvidia-smi and "
           "CUDA_VISIBLE_DEVICES); every layer stays on the CPU";
  }
  if (backend == "Vulkan") {
    return "Vulkan: compiled in, but ggml-vulkan lists no device (it skips CPU-type devices such as Mesa's lavapipe "
           "unless GGML_VK_VISIBLE_DEVICES=0 is set; vulkaninfo --summary lists the devices); every layer stays on "
           "the CPU";
  }
  return backend + ": compiled in, but it lists no device; every layer stays on the CPU";
}

MachineInfo describe(const GgmlView& ggml, const DriverSources& drivers) {
  MachineInfo m = detect_machine();
  m.backends = ggml.backends;
  std::vector<DeviceInfo> listed = power::list_nvml_gpus(drivers.nvml_library);
  for (auto& g : amd_gpus(drivers.drm_root)) listed.push_back(std::move(g));
  m.gpus = merge_gpus(ggml.devices, listed);
  return m;
}

}  // namespace rigbench::hw
