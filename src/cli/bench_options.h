// rigbench: the options of `rigbench bench`, declared once (CLI11) so that parsing, --help
// and defaults cannot drift; validation is separate and names the flag.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "bench/plan.h"
#include "core/status.h"

namespace rigbench::cli {

struct BenchOptions {
  bench::PlanSpec plan;               // models and every list knob (see bench/plan.h)
  std::string output = "md";          // -o: md | csv | json | jsonl
  std::string db_path;                // --db: SQLite file; empty = the default path
  bool no_db = false;                 // --no-db: store nothing
  std::vector<std::string> tags;      // --tag: free text kept with every record
  bool force = false;                 // --force: run even when fit says it will not fit
};

// Declares the flags of `bench` on `cmd`, bound to `opts`.
void add_bench_options(CLI::App& cmd, BenchOptions& opts);

// Checks and completes parsed options: -fa values normalized to auto|on|off; -ctk/-ctv
// known cache types; -o a known format; --db and --no-db not both; empty -t filled with
// `default_threads`. Models are left as given (empty = the caller's default).
// Errors: kUsage naming the flag and the bad value.
Status validate(BenchOptions& opts, int default_threads);

}  // namespace rigbench::cli
