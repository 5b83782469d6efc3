// rigbench: the cost use case. From one set of figures (a machine's generation speed and
// power, a price, a hardware budget) to energy per token and cost per million output tokens,
// every figure or the reason it is missing. The figures come from the command line today
// (`rigbench cost --tps ... --watts ...`) and from a stored run later: CostInputs is the seam.
// Pure: no I/O.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cost/hardware.h"

namespace rigbench::cost {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Everything the figures depend on. NaN = not given; what depends on it is NaN in the report
// and a note says which input would give it. Callers validate ranges (the CLI names flags).
// NaN is how a figure that was not given is written throughout CostInputs and CostReport.
inline bool given(double v) { return !std::isnan(v); }

struct CostInputs {
  double tokens_per_s = kNaN;              // output tokens per second while generating (tg), > 0; required
  std::string rate_source;                 // where r came from, for the report ("--tps", "tg128 t/s as bench's row ...")
  // Seconds per output token that a measured energy covers (T / N of a stored run's tg energy,
  // cost/run_figures.h); NaN: 1 / tokens_per_s. Energy per token is P_active x this, so a
  // run's gross figure is its E / N whatever its rate r; r prices the time (idle, hardware).
  double seconds_per_token = kNaN;
  double active_power_w = kNaN;            // average power while generating, W (components unless wall)
  double idle_power_w = kNaN;              // idle power with the model loaded, W
  std::string power_method = "estimated";  // how the watts were obtained: counter|integrated|estimated
  // What gives active_power_w, as the notes name it after "give": the flag from the command line;
  // `cost --per-model`, whose watts come from each run, names runs measured with energy.
  std::string power_input = "--watts";
  double psu_efficiency = 1.0;             // wall = power / psu_efficiency + rest_w; 0 < x <= 1
  double rest_w = 0;                       // W no meter sees (fans, disks, board), added at the wall
  double price_per_kwh = kNaN;             // flat price, or the tariff's hour-weighted mean
  std::string price_source;                // how the price was given, for the report ("--price 0.30", "tariff ...")
  std::string currency = "EUR";
  double utilization = kNaN;         // share of the time the machine generates, 0 < u <= 1
  HardwareCost hardware;             // lifetime_s = 0: no hardware figures
  bool has_hardware = false;         // hardware.price and lifetime_s given
  double api_price_per_mtok = kNaN;  // a cloud API's price per million output tokens
  double memory_gb = kNaN;           // the machine's memory for the model, GB, for price per GB
};

// Energy per output token [J] and electricity cost per million output tokens [currency].
struct PerToken {
  double j = kNaN;
  double cost_per_mtok = kNaN;
};

struct CostReport {
  CostInputs inputs;
  double wall_active_w = kNaN;           // active power at the wall (psu efficiency and rest applied)
  double wall_idle_w = kNaN;             // idle power at the wall
  PerToken gross;                        // e = P_active · s, s = seconds_per_token (else 1 / r)
  PerToken marginal;                     // e = (P_active - P_idle) · s; NaN (with a note) when idle > active
  bool idle_above_active = false;        // the idle power given or measured is above the active power
  PerToken at_utilization;               // e(u) = gross + P_idle (1 - u) / (u r)
  double hardware_per_mtok = kNaN;       // (price - residual + upkeep)·10^6 / (L·u·r)
  double total_per_mtok = kNaN;          // electricity at u + hardware (hardware 0 when not given)
  double break_even_utilization = kNaN;  // against api_price_per_mtok; +inf = never
  double price_per_memory_gb = kNaN;
  std::vector<std::string> notes;  // each missing figure and the input that would give it
};

// Computes every figure the inputs allow. With figures from the command line, E = P·T and
// N = r·T, so e_gross = P_active / r and e_marginal = (P_active - P_idle) / r; with a stored
// run's energy, s = T / N takes 1 / r's place in those two (and in break-even's marginal term).
CostReport estimate_cost(const CostInputs& in);

}  // namespace rigbench::cost
