// rigbench: reasons to doubt a run's figures, each a NoiseNote (core/record.h) that says
// what was seen and what to do: in the samples (outliers by median absolute deviation as
// hyperfine finds them, a first repetition far from the rest, a coefficient of variation
// above kHighCvPct, a speed that drifted between the earlier and later repetitions) and on the machine while the run measured (other processes' CPU time,
// steal, a CPU governor other than performance, thermal throttling).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "hw/activity.h"

namespace rigbench::measure {

inline constexpr double kHighCvPct = 5;            // stddev / mean of the t/s samples, %
inline constexpr double kDriftPct = 3;             // the later half of the repetitions' mean t/s this far from the
                                                   // earlier half's, % (beyond the default ±2 % interval)
inline constexpr double kDriftAlpha = 0.01;        // ... and Welch's two-sided p below this
inline constexpr std::size_t kDriftMinHalf = 4;    // repetitions in each half, at least (after the first)
inline constexpr double kFirstRepetitionPct = 10;  // the first repetition this far from the median of the rest, %
inline constexpr double kBusyWaitPct = 5;          // this run's threads waiting for a CPU, % of their ready time
inline constexpr double kBusyOthersPct = 5;        // other processes' CPU time, % of all CPUs' time (the floor:
                                                   // /proc/stat's shares are within about 2 % over kMinTicksPerCpu)
inline constexpr double kBusyOthersFreePct = 25;   // other processes' CPU time, % of the CPUs' time this run left
                                                   // free (100 % less its own share)
inline constexpr double kBusyOthersAllPct = 10;    // other processes' CPU time, % of all CPUs' time, that is a
                                                   // note whatever this run used (a GPU run using little CPU)
inline constexpr double kStealPct = 2;             // steal, % of all CPUs' time

// 0-based repetition indices (ascending) as the note names them, 1-based: consecutive ones as
// a range, at most six items, then how many more: {0..12, 16, 20} -> "1-13, 17, 21".
std::string repetition_list(std::span<const std::size_t> indices);

// Notes on the samples of pp and tg (each with its phase). Fewer than 3 samples: none.
// Drift (code drift) needs 2 x kDriftMinHalf repetitions after the first (-r 9 or more): the earlier and the
// later half of them (the middle one of an odd count out) differ by more than kDriftPct and
// Welch's two-sided p < kDriftAlpha. Repetitions are only independent on a steady machine, and
// no interval over them covers a change of speed during the run.
std::vector<NoiseNote> sample_notes(const Results& results);

// A note (code machine_busy) when other work ran beside this run, either of:
// - it took CPU time from the run: its threads waited for a CPU more than kBusyWaitPct of the
//   time they were ready to run (schedstat, exact at any length; NaN = no schedstat, not used);
// - it ran on the CPUs the run left free: over a window of at least kMinTicksPerCpu ticks per
//   CPU, other processes used more than kBusyOthersAllPct of all CPUs' time, or more than
//   kBusyOthersPct of it and more than kBusyOthersFreePct of the time this run did not use
//   (100 - own_pct). Such work waits for
//   no CPU of the run's but shares its memory bandwidth and caches: a 1-thread run on 2 CPUs
//   beside a build on the other one (others about 50 % of all, all of the free half).
//   Where the kernel keeps no schedstat this is the only test.
// One when steal passed kStealPct over such a window (code steal). Shorter windows say
// nothing from /proc/stat: it counts whole ticks, and 1 tick of 6 would read as 17 %.
// `load` is the 1-minute load average at the end (NaN = unknown), said in the text.
std::vector<NoiseNote> activity_notes(const hw::CpuActivity& activity, double load);

// A note when any CPU's governor is not "performance" (code governor); none when none is known.
std::vector<NoiseNote> governor_notes(const std::vector<std::string>& governors);

// A note when the kernel counted throttling events between the two readings, a processor
// cooling device was active at the end, or NVML says a GPU's clocks are held down by heat or
// power (`gpus`: power::nvml_throttled_gpus lines) (code thermal_throttle).
std::vector<NoiseNote> thermal_notes(const hw::ThermalState& before, const hw::ThermalState& after,
                                     const std::vector<std::string>& gpus = {});

// Watches the machine over one run: the readings at construction, the notes at finish()
// (called while the run's threads still exist: a thread gone by then is not counted).
// `run_threads`: the run's compute threads (-t); 0 = unknown, never taken as more than the CPUs.
// More than the CPUs (/proc/stat's cpuN lines, or fewer that taskset or a cpuset allow),
// its threads wait for each other, so their wait says nothing of other work and only
// /proc/stat's shares are tested (-t beyond the CPUs has its own warning before the run).
class MachineWatch {
 public:
  explicit MachineWatch(hw::KernelPaths paths);
  std::vector<NoiseNote> finish(int run_threads = 0) const;

 private:
  hw::KernelPaths paths_;
  std::optional<hw::CpuTimes> cpu_;
  std::optional<std::map<int, hw::ThreadSched>> sched_;
  double own_cpu_s_ = 0;
  hw::ThermalState thermal_;
};

}  // namespace rigbench::measure
