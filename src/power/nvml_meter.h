// rigbench: NVIDIA GPU energy through NVML, loaded at run time (dlopen), so rigbench runs
// and builds where no NVIDIA driver is installed.
//
// Per GPU, best source first:
//   1. nvmlDeviceGetTotalEnergyConsumption (mJ, Volta and newer) deltas: method counter. The
//      driver updates it about every 100 ms, so windows shorter than that read 0.
//   2. where the counter is not supported (or found frozen by summarize(): no change while
//      power reads > 0), the instantaneous power field NVML_FI_DEV_POWER_INSTANT (mW)
//      sampled at >= 10 Hz and integrated by trapezoid: method integrated.
//   nvmlDeviceGetPowerUsage (a ~1 s average on recent GPUs) is never integrated; where the
//   instantaneous field is missing it is read as power_w only (frozen check, idle median).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "power/meter.h"

namespace rigbench::power {

// Environment variable naming the NVML library to load (tests point it at a fake).
inline constexpr const char* kNvmlLibraryEnv = "RIGBENCH_NVML_LIBRARY";
inline constexpr const char* kDefaultNvmlLibrary = "libnvidia-ml.so.1";

// The library open_nvml("") loads: $RIGBENCH_NVML_LIBRARY when set and non-empty, else
// libnvidia-ml.so.1 (found by the dynamic loader).
std::string nvml_library_path();

// Loads NVML from `library` ("" = nvml_library_path()), initializes it and opens every GPU
// that has the energy counter or the instantaneous power field.
// Unavailable: the library cannot be loaded (no NVIDIA driver), lacks the symbols, nvmlInit
// fails (driver not loaded, driver/library version mismatch: reboot), no GPU, or no GPU with
// either source (the reason names each GPU and what it lacks).
// Domains: "nvml:gpuN" (N: NVML index). The library stays loaded for the process's lifetime;
// the meter calls nvmlShutdown when destroyed.
MeterOpen open_nvml(const std::string& library = "");

// Every NVIDIA GPU NVML sees (loaded at run time, so a CPU-only build lists them too; hw::describe
// puts them in the machine description): name
// "nvml:gpuN", description the GPU's name, memory total and free bytes from
// nvmlDeviceGetMemoryInfo. Empty when NVML cannot be loaded or initialized.
std::vector<DeviceInfo> list_nvml_gpus(const std::string& library = "");

// The GPUs whose clocks NVML says are held down now by heat or power (thermal slowdown,
// hardware slowdown, power brake, software power cap), one line each: "nvml:gpu0 (NAME): hw
// thermal slowdown, sw power cap". Empty when NVML cannot be loaded or none is throttled.
std::vector<std::string> nvml_throttled_gpus(const std::string& library = "");

}  // namespace rigbench::power
