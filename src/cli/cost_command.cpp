#include "cli/cost_command.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/args.h"
#include "core/strings.h"
#include "cost/model_costs.h"
#include "cost/run_figures.h"
#include "cost/tariff.h"
#include "report/cost_printer.h"
#include "report/model_cost_printer.h"
#include "store/record_sources.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

namespace {

using cost::given;

// A range check that names the flag: "--utilization 1.5: must be in (0, 1]".
Status check(const char* flag, double v, bool ok, const char* rule) {
  if (!given(v) || (std::isfinite(v) && ok)) return {};
  return fail(ErrorCode::kUsage, std::string(flag) + " " + report::figure_text(v, "%g") + ": must be " + rule);
}

}  // namespace

void add_price_flags(CLI::App& cmd, CostOptions& o) {
  auto* price = cmd.add_option("--price", o.price, "electricity price per kWh")->check(number());
  auto* tariff =
      cmd.add_option("--tariff", o.tariff, "time-of-use tariff, e.g. day=0.30@07-23,night=0.18 (hour-weighted mean)");
  price->excludes(tariff);
  cmd.add_option("--currency", o.currency, "currency of the prices")->capture_default_str();
  cmd.add_option("--psu-efficiency", o.psu_efficiency,
                 "power supply efficiency (0, 1]: wall = watts / efficiency + rest")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--rest-watts", o.rest_watts, "W no meter sees (fans, disks, board), added at the wall")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--utilization", o.utilization, "share of the time the machine generates, (0, 1]")->check(number());
  cmd.add_option("--hardware-price", o.hardware_price, "purchase price of the machine")->check(number());
  cmd.add_option("--residual-value", o.residual_value, "resale value at the end of its life")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--upkeep", o.upkeep, "repairs and other costs over its life (not electricity)")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--lifetime-years", o.lifetime_years, "years the hardware is written off over")->check(number());
  cmd.add_option("--api-price", o.api_price, "a cloud API's price per million output tokens (break-even)")
      ->check(number());
  cmd.add_option("--memory-gb", o.memory_gb, "memory of the machine for models, GB (hardware price per GB)")
      ->check(number());
}

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
  cmd->footer(
      "Exit codes: 0 success; 1 a runtime failure or a bad database; 2 a bad flag or value.\n"
      "Examples:\n"
      "  rigbench cost --tps 40 --watts 250 --idle-watts 30 --price 0.30 --utilization 0.25\n"
      "  rigbench cost --run latest --tariff day=0.30@07-23,night=0.18\n"
      "  rigbench cost --per-model --machine rtx3090 --price 0.30 --utilization 0.25\n");
  return cmd;
}

Result<cost::CostInputs> cost_inputs(const CostOptions& o, bool require_tps) {
  for (const Status& s :
       {check("--tps", o.tps, o.tps > 0, "> 0"), check("--watts", o.watts, o.watts >= 0, ">= 0"),
        check("--idle-watts", o.idle_watts, o.idle_watts >= 0, ">= 0"), check("--price", o.price, o.price >= 0, ">= 0"),
        check("--psu-efficiency", o.psu_efficiency, o.psu_efficiency > 0 && o.psu_efficiency <= 1, "in (0, 1]"),
        check("--rest-watts", o.rest_watts, o.rest_watts >= 0, ">= 0"),
        check("--utilization", o.utilization, o.utilization > 0 && o.utilization <= 1, "in (0, 1]"),
        check("--hardware-price", o.hardware_price, o.hardware_price >= 0, ">= 0"),
        check("--residual-value", o.residual_value, o.residual_value >= 0, ">= 0"),
        check("--upkeep", o.upkeep, o.upkeep >= 0, ">= 0"),
        check("--lifetime-years", o.lifetime_years, o.lifetime_years > 0, "> 0"),
        check("--api-price", o.api_price, o.api_price >= 0, ">= 0"),
        check("--memory-gb", o.memory_gb, o.memory_gb > 0, "> 0")}) {
    if (!s) return std::unexpected(s.error());
  }
  if (require_tps && !given(o.tps)) return fail(ErrorCode::kUsage, "cost: --tps is required");
  if (given(o.hardware_price) != given(o.lifetime_years)) {
    return fail(ErrorCode::kUsage, "cost: --hardware-price and --lifetime-years go together");
  }
  if (Status s = check_currency(o.currency); !s) return std::unexpected(s.error());
  cost::CostInputs in;
  in.tokens_per_s = o.tps;
  in.rate_source = o.rate_source;
  in.seconds_per_token = o.seconds_per_token;
  in.active_power_w = o.watts;
  in.idle_power_w = o.idle_watts;
  in.power_method = given(o.watts) || given(o.idle_watts) ? o.power_method : "none";  // never "stated" for no figure
  in.psu_efficiency = o.psu_efficiency;
  in.rest_w = o.rest_watts;
  in.currency = o.currency;
  in.utilization = o.utilization;
  in.api_price_per_mtok = o.api_price;
  in.memory_gb = o.memory_gb;
  if (given(o.price)) {
    in.price_per_kwh = o.price;
    in.price_source = "--price";
  } else if (!o.tariff.empty()) {
    auto tariff = cost::parse_tariff(o.tariff);
    if (!tariff) return fail(ErrorCode::kUsage, "--tariff: " + tariff.error().message);
    in.price_per_kwh = tariff->mean_price_per_kwh;
    in.price_source = "hour-weighted mean of tariff " + o.tariff;
  }
  if (given(o.hardware_price)) {
    in.has_hardware = true;
    in.hardware = {o.hardware_price, o.residual_value, o.upkeep, o.lifetime_years * cost::kSecondsPerYear};
  }
  return in;
}

namespace {

// Fills tps and watts the user did not give from a stored run's measurements.
Result<report::PricedRun> fill_from_run(CostOptions& o) {
  auto db = store::open_records_db(o.db_path);  // reading only: the file is not changed, nor made
  if (!db) return std::unexpected(db.error());
  const std::string path = (*db)->path();
  auto all = (*db)->load_all();
  if (!all) return std::unexpected(all.error());
  const RunRecord* found = nullptr;
  int matches = 0;
  for (const auto& r : *all) {
    // latest: the last stored run that generated (a pp test has no tg to price).
    if ((o.run == "latest" && r.results.tg) || (o.run != "latest" && r.record_id.rfind(o.run, 0) == 0)) {
      found = &r;
      ++matches;
    }
  }
  if (!found) return fail(ErrorCode::kNotFound, "--run '" + o.run + "': no such run in '" + path + "'");
  if (o.run != "latest" && matches > 1)
    return fail(ErrorCode::kUsage, "--run '" + o.run + "': matches " + std::to_string(matches) + " runs");
  if (!found->results.tg) return fail(ErrorCode::kInvalidInput, "--run '" + o.run + "': the run has no tg result");
  // The run's figures as bench priced them (cost/run_figures.h): r = the tg row's t/s, the
  // energy per token the run's E / N.
  const cost::RunFigures f = cost::run_figures(*found);
  const bool watts_given = given(o.watts);
  if (!given(o.tps)) {
    o.tps = f.tokens_per_s;
    o.rate_source = f.rate_source;
  }
  if (!given(o.watts) && given(f.active_power_w)) {
    o.watts = f.active_power_w;
    o.power_method = f.power_method;
    o.seconds_per_token = f.seconds_per_token;
  }
  if (!given(o.idle_watts) && given(f.idle_power_w)) {
    o.idle_watts = f.idle_power_w;
    if (!given(f.active_power_w)) o.power_method = f.power_method;  // the run's, never a default "stated"
  }
  report::PricedRun run;
  run.record_id = found->record_id;
  run.model = found->model.name + (found->model.file_type.empty() ? "" : " " + found->model.file_type) +
              (found->model.synthetic ? " (synthetic)" : "");
  const MachineInfo& m = found->machine;
  run.machine = !m.hostname.empty() ? m.hostname : m.cpu;
  run.test_time = found->test_time;
  run.energy_flags = found->energy.flags;
  run.energy_notes = found->energy.notes;
  // A power given (--watts) stands in for the meters the run lacked. A run whose energy was
  // unavailable carries only the meters' reasons (measure::unavailable_energy), which are then
  // beside the point: one line says so instead of a note per meter.
  if (watts_given && found->energy.method == "unavailable" && !run.energy_notes.empty())
    run.energy_notes = {"not measured (no meter could read it: `rigbench hw` says why); the figures use --watts"};
  return run;
}

}  // namespace

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
    auto priced = fill_from_run(opts);
    if (!priced) return std::unexpected(priced.error());
    run = std::move(*priced);
  }
  auto inputs = cost_inputs(opts);
  if (!inputs) return std::unexpected(inputs.error());
  const cost::CostReport report = cost::estimate_cost(*inputs);
  report::print_cost(report, *format, std::cout, run ? &*run : nullptr);
  return {};
}

}  // namespace rigbench::cli
