// rigbench: what the hardware costs per million tokens, when a cloud API becomes dearer than
// owning the machine, and what memory costs per GB. Pure functions (docs/energy.md).
#pragma once

#include <limits>

namespace rigbench::cost {

// A Julian year, seconds: 365.25 days.
inline constexpr double kSecondsPerYear = 365.25 * 86400.0;

// What owning the machine costs over its life, in one currency.
struct HardwareCost {
  double price = 0;       // purchase price
  double residual = 0;    // resale value at the end of its life
  double upkeep = 0;      // repairs and other costs over its life (not electricity)
  double lifetime_s = 0;  // seconds of life it is written off over (years × kSecondsPerYear), > 0
};

// Hardware cost per million output tokens: (price - residual + upkeep) · 10^6 /
// (lifetime_s · u · r), where the machine generates r tokens/s a share u of its life.
double hardware_cost_per_mtok(const HardwareCost& hw, double utilization, double tokens_per_s);

// What running locally costs per million tokens at utilization u, electricity and hardware:
//   C(u) = 10^6/r · [ (P_active - P_idle)·π + (P_idle·π + H/L) / u ]
// with π = price_per_kwh / 3.6e6 (per joule), H = price - residual + upkeep, L = lifetime_s;
// the same as electricity_cost_per_mtok(j_per_token_at_utilization(...)) + hardware_cost_per_mtok.
double local_cost_per_mtok(double active_power_w, double idle_power_w, double price_per_kwh, const HardwareCost& hw,
                           double utilization, double tokens_per_s);

// The utilization at which running locally costs what the API charges (C(u) = api price per
// Mtok), solved from local_cost_per_mtok:
//   u* = 10^6/r · (P_idle·π + H/L) / (api - 10^6/r · (P_active - P_idle)·π).
// Returns +inf when the marginal electricity alone costs the API price or more (never breaks
// even); a value above 1 means even full-time use costs more than the API. Use a zero HardwareCost (lifetime_s = 0 is treated as no hardware cost)
// for electricity only. `active_s_per_token`: the seconds of active power one token costs
// (a measured run's T / N, cost/run_figures.h); NaN (default) is 1 / tokens_per_s.
double break_even_utilization(double active_power_w, double idle_power_w, double price_per_kwh, const HardwareCost& hw,
                              double api_price_per_mtok, double tokens_per_s,
                              double active_s_per_token = std::numeric_limits<double>::quiet_NaN());

// Whether running locally never breaks even with the API in practice: the utilization is +inf
// (the marginal cost alone is the API price or more) or above 1 (the API is cheaper even at
// full use). false for NaN (no break-even figure). The one rule for every output (md, json).
bool break_even_never(double break_even_utilization);

// Price per GB of memory: price / memory_gb (e.g. 1999 / 32 = 62.47 per GB). memory_gb > 0,
// in the unit the seller states.
double price_per_memory_gb(double price, double memory_gb);

}  // namespace rigbench::cost
