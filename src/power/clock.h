// rigbench: the clock seam of the power layer. The Sampler reads time through a Clock so
// that tests can drive readings at chosen instants; the real one reads the steady clock
// (durations, never adjusted) and the system clock (to match external logs) together.
#pragma once

#include "power/meter.h"

namespace rigbench::power {

class Clock {
 public:
  virtual ~Clock() = default;
  // Now on both clocks. Thread-safe.
  virtual TimePoint now() const = 0;
};

// std::chrono::steady_clock and system_clock, read one after the other.
class SystemClock final : public Clock {
 public:
  TimePoint now() const override;
};

// A process-wide SystemClock.
const Clock& system_clock();

}  // namespace rigbench::power
