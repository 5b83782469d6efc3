#include "power/clock.h"

#include <chrono>

namespace rigbench::power {

TimePoint SystemClock::now() const {
  using namespace std::chrono;
  TimePoint t;
  t.steady_ns = duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
  t.unix_ns = duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
  return t;
}

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

}  // namespace rigbench::power
