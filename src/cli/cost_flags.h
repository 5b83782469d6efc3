// rigbench: the cost flags that `cost`, `bench` and `serve-bench` share (--price, --tariff,
// --currency, --psu-efficiency, --rest-watts, --utilization, the hardware and API figures),
// the power and rate figures beside them, and their validation into cost::CostInputs. Only
// flags live here: no command's own options, nothing measured or printed.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/status.h"
#include "cost/estimate.h"
#include "cost/stored_run.h"

namespace rigbench::cli {

// Each numeric field left NaN was not given. The generation figures (the base) are `cost`'s
// --tps, --watts and --idle-watts (filled from a stored run with --run); bench and serve-bench
// take --idle-watts as their idle baseline and measure the rest.
struct CostFlags : cost::GenerationFigures {
  double price = cost::kNaN;           // --price: electricity per kWh
  std::string tariff;                  // --tariff: time-of-use, e.g. day=0.30@07-23,night=0.18
  std::string currency = "EUR";        // --currency: name of the price's currency
  double psu_efficiency = 1.0;         // --psu-efficiency: wall = watts / efficiency + rest
  double rest_watts = 0;               // --rest-watts: W no meter sees, added at the wall
  double utilization = cost::kNaN;     // --utilization: share of the time spent generating, (0, 1]
  double hardware_price = cost::kNaN;  // --hardware-price: purchase price of the machine
  double residual_value = 0;           // --residual-value: resale value at the end of its life
  double upkeep = 0;                   // --upkeep: repairs and other costs over its life
  double lifetime_years = cost::kNaN;  // --lifetime-years: years the hardware is written off over
  double api_price = cost::kNaN;       // --api-price: a cloud API's price per million output tokens
  double memory_gb = cost::kNaN;       // --memory-gb: the machine's memory for models, for price per GB
};

// Declares the price, tariff, wall-power, utilization and hardware flags on `cmd`, bound to
// `opts` (each checked to be a number as parsed; ranges are cost_inputs').
void add_price_flags(CLI::App& cmd, CostFlags& opts);

// Checks the figures and turns them into cost inputs (tariff parsed to its hour-weighted mean,
// years to seconds). `require_tps`: --tps must be given (the `cost` command). Errors: kUsage
// naming the flag and the bad value ("--utilization 1.5: must be in (0, 1]"), --tps missing,
// --hardware-price without --lifetime-years (or the reverse), a bad --currency or --tariff.
Result<cost::CostInputs> cost_inputs(const CostFlags& opts, bool require_tps = true);

}  // namespace rigbench::cli
