// rigbench: this machine, described in one place for every subcommand (bench and fit put it in
// records and plans, hw prints it): the OS's view (hw/machine.h: CPU, cores, RAM, OS,
// kernel), the GPUs the drivers list (NVIDIA through NVML, loaded at run time; AMD through
// amdgpu sysfs), and what the inference build sees (ggml backends and devices). hw never
// links the engine: the caller passes ggml's view in (engine/llama_build.h supplies it).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::hw {

// What the inference build sees, from the engine.
struct GgmlView {
  std::vector<std::string> backends;  // ggml backend registry names ("CPU", "CUDA", ...)
  std::vector<DeviceInfo> devices;    // ggml devices other than the CPU, in ggml's order
};

// Where the drivers are looked for; "" = the real machine's (tests point them at fakes).
struct DriverSources {
  std::string nvml_library;  // "" = $RIGBENCH_NVML_LIBRARY, else libnvidia-ml.so.1
  std::string drm_root;      // "" = $RIGBENCH_DRM_ROOT, else /sys/class/drm
};

// The whole MachineInfo: detect_machine()'s fields, machine.backends = ggml.backends, and
// machine.gpus = merge_gpus(ggml.devices, the NVML GPUs then the amdgpu GPUs). Never fails:
// a source that cannot be read adds nothing. Not thread-safe (NVML initialization).
MachineInfo describe(const GgmlView& ggml, const DriverSources& drivers = {});

// ggml's devices first, in ggml's order (the first is the one fit plans on), then every GPU a
// driver lists that no ggml device stands for. A ggml device stands for one driver GPU at most:
// the first not yet matched whose description equals its own or contains it, ignoring case
// (ggml's CUDA device and NVML both say "NVIDIA H200"; Vulkan adds the driver's name in
// parentheses); a matched ggml device takes the driver's description. So a CPU-only build
// and a CUDA or Vulkan build on one host list the same GPUs under the same descriptions.
std::vector<DeviceInfo> merge_gpus(std::vector<DeviceInfo> ggml_devices, const std::vector<DeviceInfo>& driver_gpus);

// Where a listed GPU comes from: "nvml" (name "nvml:gpuN"), "amdgpu" (name "amdgpu:cardN"),
// else "ggml" (a device this build can put layers on).
std::string gpu_source(const DeviceInfo& gpu);

// True for a ggml device: this build can offload layers to it (fit plans on it).
inline bool offloadable(const DeviceInfo& gpu) { return gpu_source(gpu) == "ggml"; }

// The GPU backends this build has (machine.backends: "CUDA", "Vulkan", "MTL", ...) that list
// no device (no ggml device in machine.gpus named after them: "CUDA0", "Vulkan0"): compiled in,
// but nothing to offload to. The CPU, BLAS and RPC backends are never listed.
std::vector<std::string> backends_without_devices(const MachineInfo& machine);

// One line on such a backend, what it means and what to do: "CUDA: compiled in, but no CUDA
// device is present ...", "Vulkan: ... unless GGML_VK_VISIBLE_DEVICES=0 ...".
std::string no_device_note(const std::string& backend);

}  // namespace rigbench::hw
