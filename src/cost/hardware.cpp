#include "cost/hardware.h"

#include <cmath>

namespace rigbench::cost {

namespace {

// H/L: hardware cost per second of life; 0 without a lifetime.
double hardware_per_s(const HardwareCost& hw) {
  return hw.lifetime_s > 0 ? (hw.price - hw.residual + hw.upkeep) / hw.lifetime_s : 0.0;
}

}  // namespace

double hardware_cost_per_mtok(const HardwareCost& hw, double utilization, double tokens_per_s) {
  return (hw.price - hw.residual + hw.upkeep) * 1e6 / (hw.lifetime_s * utilization * tokens_per_s);
}

double local_cost_per_mtok(double active_power_w, double idle_power_w, double price_per_kwh, const HardwareCost& hw,
                           double utilization, double tokens_per_s) {
  const double per_j = price_per_kwh / 3.6e6;
  return 1e6 / tokens_per_s *
         ((active_power_w - idle_power_w) * per_j + (idle_power_w * per_j + hardware_per_s(hw)) / utilization);
}

double break_even_utilization(double active_power_w, double idle_power_w, double price_per_kwh, const HardwareCost& hw,
                              double api_price_per_mtok, double tokens_per_s, double active_s_per_token) {
  const double per_j = price_per_kwh / 3.6e6;
  const double s = std::isnan(active_s_per_token) ? 1.0 / tokens_per_s : active_s_per_token;
  const double marginal = 1e6 * s * (active_power_w - idle_power_w) * per_j;
  const double fixed = 1e6 / tokens_per_s * (idle_power_w * per_j + hardware_per_s(hw));
  if (api_price_per_mtok <= marginal) return INFINITY;
  return fixed / (api_price_per_mtok - marginal);
}

bool break_even_never(double break_even_utilization) {
  return std::isinf(break_even_utilization) || break_even_utilization > 1;
}

double price_per_memory_gb(double price, double memory_gb) { return price / memory_gb; }

}  // namespace rigbench::cost
