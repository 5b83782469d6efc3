// rigbench: a short memory-bandwidth probe (STREAM-like), so that the tg bound uses this
// machine's real bandwidth rather than a datasheet figure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rigbench::hw {

struct BandwidthResult {
  double read_gbps = 0;   // GB/s (1e9 bytes/s): XOR over an array of `array_bytes`, best of `repetitions`
  double triad_gbps = 0;  // GB/s: a[i] = b[i] + s * c[i], counted as 3 x array bytes (STREAM's convention)
  int threads = 0;
  std::size_t array_bytes = 0;  // per array, far above the caches
  int repetitions = 0;
  std::string method;     // how it was measured, for people
};

// Runs the probe with `threads` threads (0 = physical cores) on arrays of `array_bytes`
// (default 256 MiB each; the triad needs three). Takes about a second. Never fails: with no
// memory to allocate, returns zeros and says so in `method`.
BandwidthResult measure_bandwidth(int threads = 0, std::size_t array_bytes = 256u << 20);

}  // namespace rigbench::hw
