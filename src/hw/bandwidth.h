// rigbench: a short memory-bandwidth probe (STREAM-like), so that the tg bound uses this
// machine's real bandwidth rather than a datasheet figure, and the cache of that figure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/record.h"

namespace rigbench::hw {

struct BandwidthResult {
  double read_gbps = 0;   // GB/s (1e9 bytes/s): XOR over an array of `array_bytes`, best of `repetitions`
  double triad_gbps = 0;  // GB/s: a[i] = b[i] + s * c[i], counted as 3 x array bytes (STREAM's convention)
  int threads = 0;
  std::size_t array_bytes = 0;  // per array, far above the caches
  int repetitions = 0;
  std::string method;  // how it was measured, for people
  // Other processes' CPU time while it ran, % of all CPUs' time (hw/activity.h), and whether
  // that passed kProbeBusyPct: a reading so taken is low and says so.
  double others_cpu_pct = 0;
  bool disturbed = false;
};

// A probe is disturbed when other processes used more than this % of the CPUs while it ran.
inline constexpr double kProbeBusyPct = 10;

// How long a reading counts as recent: the figure is the best reading of this many days.
inline constexpr double kBandwidthRecentDays = 30;

// The probe's array size, bytes (`rigbench hw --bandwidth`, which bench runs in a child):
// three arrays of it (the triad needs three), 768 MiB in all. README states it.
inline constexpr std::size_t kProbeArrayBytes = 256u << 20;

// Runs the probe with `threads` threads (0 = physical cores) on arrays of `array_bytes`
// (default kProbeArrayBytes each; the triad needs three). Takes about a second. Never fails:
// with no memory to allocate, returns zeros and says so in `method`.
BandwidthResult measure_bandwidth(int threads = 0, std::size_t array_bytes = kProbeArrayBytes);

// This machine's memory bandwidth, GB/s (read probe): the figure cached in
// $XDG_CACHE_HOME/rigbench/bandwidth.json (keyed by CPU and threads), else measured now (a
// 128 MiB probe, in this process: bench probes in a child instead) and cached. 0 when it
// cannot be measured.
double host_bandwidth_gbps(const MachineInfo& machine);

// The cached figure only (the best recent reading), never a probe; 0 when none is cached.
double cached_bandwidth_gbps(const MachineInfo& machine);

// What store_bandwidth did with a reading.
struct StoredBandwidth {
  double figure_gbps = 0;    // the figure the tg bound uses now
  bool kept_better = false;  // the reading was below a better recent one, which stays the figure
  double better_gbps = 0;    // that reading, GB/s
  std::string better_time;   // when it was taken, UTC ISO 8601
};

// Adds `r` (what `rigbench hw --bandwidth` or bench's first probe measured) to this machine's
// recent readings (the last 10 of kBandwidthRecentDays) and makes the best of them the figure:
// a reading taken on a busy machine reads low and does not replace a better recent one (the
// caller says so). `now` is seconds since 1970 (0 = the clock). The file is written beside and
// renamed; a failed probe (0 GB/s) or a failure to write leaves the old figure and is not an
// error. The cache's "read_gbps" is the figure, as files before the readings had it.
StoredBandwidth store_bandwidth(const MachineInfo& machine, const BandwidthResult& r, int64_t now = 0);

}  // namespace rigbench::hw
