// rigbench: CPU package and DRAM energy from RAPL through the Linux powercap sysfs
// interface (<root>/intel-rapl:N/energy_uj, microjoules; AMD CPUs use the same driver).
//
// What is counted, so that nothing is counted twice:
//   - package-N zones (top level) and dram zones (top level, or a subzone of a package: DRAM
//     energy is not part of the package counter);
//   - not psys (the platform zone contains the packages), not core / uncore (inside package);
//   - zones that expose the identical counter (some multi-die AMD systems mirror one package
//     counter per die) are counted once;
//   - intel-rapl-mmio:N zones only where no MSR zone of the same name exists.
// Wrap-around: energy_uj wraps at max_energy_range_uj; a decrease between two reads adds
// range - previous + current (one wrap; reads at least once a second, and a wrap takes
// minutes even at 1 kW). When max_energy_range_uj is unreadable the meter still works, but a
// decrease cannot be undone: that interval is a gap and phases spanning it are unavailable.
#pragma once

#include <string>

#include "power/meter.h"

namespace rigbench::power {

inline constexpr const char* kDefaultPowercapRoot = "/sys/class/powercap";

// Opens the RAPL zones under `powercap_root` (a real or a fake sysfs tree).
// Unavailable (reason and fix): no powercap directory or no RAPL zone (a VM, a CPU without
// RAPL, not Linux); every energy_uj readable only by root (Linux >= 5.10 after
// CVE-2020-8694), with the chmod and udev fixes; nothing countable.
// Domains: "rapl:package-N" and "rapl:dram-N" (N: the package index), method counter.
MeterOpen open_rapl(const std::string& powercap_root = kDefaultPowercapRoot);

// The fix for unreadable energy_uj files, one line (shared with `rigbench hw`).
std::string rapl_permission_fix();

}  // namespace rigbench::power
