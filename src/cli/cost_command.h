// rigbench: `rigbench cost`, cost per million output tokens from figures given on the
// command line (a machine rigbench cannot run on, or figures measured elsewhere). Computing
// from a stored run (`--run ID`) will fill the same cost::CostInputs from the record.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/status.h"
#include "cost/estimate.h"
#include "store/record_sources.h"

namespace rigbench::cli {

// Each numeric flag left NaN was not given.
struct CostOptions {
  std::string run;                      // --run ID: a stored run (record_id or a unique prefix; "latest")
  bool per_model = false;               // --per-model: one row per model of the stored runs on one machine
  store::RecordFilter filter;           // --model, --machine, --tag: which stored runs --per-model prices
  std::string db_path;                  // --db: the database holding --run (default path)
  double tps = cost::kNaN;              // --tps: output tokens/s while generating (required without --run)
  double watts = cost::kNaN;            // --watts: average power while generating, W
  double idle_watts = cost::kNaN;       // --idle-watts: idle power with the model loaded, W
  std::string power_method = "stated";  // how the watts were obtained: stated (given here), or a stored run's method
  std::string rate_source = "--tps";    // where tps came from: given here, or a stored run's tg row
  double seconds_per_token = cost::kNaN;  // a stored run's tg energy seconds per token, with its watts (not a flag)
  double price = cost::kNaN;            // --price: electricity per kWh
  std::string tariff;                   // --tariff: time-of-use, e.g. day=0.30@07-23,night=0.18
  std::string currency = "EUR";         // --currency: name of the price's currency
  double psu_efficiency = 1.0;          // --psu-efficiency: wall = watts / efficiency + rest
  double rest_watts = 0;                // --rest-watts: W no meter sees, added at the wall
  double utilization = cost::kNaN;      // --utilization: share of the time spent generating, (0, 1]
  double hardware_price = cost::kNaN;   // --hardware-price: purchase price of the machine
  double residual_value = 0;            // --residual-value: resale value at the end of its life
  double upkeep = 0;                    // --upkeep: repairs and other costs over its life
  double lifetime_years = cost::kNaN;   // --lifetime-years: years the hardware is written off over
  double api_price = cost::kNaN;        // --api-price: a cloud API's price per million output tokens
  double memory_gb = cost::kNaN;        // --memory-gb: the machine's memory for models, for price per GB
  std::string output = "md";            // -o: md | csv | json | jsonl
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_cost_command(CLI::App& app, CostOptions& opts);

// The price, tariff, wall-power, utilization and hardware flags, shared by `cost` and
// `bench` (which measures tps and watts itself).
void add_price_flags(CLI::App& cmd, CostOptions& opts);

// Checks the options and turns them into cost inputs (tariff parsed, years to seconds).
// `require_tps`: --tps must be given (the `cost` command). Errors: kUsage naming the flag and
// the bad value.
Result<cost::CostInputs> cost_inputs(const CostOptions& opts, bool require_tps = true);

// Validates, computes (cost::estimate_cost) and prints the report to stdout.
Status run_cost_command(const CostOptions& opts);

}  // namespace rigbench::cli
