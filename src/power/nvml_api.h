// rigbench: the few NVML declarations rigbench uses, written out here because no NVML header
// is needed to build (the library is loaded at run time with dlopen). Layouts and values as in
// NVIDIA's nvml.h (NVML API reference, "Device Queries" and "Field Value Queries"):
//   nvmlReturn_t: NVML_SUCCESS 0, NVML_ERROR_NOT_SUPPORTED 3, ... (an int-sized enum)
//   nvmlFieldValue_t: fieldId, scopeId (uint32), timestamp, latencyUsec (int64), valueType,
//                     nvmlReturn (int-sized enums), value (8-byte union): 40 bytes
//   NVML_FI_DEV_POWER_INSTANT = 186: current GPU power, milliwatts
// Only power/nvml_meter.cpp and the test fake (tests/fakes/fake_nvml.cpp) include this file.
#pragma once

#include <cstdint>

extern "C" {

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;

typedef enum {
  NVML_VALUE_TYPE_DOUBLE = 0,
  NVML_VALUE_TYPE_UNSIGNED_INT = 1,
  NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
  NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
  NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
  NVML_VALUE_TYPE_SIGNED_INT = 5,
  NVML_VALUE_TYPE_UNSIGNED_SHORT = 6,
} nvmlValueType_t;

typedef union nvmlValue_st {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  long long sllVal;
  int siVal;
  unsigned short usVal;
} nvmlValue_t;

typedef struct nvmlFieldValue_st {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;  // microseconds since 1970, when the driver sampled the value
  long long latencyUsec;
  nvmlValueType_t valueType;
  nvmlReturn_t nvmlReturn;
  nvmlValue_t value;
} nvmlFieldValue_t;

// nvmlDeviceGetMemoryInfo: bytes of the device's framebuffer memory.
typedef struct nvmlMemory_st {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

}  // extern "C"

static_assert(sizeof(nvmlFieldValue_t) == 40, "nvmlFieldValue_t must match nvml.h");

namespace rigbench::power::nvml {

inline constexpr nvmlReturn_t kSuccess = 0;
inline constexpr nvmlReturn_t kErrorNotSupported = 3;
inline constexpr nvmlReturn_t kErrorNoPermission = 4;
inline constexpr nvmlReturn_t kErrorDriverNotLoaded = 9;
inline constexpr nvmlReturn_t kErrorLibRmVersionMismatch = 18;

inline constexpr unsigned int kFieldPowerInstant = 186;  // NVML_FI_DEV_POWER_INSTANT, mW

// Signatures of the symbols rigbench looks up (names in the comments).
using InitFn = nvmlReturn_t (*)();                                               // nvmlInit_v2
using ShutdownFn = nvmlReturn_t (*)();                                           // nvmlShutdown
using ErrorStringFn = const char* (*)(nvmlReturn_t);                             // nvmlErrorString
using DeviceGetCountFn = nvmlReturn_t (*)(unsigned int*);                        // nvmlDeviceGetCount_v2
using DeviceGetHandleByIndexFn = nvmlReturn_t (*)(unsigned int, nvmlDevice_t*);  // nvmlDeviceGetHandleByIndex_v2
using DeviceGetNameFn = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned int);     // nvmlDeviceGetName
// nvmlDeviceGetTotalEnergyConsumption: millijoules since the driver was last loaded (Volta+).
using DeviceGetTotalEnergyConsumptionFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
using DeviceGetFieldValuesFn = nvmlReturn_t (*)(nvmlDevice_t, int, nvmlFieldValue_t*);  // nvmlDeviceGetFieldValues
// nvmlDeviceGetPowerUsage: milliwatts, a ~1 s average on recent GPUs: never integrated.
using DeviceGetPowerUsageFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);
using DeviceGetMemoryInfoFn = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t*);  // nvmlDeviceGetMemoryInfo
// nvmlDeviceGetCurrentClocksEventReasons (nvmlDeviceGetCurrentClocksThrottleReasons before
// driver 535): why the clocks are below their maximum, a bit mask (nvmlClocksEventReason*).
using DeviceGetClocksThrottleReasonsFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
inline constexpr unsigned long long kReasonSwPowerCap = 0x4;             // software power cap
inline constexpr unsigned long long kReasonHwSlowdown = 0x8;             // hardware slowdown (temperature or power)
inline constexpr unsigned long long kReasonSwThermalSlowdown = 0x20;     // driver-side thermal slowdown
inline constexpr unsigned long long kReasonHwThermalSlowdown = 0x40;     // hardware thermal slowdown
inline constexpr unsigned long long kReasonHwPowerBrakeSlowdown = 0x80;  // external power brake

}  // namespace rigbench::power::nvml
