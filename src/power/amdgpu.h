// rigbench: AMD GPU power and energy through the amdgpu driver's hwmon files
// (<root>/hwmonN with name "amdgpu"):
//   power1_input   (µW, current power; newer kernels and GPUs) or, where absent,
//   power1_average (µW, the firmware's short average): sampled at >= 10 Hz and integrated;
//   energy1_input  (µJ, where the driver has it): an energy counter.
// These counters are sometimes frozen, go backwards or are mis-scaled, so summarize() checks
// the counter against power × time and falls back to the integrated power when it disagrees.
#pragma once

#include <string>

#include "power/meter.h"

namespace rigbench::power {

inline constexpr const char* kDefaultHwmonRoot = "/sys/class/hwmon";

// Opens every amdgpu hwmon device under `hwmon_root` (a real or a fake sysfs tree) that has a
// readable power file. Unavailable: no hwmon directory, no amdgpu device (no AMD GPU or the
// driver not loaded), or no readable power file (the reason names the file and the errno).
// Domains: "amdgpu:hwmonN", counter (energy1_input) when present, integrated power always.
MeterOpen open_amdgpu(const std::string& hwmon_root = kDefaultHwmonRoot);

}  // namespace rigbench::power
