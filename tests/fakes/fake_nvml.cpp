// A fake NVML (libnvidia-ml.so) for tests: a shared library exporting the NVML symbols that
// rigbench loads, so the real dlopen path runs against GPUs this machine does not have.
// Selected with RIGBENCH_NVML_LIBRARY=<path of this library>. Its GPUs are described by a
// state file named by RIGBENCH_FAKE_NVML_STATE, read again at every call, so a test changes
// the counter or the power between reads by rewriting it. Lines `key=value`:
//   init=ok | driver_not_loaded | version_mismatch
//   count=N
//   gpuI.name=TEXT
//   gpuI.energy_mj=N | unsupported       (nvmlDeviceGetTotalEnergyConsumption)
//   gpuI.energy_w=W with gpuI.energy_since_unix_s=T and optionally gpuI.energy_step_s=S:
//     a counter that runs at W watts from unix time T (added to energy_mj), computed at each
//     read from the clock and moving in steps of S seconds (0 or absent: every read), so the
//     counter keeps time with the reader however late a writer thread would have run
//   gpuI.power_instant_mw=N | unsupported  (field NVML_FI_DEV_POWER_INSTANT, unsigned int mW)
//   gpuI.power_usage_mw=N | unsupported  (nvmlDeviceGetPowerUsage)
//   gpuI.throttle_reasons=N | unsupported  (nvmlDeviceGetCurrentClocksThrottleReasons, a bit mask)
// A missing key reads as "unsupported" (count: 0).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "power/nvml_api.h"

namespace {

constexpr nvmlReturn_t kSuccess = 0;
constexpr nvmlReturn_t kInvalidArgument = 2;
constexpr nvmlReturn_t kNotSupported = 3;
constexpr nvmlReturn_t kDriverNotLoaded = 9;
constexpr nvmlReturn_t kVersionMismatch = 18;

struct nvmlDevice_st* const kDevices = reinterpret_cast<struct nvmlDevice_st*>(0x1000);  // handle i = kDevices + i

std::map<std::string, std::string> state() {
  std::map<std::string, std::string> kv;
  const char* path = std::getenv("RIGBENCH_FAKE_NVML_STATE");
  if (!path) return kv;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return kv;
}

long device_index(nvmlDevice_t dev) { return reinterpret_cast<char*>(dev) - reinterpret_cast<char*>(kDevices); }

// Sets `out` to gpu<i>.<key>; false when unsupported or absent.
bool gpu_value(nvmlDevice_t dev, const char* key, unsigned long long& out) {
  const auto kv = state();
  const auto it = kv.find("gpu" + std::to_string(device_index(dev)) + "." + key);
  if (it == kv.end() || it->second == "unsupported") return false;
  out = std::strtoull(it->second.c_str(), nullptr, 10);
  return true;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) nvmlReturn_t nvmlInit_v2() {
  const auto kv = state();
  const auto it = kv.find("init");
  if (it == kv.end() || it->second == "ok") return kSuccess;
  return it->second == "version_mismatch" ? kVersionMismatch : kDriverNotLoaded;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlShutdown() { return kSuccess; }

__attribute__((visibility("default"))) const char* nvmlErrorString(nvmlReturn_t rc) {
  switch (rc) {
    case kSuccess: return "Success";
    case kInvalidArgument: return "Invalid Argument";
    case kNotSupported: return "Not Supported";
    case kDriverNotLoaded: return "Driver Not Loaded";
    case kVersionMismatch: return "RM has detected an NVML/RM version mismatch.";
  }
  return "Unknown Error";
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  const auto kv = state();
  const auto it = kv.find("count");
  *count = it == kv.end() ? 0 : static_cast<unsigned>(std::strtoul(it->second.c_str(), nullptr, 10));
  return kSuccess;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index,
                                                                                  nvmlDevice_t* dev) {
  unsigned count = 0;
  nvmlDeviceGetCount_v2(&count);
  if (index >= count) return kInvalidArgument;
  *dev = reinterpret_cast<nvmlDevice_t>(reinterpret_cast<char*>(kDevices) + index);
  return kSuccess;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t dev, char* name,
                                                                      unsigned int length) {
  const auto kv = state();
  const auto it = kv.find("gpu" + std::to_string(device_index(dev)) + ".name");
  std::snprintf(name, length, "%s", it == kv.end() ? "Fake GPU" : it->second.c_str());
  return kSuccess;
}

// gpu<i>.memory_total_bytes and gpu<i>.memory_used_bytes.
__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t dev, nvmlMemory_t* memory) {
  unsigned long long total = 0, used = 0;
  if (!gpu_value(dev, "memory_total_bytes", total)) return kNotSupported;
  gpu_value(dev, "memory_used_bytes", used);
  memory->total = total;
  memory->used = used;
  memory->free = total - used;
  return kSuccess;
}

// gpu<i>.<key> as a double; NAN when absent.
double gpu_real(nvmlDevice_t dev, const char* key) {
  const auto kv = state();
  const auto it = kv.find("gpu" + std::to_string(device_index(dev)) + "." + key);
  return it == kv.end() ? NAN : std::strtod(it->second.c_str(), nullptr);
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t dev,
                                                                                        unsigned long long* energy_mj) {
  unsigned long long base = 0;
  const bool fixed = gpu_value(dev, "energy_mj", base);
  const double watts = gpu_real(dev, "energy_w");
  if (std::isnan(watts)) {
    *energy_mj = base;
    return fixed ? kSuccess : kNotSupported;
  }
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  double t = std::max(0.0, now - gpu_real(dev, "energy_since_unix_s"));
  const double step = gpu_real(dev, "energy_step_s");
  if (step > 0) t = std::floor(t / step) * step;
  *energy_mj = base + static_cast<unsigned long long>(watts * 1000 * t);
  return kSuccess;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t dev, unsigned int* power_mw) {
  unsigned long long v = 0;
  if (!gpu_value(dev, "power_usage_mw", v)) return kNotSupported;
  *power_mw = static_cast<unsigned>(v);
  return kSuccess;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(
    nvmlDevice_t dev, unsigned long long* reasons) {
  unsigned long long v = 0;
  if (!gpu_value(dev, "throttle_reasons", v)) return kNotSupported;
  *reasons = v;
  return kSuccess;
}

__attribute__((visibility("default"))) nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t dev, int count,
                                                                             nvmlFieldValue_t* values) {
  for (int i = 0; i < count; ++i) {
    nvmlFieldValue_t& v = values[i];
    unsigned long long mw = 0;
    if (v.fieldId == rigbench::power::nvml::kFieldPowerInstant && gpu_value(dev, "power_instant_mw", mw)) {
      v.nvmlReturn = kSuccess;
      v.valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
      v.value.uiVal = static_cast<unsigned>(mw);
    } else {
      v.nvmlReturn = kNotSupported;
    }
  }
  return kSuccess;
}

}  // extern "C"
