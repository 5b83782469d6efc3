// rigbench: every meter rigbench knows, opened or explained. One list serves `rigbench hw`
// (each meter available or not, why not, and the fix) and `rigbench bench --energy auto`
// (the meters to hand to the Sampler).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "power/amdgpu.h"
#include "power/meter.h"
#include "power/rapl.h"

namespace rigbench::power {

// Where to look and what the user asked for. Defaults are the real machine's paths.
struct MeterConfig {
  std::string powercap_root = kDefaultPowercapRoot;  // RAPL (sysfs; tests point it at a fake tree)
  std::string hwmon_root = kDefaultHwmonRoot;        // amdgpu hwmon
  std::string nvml_library;                          // "" = $RIGBENCH_NVML_LIBRARY, else libnvidia-ml.so.1
  std::string power_log;            // --power-log FILE: CSV timestamp,watts of a wall meter ("" = none)
  double watts = 0;                 // --watts W: a constant the user states (0 = none)
  double estimate_tdp_w = 0;        // --estimate-power: TDP for the TDP × utilization model (0 = off)
  std::string proc_root = "/proc";  // for the utilization model
};

// One meter kind on this machine.
struct MeterStatus {
  std::string kind;  // "rapl", "nvml", "amdgpu" (Linux), "apple" (macOS), "external", "constant", "estimate"
  bool available = false;
  std::vector<std::string> domains;  // what it reports, when available
  std::string detail;                // available: its sources and notes; otherwise the reason
  std::string fix;                   // what would make it available ("" when nothing, or not wanted)
  bool asked = true;                 // false for a meter opened only when asked for (--power-log, --watts,
                                     // --estimate-power) and not asked for; hardware meters are always looked for
};

struct OpenedMeters {
  std::vector<std::unique_ptr<Meter>> meters;  // the available ones, in the order of `status`
  std::vector<MeterStatus> status;             // every kind, available or not
};

// Opens every meter kind that can exist on this OS, in a fixed order: rapl, nvml, amdgpu on
// Linux (apple on macOS), then external, constant, estimate, which open only when asked for
// in `config`. Never fails: a kind that
// cannot open is listed with its reason. Not thread-safe (NVML initialization).
OpenedMeters open_meters(const MeterConfig& config);

// The status list alone (the meters are opened to check them, then closed): `rigbench hw`.
std::vector<MeterStatus> list_meters(const MeterConfig& config);

inline constexpr std::size_t kNoMeterLineMax = 120;  // characters

// What `rigbench bench` prints (stderr) when no meter in `status` is available: one line of at
// most kNoMeterLineMax characters saying what is missing (the hardware meters of this OS that
// were looked for, and any meter asked for that failed), that speed is still measured, and
// where the details are (`rigbench hw`):
//   rigbench: energy: no meter available (rapl, nvml, amdgpu); speed is still measured; details: rigbench hw
std::string no_meter_line(const std::vector<MeterStatus>& status);

}  // namespace rigbench::power
