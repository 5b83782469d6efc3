#include "cli/bench_command.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "bench/job.h"
#include "bench/runner.h"
#include "bench/preflight.h"
#include "bench/warnings.h"
#include "cli/targets.h"
#include "model/model_shape.h"
#include "power/meters.h"
#include "cli/build_info.h"
#include "cli/synthesis.h"
#include "cli/interrupt.h"
#include "engine/llama_engine.h"
#include "hw/machine.h"
#include "model/gguf_inspect.h"
#include "report/printer.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

namespace {

// The markdown table shows a knob's column when the run sets it off its default or varies it
// (as llama-bench does), and the file column when several models run.
report::PrinterOptions table_options(const BenchOptions& opts, bool energy_readable) {
  const bench::PlanSpec& p = opts.plan;
  const bench::PlanSpec d;
  report::PrinterOptions o;
  if (energy_readable) {
    for (const char* k : {"energy_method", "idle_power_w", "tg_power_w", "tg_j_per_token"}) o.shown_knobs.insert(k);
    if (std::isfinite(opts.cost.price) || !opts.cost.tariff.empty()) {
      o.shown_knobs.insert("cost_gross_per_mtok");
      if (std::isfinite(opts.cost.utilization)) o.shown_knobs.insert("cost_total_per_mtok");
    }
  }
  if (p.n_gpu_layers != d.n_gpu_layers) o.shown_knobs.insert("n_gpu_layers");
  if (p.load_mode != d.load_mode) o.shown_knobs.insert("load_mode");
  if (p.flash_attn != d.flash_attn) o.shown_knobs.insert("flash_attn");
  if (p.type_k != d.type_k) o.shown_knobs.insert("type_k");
  if (p.type_v != d.type_v) o.shown_knobs.insert("type_v");
  if (p.n_batch != d.n_batch) o.shown_knobs.insert("n_batch");
  if (p.n_ubatch != d.n_ubatch) o.shown_knobs.insert("n_ubatch");
  if (p.models.size() > 1) o.shown_knobs.insert("model_file");
  return o;
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, BenchOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "bench", "Measure prompt processing (pp), generation (tg) and TTFT in-process through llama.cpp");
  add_bench_options(*cmd, opts);
  return cmd;
}

Status run_bench_command(BenchOptions& opts) {
  engine::init_llama();  // before any GGUF is read, so ggml's log is captured, not printed

  // 1. Options; without a model, the embedded default (written to the cache on first use).
  if (Status s = validate(opts, hw::default_threads()); !s) return s;
  if (opts.plan.models.empty()) {
    auto path = default_bench_model();
    if (!path) return std::unexpected(path.error());
    opts.plan.models = {*path};
  }
  const auto format = report::parse_output_format(opts.output);

  // 2. Every model is checked before anything runs, so bad input measures and stores nothing.
  std::map<std::string, ModelInfo> models;
  std::map<std::string, model::ModelShape> shapes;
  for (const auto& path : opts.plan.models) {
    if (models.count(path)) continue;
    auto info = model::inspect(path);
    if (!info) return std::unexpected(info.error());
    if (Status s = engine::check_loadable(path); !s) return s;
    auto shape = model::read_shape(path);
    if (!shape) return std::unexpected(shape.error());
    models.emplace(path, std::move(*info));
    shapes.emplace(path, std::move(*shape));
  }

  // 3. The database, opened before the first run so that a bad --db fails early.
  std::unique_ptr<store::SqliteStore> db;
  if (!opts.no_db) {
    std::string path = opts.db_path;
    if (path.empty()) {
      auto p = store::default_db_path();
      if (!p) return std::unexpected(p.error());
      path = *p;
    }
    auto opened = store::SqliteStore::open(path);
    if (!opened) return std::unexpected(opened.error());
    db = std::move(*opened);
  }

  // 4. Adapters and the use case.
  bench::JobContext context;
  context.machine = hw::detect_machine();
  engine::describe_backends(context.machine);
  context.build = build_info();
  context.tags = opts.tags;
  bool energy_readable = false;
  if (opts.energy == "auto") {
    bench::EnergyConfig energy;
    energy.meters.watts = opts.watts;
    energy.meters.power_log = opts.power_log;
    energy.meters.estimate_tdp_w = opts.estimate_tdp_w;
    energy.idle_s = opts.idle_s;
    auto pricing = cost_inputs(opts.cost, /*require_tps=*/false);
    if (!pricing) return std::unexpected(pricing.error());
    if (std::isfinite(pricing->price_per_kwh)) energy.pricing = *pricing;
    // Say plainly, once, when nothing can be measured and why; speed is measured regardless.
    const auto status = power::list_meters(energy.meters);
    energy_readable = std::any_of(status.begin(), status.end(), [](const power::MeterStatus& m) { return m.available; });
    if (!energy_readable) {
      std::string why;
      for (const auto& m : status) {
        if (m.detail.empty()) continue;
        why += (why.empty() ? "" : "; ") + m.kind + ": " + m.detail + (m.fix.empty() ? "" : " (fix: " + m.fix + ")");
      }
      std::fprintf(stderr, "rigbench: energy: no meter available (%s); speed is still measured; --watts W states a figure\n",
                   why.c_str());
    }
    context.energy = std::move(energy);
  } else if (std::isfinite(opts.cost.price) || !opts.cost.tariff.empty()) {
    return fail(ErrorCode::kUsage, "--price/--tariff need --energy auto (cost comes from measured energy)");
  }

  const std::vector<bench::TestCase> plan = bench::expand(opts.plan);
  // fit's plan on this machine: refuse what will not fit; the tg bound for each run.
  const fit::Target target = this_machine(context.machine, host_bandwidth_gbps(context.machine));
  const bench::Preflight preflight = bench::preflight(plan, shapes, target, opts.force);
  if (preflight.any_refused()) {
    // Nothing runs; each refusal is stored (compare shows "won't fit") and the first is the error.
    std::string first;
    for (std::size_t i = 0; i < plan.size(); ++i) {
      if (preflight.refusals[i].empty()) continue;
      if (first.empty()) first = preflight.refusals[i];
      if (db) {
        const RunRecord rec = bench::refused_record(plan[i], models.at(plan[i].model_path), context, preflight.rooflines[i],
                                                    preflight.refusals[i]);
        if (Status s = db->save(rec); !s) return s;
      }
    }
    return fail(ErrorCode::kRuntime, first);
  }
  for (const auto& w : bench::plan_warnings(plan, models, context.machine, context.build.build_type)) {
    std::fprintf(stderr, "rigbench: warning: %s%s%s\n", w.cause.c_str(), w.remedy.empty() ? "" : "; ", w.remedy.c_str());
  }

  const std::atomic<bool>& cancel = install_interrupt_flag();
  auto engine = engine::make_llama_engine(&cancel);
  const bool show_progress = isatty(STDERR_FILENO) != 0;
  bench::Runner runner(*engine, cancel, [show_progress](const std::string& line) {
    if (show_progress) std::fprintf(stderr, "\rrigbench: %-40s", line.c_str());
  });

  auto printer = report::make_printer(*format, std::cout, table_options(opts, energy_readable));
  printer->begin();
  Status status = bench::run_plan(plan, models, context, runner,
                                  [&](const RunRecord& rec) -> Status {
                                    if (db) {
                                      if (Status s = db->save(rec); !s) return s;
                                    }
                                    printer->add(rec);
                                    return {};
                                  },
                                  preflight.rooflines);
  if (show_progress) std::fprintf(stderr, "\r%-50s\r", "");
  printer->end();
  return status;
}

}  // namespace rigbench::cli
