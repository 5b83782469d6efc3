// rigbench: what else the machine was doing while a run measured, read from the kernel: CPU
// time of every process and the hypervisor's steal from /proc/stat, the load average, the CPU
// frequency governors and thermal throttling from sysfs. Every reader takes the root it reads
// under ("/proc", "/sys"), so a test points it at a fake tree in a temp dir.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rigbench::hw {

// Where the readers look: the real kernel by default.
struct KernelPaths {
  std::string proc = "/proc";
  std::string sys = "/sys";
};

// The aggregate "cpu" line of /proc/stat, in clock ticks (USER_HZ) summed over every CPU.
struct CpuTimes {
  uint64_t busy = 0;   // user + nice + system + irq + softirq (guest time is inside user)
  uint64_t idle = 0;   // idle + iowait
  uint64_t steal = 0;  // time the hypervisor gave another guest
  uint64_t total() const { return busy + idle + steal; }
};

// <proc>/stat's "cpu" line; nullopt when it cannot be read or parsed.
std::optional<CpuTimes> read_cpu_times(const std::string& proc_root);

// The 1-minute load average from <proc>/loadavg; NaN when unreadable.
double read_load_average(const std::string& proc_root);

// This process's CPU time so far (user + system, all threads), seconds (getrusage).
double own_cpu_seconds();

// Clock ticks per second of /proc/stat (sysconf(_SC_CLK_TCK), 100 on Linux).
double clock_ticks_per_second();

// Between two snapshots of /proc/stat: how much of every CPU's time went elsewhere.
struct CpuActivity {
  double others_pct = 0;  // CPU time of other processes, % of all CPUs' time (busy minus this process's own)
  double steal_pct = 0;   // steal, % of all CPUs' time
  double own_pct = 0;     // this process, % of all CPUs' time
  double seconds = 0;     // CPU-seconds elapsed over all CPUs (total ticks / ticks per second)
};

// The activity between `before` and `after`, this process having used `own_cpu_s` seconds
// of CPU in between; ticks per second as clock_ticks_per_second(). All zero when no tick passed.
CpuActivity cpu_activity(const CpuTimes& before, const CpuTimes& after, double own_cpu_s, double ticks_per_s);

// The distinct CPU frequency governors of <sys>/devices/system/cpu/cpu*/cpufreq/scaling_governor,
// sorted; empty when the kernel exposes none (no cpufreq, a container, a VM).
std::vector<std::string> cpu_governors(const std::string& sys_root);

// Thermal throttling the kernel counts: the sum of <sys>/devices/system/cpu/cpu*/thermal_throttle/
// {core,package}_throttle_count (x86); and the processor cooling devices of <sys>/class/thermal
// (type "Processor" or "intel_powerclamp") with cur_state > 0, by name ("cooling_device0").
struct ThermalState {
  uint64_t throttle_count = 0;
  std::vector<std::string> cooling_active;
};
ThermalState read_thermal(const std::string& sys_root);

}  // namespace rigbench::hw
