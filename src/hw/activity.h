// rigbench: what else the machine was doing while a run measured, read from the kernel: CPU
// time of every process and the hypervisor's steal from /proc/stat, the load average, the CPU
// frequency governors and thermal throttling from sysfs. Every reader takes the root it reads
// under ("/proc", "/sys"), so a test points it at a fake tree in a temp dir.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
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
  int cpus = 1;        // the cpuN lines under it (at least 1)
  uint64_t total() const { return busy + idle + steal; }
};

// <proc>/stat's "cpu" line; nullopt when it cannot be read or parsed.
std::optional<CpuTimes> read_cpu_times(const std::string& proc_root);

// The 1-minute load average from <proc>/loadavg; NaN when unreadable.
double read_load_average(const std::string& proc_root);

// This process's CPU time so far (user + system, all threads), seconds (getrusage).
double own_cpu_seconds();

// The CPUs this process may run on (sched_getaffinity, as nproc counts them: taskset and
// cgroup cpusets narrow it); 0 when unknown.
int allowed_cpus();

// Clock ticks per second of /proc/stat (sysconf(_SC_CLK_TCK), 100 on Linux).
double clock_ticks_per_second();

// Between two snapshots of /proc/stat: how much of every CPU's time went elsewhere.
struct CpuActivity {
  double others_pct = 0;     // CPU time of other processes, % of all CPUs' time (busy minus this process's own)
  double steal_pct = 0;      // steal, % of all CPUs' time
  double own_pct = 0;        // this process, % of all CPUs' time
  double seconds = 0;        // CPU-seconds elapsed over all CPUs (total ticks / ticks per second)
  double ticks_per_cpu = 0;  // clock ticks elapsed per CPU: /proc/stat counts whole ticks, so a window
                             // of few ticks cannot resolve a share (1 tick of 6 reads as 17 %)
  // This process's threads' wait for a CPU (schedstat), % of the time they were ready to run
  // (on a CPU or waiting for one); NaN when the kernel keeps no schedstat.
  double wait_pct = std::numeric_limits<double>::quiet_NaN();
};

// The clock ticks per CPU a window needs before /proc/stat's shares are read at all (1 s at
// USER_HZ 100): each CPU's count can be one tick off at either end, so shares are then within
// about 2 %, well below the thresholds (measure/noise.h).
inline constexpr double kMinTicksPerCpu = 100;

// <proc>/self/task/<tid>/schedstat of every thread of this process: per thread id, the
// nanoseconds it ran and the nanoseconds it waited on a run queue (ready, no CPU free); fields
// 1 and 2 of the file (CONFIG_SCHED_INFO). nullopt when no thread's file can be read.
struct ThreadSched {
  uint64_t run_ns = 0;
  uint64_t wait_ns = 0;
};
std::optional<std::map<int, ThreadSched>> read_thread_sched(const std::string& proc_root);

// Over a window: the threads' waiting, % of their run + wait time, from two read_thread_sched
// snapshots; a thread not in `before` started within the window (counted from 0), one gone from
// `after` is left out. NaN when neither ran nor waited.
double run_queue_wait_pct(const std::map<int, ThreadSched>& before, const std::map<int, ThreadSched>& after);

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
