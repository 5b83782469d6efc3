// rigbench: cost per million output tokens of every model one machine ran, in one table
// (`rigbench cost --per-model`): the third study's question, "which model is cheapest to run
// here?", answered from stored runs. Each model's figures come from its latest stored run
// with a tg result, through the one definition of a run's figures (cost/run_figures.h: r =
// the tg row's t/s, P = E / T, energy per token E / N) and the one estimate (cost/estimate.h), under one price
// and, when given, one utilization (the idle hours charged to the tokens of the busy ones).
// Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "cost/estimate.h"
#include "cost/run_figures.h"

namespace rigbench::cost {

struct ModelCost {
  std::string model;        // "name file_type" [" (synthetic)"]
  uint64_t n_params = 0;    // the model's parameter count (0 when the record does not say)
  uint64_t size_bytes = 0;  // its file size
  std::string record_id;    // the run priced: the model's latest with a tg result
  std::string test_time;
  int n_runs = 0;      // stored runs of the model with a tg result on this machine, a pooled record
                       // counting as the runs it stands for (RunRecord::runs); the latest is priced
  RunFigures figures;  // that run's r, P_active, P_idle
  CostReport report;   // estimate_cost of the shared inputs with the run's r and powers
  // The figure the table is sorted by: electricity at the utilization when one was given,
  // else gross; NaN when the run gives no power or no price was given.
  double sort_per_mtok = kNaN;
};

struct ModelCosts {
  std::string machine;            // hostname, else CPU
  std::vector<ModelCost> models;  // cheapest first; models without a figure last, by name
  bool at_utilization = false;    // sorted by electricity at the utilization (else gross)
  // "the cheapest is not the smallest: ..." when the cheapest model is not the smallest one priced
  // (fewest parameters; of one count, the smallest file); "the cheapest is the smallest: ..." otherwise; "" with fewer
  // than two models priced.
  std::string sentence;
  bool cheapest_is_smallest = false;
};

// What gives a model's power in the table (CostInputs::power_input): a run of it measured
// with energy, the latest being priced. The notes say "energy per token: give " this.
inline constexpr const char* kPerModelPowerInput =
    "runs measured with energy (bench --energy auto where a meter reads, or bench --power-log FILE or --watts W; "
    "the latest run of each model is priced)";

// The machine a run is priced on: its hostname, else its CPU (model_costs groups by it).
std::string cost_machine(const RunRecord& r);

// The price the runs were stored with (`bench --price/--tariff`, RunRecord::cost): the latest
// priced run's price per kWh, currency and utilization, with price_source "stored with the run
// of <test_time>"; nullopt when no run of `records` holds a price.
std::optional<CostInputs> stored_price(std::span<const RunRecord> records);

// The table of `records` (one machine's) under `shared` (price, utilization, wall-power
// corrections, currency; its tokens_per_s and powers are ignored: each run gives its own;
// `idle_power_w` given overrides every run's idle figure). Errors: kInvalidInput when
// `records` span several machines (naming them; choose one with --machine) or hold no run
// with a tg result.
Result<ModelCosts> model_costs(std::span<const RunRecord> records, const CostInputs& shared);

}  // namespace rigbench::cost
