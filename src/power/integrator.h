// rigbench: trapezoid integration of power samples into cumulative joules, the way meters
// without an energy counter (NVML's instantaneous power field, hwmon power1_input, a wall
// meter's log) turn power into energy. Pure, no I/O.
#pragma once

#include <cmath>
#include <cstdint>

namespace rigbench::power {

class PowerIntegrator {
 public:
  // Adds a power sample (watts) taken at `steady_ns` and returns the cumulative joules since
  // the first sample: the previous total plus (p_prev + p) / 2 * dt. A NaN sample is skipped
  // (the next valid one bridges the gap with one trapezoid). Samples must come in time order.
  double add(int64_t steady_ns, double power_w) {
    if (std::isnan(power_w)) return joules_;
    if (has_prev_) joules_ += 0.5 * (prev_w_ + power_w) * static_cast<double>(steady_ns - prev_ns_) * 1e-9;
    has_prev_ = true;
    prev_ns_ = steady_ns;
    prev_w_ = power_w;
    return joules_;
  }

  // Cumulative joules so far (0 before the second sample).
  double joules() const { return joules_; }

  // True once a valid sample has been added.
  bool started() const { return has_prev_; }

 private:
  bool has_prev_ = false;
  int64_t prev_ns_ = 0;
  double prev_w_ = 0;
  double joules_ = 0;
};

}  // namespace rigbench::power
