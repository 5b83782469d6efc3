#include "cli/cost_command.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/args.h"
#include "core/strings.h"
#include "cost/model_costs.h"
#include "cost/stored_run.h"
#include "report/cost_printer.h"
#include "report/model_cost_printer.h"
#include "store/record_sources.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

using cost::given;

CLI::App* add_cost_command(CLI::App& app, CostOptions& o) {
  CLI::App* cmd = app.add_subcommand("cost", "Energy per token and cost per million output tokens, from given figures");
  cmd->add_option("--run", o.run,
                  "a stored run: its record_id (or a unique prefix) or 'latest'; its tg row's t/s (the "
                  "mean of the repetitions' rates, as bench shows it) and measured energy are used unless "
                  "--tps/--watts/--idle-watts are given");
  cmd->add_flag("--per-model", o.per_model,
                "one table from stored runs: each model's cost per Mtok on one machine (its latest run with tg), "
                "sorted, cheapest first (at --utilization when given, idle included)");
  cmd->add_option("--db", o.db_path,
                  "the database holding --run or the --per-model runs (default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("--tps", o.tps, "output tokens per second while generating (tg); required without --run")
      ->check(number());
  cmd->add_option("--watts", o.watts, "average power while generating, W (components; see --psu-efficiency)")
      ->check(number());
  cmd->add_option("--idle-watts", o.idle_watts, "idle power with the model loaded, W")->check(number());
  add_price_flags(*cmd, o);
  cmd->add_option("-o,--output", o.output, "md, csv, json or jsonl (csv/jsonl: one row per figure, or per model)")
      ->capture_default_str();
  cmd->footer(R"(Exit codes: 0 success; 1 a runtime failure or a bad database; 2 a bad flag or value.
Examples:
  rigbench cost --tps 40 --watts 250 --idle-watts 30 --price 0.30 --utilization 0.25
  rigbench cost --run latest --tariff day=0.30@07-23,night=0.18
  rigbench cost --per-model --machine rtx3090 --price 0.30 --utilization 0.25
)");
  return cmd;
}

namespace {

// --per-model: every model's latest run on one machine, priced under the shared flags.
Status run_per_model(const CostOptions& o, report::OutputFormat format) {
  if (!o.run.empty()) return fail(ErrorCode::kUsage, "cost: --per-model prices every stored run; drop --run");
  if (given(o.tps) || given(o.watts)) {
    return fail(ErrorCode::kUsage, "cost --per-model: each run gives its own tokens/s and watts; drop --tps/--watts");
  }
  auto shared = cost_inputs(o, /*require_tps=*/false);
  if (!shared) return std::unexpected(shared.error());
  std::vector<std::string> dbs;
  if (!o.db_path.empty()) dbs.push_back(o.db_path);
  auto records = store::load_records(dbs, o.filter, store::RecordView::kCompare);
  if (!records) return std::unexpected(records.error());
  auto costs = cost::model_costs(*records, *shared);
  if (!costs) return std::unexpected(costs.error());
  report::print_model_costs(*costs, *shared, format, std::cout);
  return {};
}

}  // namespace

Status run_cost_command(const CostOptions& options) {
  auto format = report::parse_output_format(options.output);
  if (!format) return std::unexpected(format.error());
  if (options.per_model) return run_per_model(options, *format);
  if (!options.filter.empty())
    return fail(ErrorCode::kUsage, "cost: --model/--machine/--tag select runs for --per-model");
  CostOptions opts = options;
  std::optional<report::PricedRun> run;
  if (!opts.run.empty()) {
    // The figures not given come from the stored run (cost/stored_run.h).
    auto db = store::open_records_db(opts.db_path);  // reading only: the file is not changed, nor made
    if (!db) return std::unexpected(db.error());
    auto all = (*db)->load_all();
    if (!all) return std::unexpected(all.error());
    auto found = cost::find_stored_run(*all, opts.run, (*db)->path());
    if (!found) return std::unexpected(found.error());
    const bool watts_given = given(opts.watts);
    cost::fill_from_run(*found->run, opts);
    run = report::priced_run(*found->run, watts_given);
    run->passed_over = found->passed_over;
    run->doubt = found->doubt;
  }
  auto inputs = cost_inputs(opts);
  if (!inputs) return std::unexpected(inputs.error());
  const cost::CostReport report = cost::estimate_cost(*inputs);
  report::print_cost(report, *format, std::cout, run ? &*run : nullptr);
  return {};
}

}  // namespace rigbench::cli
