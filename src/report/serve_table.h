// rigbench: the table of `serve-bench` runs (md, csv, json, jsonl): one row per run (model,
// server, API, concurrency), throughput, the mean and percentiles of TTFT, TPOT, ITL and E2E,
// errors by kind, the server's own timings beside the client's, and energy and cost where
// measured. md shows the headline columns within 120 columns; --wide and the data formats all.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/record.h"
#include "cost/estimate.h"
#include "cost/model_costs.h"
#include "report/table.h"

namespace rigbench::report {

// The columns; `slo`: goodput is shown in md (else --wide only); `models`: the model column
// is shown in md (several models in one run), else only in the data formats.
std::vector<TableColumn> serve_columns(bool slo, bool models = false);

// The row of one serve-bench record (rec.server set), in serve_columns' order.
std::vector<TableCell> serve_row(const RunRecord& rec);

// Footer lines of one run: errors by kind, the server's timings beside the client's, energy
// and cost, and a note when the server did not honour the output length `n_gen`.
void add_serve_footers(Table& table, const RunRecord& rec, int n_gen);

// A serve-bench job's load as its table's first line says it (the flags as given).
struct ServeWorkload {
  std::string prompts_file;  // --prompts; "" random prompts
  std::string trace;         // --trace; "" none
  double trace_scale = 1;    // --trace-scale
  int n_prompt = 128, n_gen = 128;
  double rate = 0;           // requests/s; 0 closed loop; infinity every request at once
  double burstiness = 1;
  int prefix_tokens = 0;
  double prefix_share = 1;   // 0..1
};

// The table of one serve-bench job, before its runs are added: serve_columns(slo, several
// models) under the job's line "serve-bench URL (API), model(s) M1, M2, P prompt + N output
// tokens" (", prompts from FILE" with a prompts file; ", the trace FILE at its times" with a
// trace, " x S" when scaled; " after a shared K-token prefix" with a prefix, " on P% of the
// requests" when its share is below 1), then ", R req/s Poisson" with a rate (", R req/s gamma
// (burstiness B)" when the burstiness is not 1; infinity: ", every request at once (rate inf)").
// `url` is as shown (redacted), `api` the API's name.
Table serve_job_table(const std::string& url, const std::string& api, const std::vector<std::string>& models,
                      const ServeWorkload& load, bool slo);

// Prints a serve-bench job's output once its runs are in `table`: md and csv the table (`wide`:
// every column in md), then, with `costs` (several models priced under `pricing`, which is
// then set), one blank line and the per-model cost table (report/model_cost_printer.h, its own
// header); json one object {"runs": [the runs' rows], "model_costs": {that table's object, or
// null}} so that its readers see one shape; jsonl only one line per model {"model_cost": {its
// row}} (the runs' lines are printed as each run ends).
void print_serve_job(const Table& table, const std::optional<cost::ModelCosts>& costs,
                     const cost::CostInputs* pricing, OutputFormat format, bool wide, std::ostream& out);

}  // namespace rigbench::report
