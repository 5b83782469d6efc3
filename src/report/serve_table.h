// rigbench: the table of `serve-bench` runs (md, csv, json, jsonl): one row per run (model,
// server, API, concurrency), throughput, the mean and percentiles of TTFT, TPOT, ITL and E2E,
// errors by kind, the server's own timings beside the client's, and energy and cost where
// measured. md shows the headline columns within 120 columns; --wide and the data formats all.
#pragma once

#include <vector>

#include "core/record.h"
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

}  // namespace rigbench::report
