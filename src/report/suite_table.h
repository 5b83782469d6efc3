// rigbench: the table of a prompt suite run (`bench --prompts`): a row per prompt (median and
// p95 over the suite's runs), a row per category and one for the whole suite (median and p95
// of the prompts' medians, core/suite_stats.h).
#pragma once

#include "core/record.h"
#include "report/table.h"

namespace rigbench::report {

// The suite table of `rec` (which must hold results.suite), with a preamble naming the model,
// the suite and its runs, and notes saying what each row's statistics are over.
Table suite_table(const RunRecord& rec);

}  // namespace rigbench::report
