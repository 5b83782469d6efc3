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
};

// Runs the probe with `threads` threads (0 = physical cores) on arrays of `array_bytes`
// (default 256 MiB each; the triad needs three). Takes about a second. Never fails: with no
// memory to allocate, returns zeros and says so in `method`.
BandwidthResult measure_bandwidth(int threads = 0, std::size_t array_bytes = 256u << 20);

// This machine's memory bandwidth, GB/s (read probe): the figure cached in
// $XDG_CACHE_HOME/rigbench/bandwidth.json (keyed by CPU and threads), else measured now (a
// 128 MiB probe) and cached. 0 when it cannot be measured.
double host_bandwidth_gbps(const MachineInfo& machine);

// Caches `r` as this machine's bandwidth (what `rigbench hw --bandwidth` measured), replacing
// the figure: a first-use probe on a busy machine reads low. The file is written beside and
// renamed; a failed probe (0 GB/s) or a failure to write leaves the old figure and is not an
// error.
void store_bandwidth(const MachineInfo& machine, const BandwidthResult& r);

}  // namespace rigbench::hw
