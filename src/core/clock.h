// rigbench: the monotonic clock that timed sections read (std::chrono::steady_clock: never
// adjusted, so differences are durations), in nanoseconds since its epoch.
#pragma once

#include <chrono>
#include <cstdint>

namespace rigbench {

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace rigbench
