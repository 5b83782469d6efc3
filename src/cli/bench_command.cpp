#include "cli/bench_command.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "bench/job.h"
#include "bench/runner.h"
#include "cli/build_info.h"
#include "cli/interrupt.h"
#include "engine/llama_engine.h"
#include "hw/machine.h"
#include "model/gguf_inspect.h"
#include "report/printer.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

CLI::App* add_bench_command(CLI::App& app, BenchOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "bench", "Measure prompt processing (pp), generation (tg) and TTFT in-process through llama.cpp");
  add_bench_options(*cmd, opts);
  return cmd;
}

Status run_bench_command(BenchOptions& opts) {
  engine::init_llama();  // before any GGUF is read, so ggml's log is captured, not printed

  // 1. Options.
  if (Status s = validate(opts, hw::default_threads(), default_model_path()); !s) return s;
  const auto format = report::parse_output_format(opts.output);

  // 2. Every model is checked before anything runs, so bad input measures and stores nothing.
  std::map<std::string, ModelInfo> models;
  for (const auto& path : opts.plan.models) {
    if (models.count(path)) continue;
    auto info = model::inspect(path);
    if (!info) return std::unexpected(info.error());
    if (Status s = engine::check_loadable(path); !s) return s;
    models.emplace(path, std::move(*info));
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

  const std::atomic<bool>& cancel = install_interrupt_flag();
  auto engine = engine::make_llama_engine(&cancel);
  const bool show_progress = isatty(STDERR_FILENO) != 0;
  bench::Runner runner(*engine, cancel, [show_progress](const std::string& line) {
    if (show_progress) std::fprintf(stderr, "\rrigbench: %-40s", line.c_str());
  });

  auto printer = report::make_printer(*format, std::cout);
  printer->begin();
  Status status = bench::run_plan(bench::expand(opts.plan), models, context, runner,
                                  [&](const RunRecord& rec) -> Status {
                                    if (db) {
                                      if (Status s = db->save(rec); !s) return s;
                                    }
                                    printer->add(rec);
                                    return {};
                                  });
  if (show_progress) std::fprintf(stderr, "\r%-50s\r", "");
  printer->end();
  return status;
}

}  // namespace rigbench::cli
