// rigbench: printers of a comparison and its regressions (`rigbench compare -o ...`).
//   md     the table (one column per machine, model or build), then the regressions table
//   csv    one line per cell (long form, for spreadsheets and plotting); no regressions
//   json   {by, baseline, alpha, columns, rows[{..., cells[...]}], regressions[...]}
//   jsonl  one object per cell ("kind": "cell") and per regression ("kind": "regression")
// Numbers in csv/json are plain (shortest form that reads back); NaN is empty / null.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/comparison.h"
#include "report/regressions.h"

namespace rigbench::report {

enum class CompareFormat { kMarkdown, kCsv, kJson, kJsonl };

// "md", "csv", "json", "jsonl". Errors: kUsage naming -o and the value.
Result<CompareFormat> parse_compare_format(const std::string& name);

// A cell for people: "1234.56 ± 12.30" (t/s, ms), "0.005013" (J/token, cost: 4 significant
// digits), "1.13 MiB" (memory), "won't fit", "-".
std::string cell_text(Metric metric, const Cell& cell);

// A ratio for people: "×1.52"; "" for NaN.
std::string ratio_text(double ratio);

// Writes `cmp` and `regressions` (tested at `alpha`) to `out` in `format`.
void print_comparison(const Comparison& cmp, const std::vector<Regression>& regressions, double alpha,
                      CompareFormat format, std::ostream& out);

}  // namespace rigbench::report
