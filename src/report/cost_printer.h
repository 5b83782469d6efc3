// rigbench: the output of `rigbench cost` (cost::CostReport).
//   md     "inputs: R tokens/s (where R came from: --tps, or the stored run's test and rate,
//          "tg128 t/s as bench's row reports it: the mean of 5 per-repetition rates"); ..." (what was priced), a table of figures (J/token, <currency>/Mtok), the
//          break-even utilization and price per GB when asked, then the notes
//   csv    the table: figure, j_per_token, cost_per_mtok, currency
//   json   {"currency", "inputs": {tokens_per_s, rate_source, ...}, "wall_active_w", "wall_idle_w", "energy":
//          {gross_j_per_token, marginal_j_per_token, at_utilization_j_per_token}, "electricity":
//          {gross_per_mtok, marginal_per_mtok, at_utilization_per_mtok}, "hardware_per_mtok",
//          "total_per_mtok", "break_even_utilization" (null when never reached), "break_even_never"
//          (true when the utilization is infinite or above 1: the API is cheaper even at full use),
//          "price_per_memory_gb", "notes"}; money in `currency`, never in a key
//   jsonl  one object per figure (the table's rows)
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/record.h"
#include "cost/estimate.h"
#include "cost/hardware.h"
#include "report/table.h"

namespace rigbench::report {

// The stored run that `cost --run` priced: said first (md: "run ID: MODEL on MACHINE, tested
// T", its energy flags, and its energy notes after the table's; json: "run": {record_id,
// model, machine, test_time, energy_flags, energy_notes}).
struct PricedRun {
  std::string record_id, model, machine, test_time;
  std::vector<std::string> energy_flags;  // the run's energy.flags (doubts about its watts)
  std::vector<std::string> energy_notes;  // the run's energy.notes
  std::string passed_over;                // cost::StoredRun::passed_over: the later runs "latest" did not take, "" none
  std::string doubt;                      // cost::unpriceable_reason of this run ("9 of 16 requests failed"), "" none
};

// `run` as `cost --run` says it: its id, model (name, file type, "(synthetic)"), machine (its
// name, else its CPU), test time and energy flags and notes. `watts_given` (--watts stood in
// for the run's power): a run whose energy was unavailable has its meters' reasons replaced
// by one line saying the figures use --watts.
PricedRun priced_run(const RunRecord& run, bool watts_given);

// A cost figure as text: printf `format` (default "%.4g"), "-" when not given (NaN), "never"
// for infinity (a break-even never reached).
std::string figure_text(double v, const char* format = "%.4g");

// The figures: one row per energy and cost figure (J/token, CURRENCY/Mtok); a J/token with no
// --price or --tariff reads "needs --price" in the money column (csv empty, json null).
Table cost_table(const cost::CostReport& r);
// `run` (may be null): the stored run priced.
void print_cost(const cost::CostReport& r, OutputFormat format, std::ostream& out, const PricedRun* run = nullptr);

}  // namespace rigbench::report
