// rigbench: `rigbench compare`, stored results side by side (report/comparison.h) with the
// regressions between builds (report/regressions.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/significance.h"
#include "core/status.h"
#include "store/record_sources.h"

namespace rigbench::cli {

struct CompareOptions {
  std::string by = "machine";         // --by: the columns: machine | model | build
  std::string baseline;               // --baseline: the column ratios are against ("" = the first with results)
  bool across_sizes = false;          // --across-sizes: by model, rank models of different parameter counts
  std::vector<std::string> db_paths;  // --db (repeatable): databases read ("" = the default database)
  store::RecordFilter filter;         // --model, --machine, --tag: which records (store::select_records)
  double alpha = kDefaultAlpha;       // --alpha: significance level of Welch's t-test: winners, answers, regressions; (0, 0.5]
  std::string output = "md";          // -o: md | csv | json | jsonl
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_compare_command(CLI::App& app, CompareOptions& opts);

// Loads the records, compares them, finds regressions and prints both to stdout.
// Errors: kUsage for --by, --baseline or -o; store::load_records's; kInvalidInput when
// there is nothing to compare.
Status run_compare_command(const CompareOptions& opts);

}  // namespace rigbench::cli
