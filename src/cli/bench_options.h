// rigbench: the options of `rigbench bench`, declared once (CLI11) so that parsing, --help
// and defaults cannot drift; validation is separate and names the flag.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "bench/plan.h"
#include "cli/cost_command.h"
#include "core/status.h"

namespace rigbench::cli {

struct BenchOptions {
  bench::PlanSpec plan;               // models and every list knob (see bench/plan.h)
  std::string output = "md";          // -o: md | csv | json | jsonl
  std::string db_path;                // --db: SQLite file; empty = the default path
  bool no_db = false;                 // --no-db: store nothing
  std::vector<std::string> tags;      // --tag: free text kept with every record
  bool force = false;                 // --force: run even when fit says it will not fit
  std::string energy = "auto";        // --energy auto|off: measure energy with the meters found
  double idle_s = 2;                  // --idle: seconds of idle baseline per run (model loaded)
  double watts = 0;                   // --watts: a constant power the user states (W), as a meter
  std::string power_log;              // --power-log: CSV timestamp,watts of a wall meter
  double estimate_tdp_w = 0;          // --estimate-power TDP: TDP x CPU utilization, asked for explicitly
  CostOptions cost;                   // --price/--tariff/--currency/... (see cost_command.h)
};

// Declares the flags of `bench` on `cmd`, bound to `opts`.
void add_bench_options(CLI::App& cmd, BenchOptions& opts);

// Checks and completes parsed options: -fa values normalized to auto|on|off; -lm values
// llama.cpp's load mode names (lower-cased); -ctk/-ctv known cache types; -o a known
// format; --db and --no-db not both; empty -t filled with `default_threads`. Models are
// left as given (empty = the caller's default).
// Errors: kUsage naming the flag and the bad value.
Status validate(BenchOptions& opts, int default_threads);

}  // namespace rigbench::cli
