// rigbench: `rigbench cost`, cost per million output tokens from figures given on the
// command line (a machine rigbench cannot run on, or figures measured elsewhere), from a
// stored run (`--run ID`: cost/stored_run.h fills the figures not given), or per model from
// the stored runs of one machine (`--per-model`: cost/model_costs.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/cost_flags.h"
#include "core/status.h"
#include "store/record_sources.h"

namespace rigbench::cli {

// The cost flags (cli/cost_flags.h) and what only `cost` takes.
struct CostOptions : CostFlags {
  std::string run;             // --run ID: a stored run (record_id or a unique prefix; "latest")
  bool per_model = false;      // --per-model: one row per model of the stored runs on one machine
  store::RecordFilter filter;  // --model, --machine, --tag: which stored runs --per-model prices
  std::string db_path;         // --db: the database holding --run (default path)
  std::string output = "md";   // -o: md | csv | json | jsonl
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_cost_command(CLI::App& app, CostOptions& opts);

// Validates, computes (cost::estimate_cost, or cost::model_costs with --per-model) and prints
// the report to stdout. Errors: kUsage for flags (cost_inputs's, --per-model with --run,
// --tps or --watts); --run's (kNotFound, kUsage for an ambiguous prefix, kInvalidInput for a
// run without tg); the database's.
Status run_cost_command(const CostOptions& opts);

}  // namespace rigbench::cli
