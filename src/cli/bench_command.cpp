#include "cli/bench_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>

#include "cli/build_info.h"
#include "cli/energy_flags.h"
#include "cli/interrupt.h"
#include "cli/progress_flags.h"
#include "cli/record_flags.h"
#include "core/knobs.h"
#include "core/test_name.h"
#include "engine/llama_engine.h"
#include "engine/llama_rpc.h"
#include "fit/targets.h"
#include "hw/bandwidth.h"
#include "hw/machine.h"
#include "measure/job.h"
#include "measure/progress.h"
#include "measure/prompt_suite.h"
#include "measure/runner.h"
#include "measure/warnings.h"
#include "power/meters.h"
#include "report/printer.h"
#include "store/sqlite_store.h"
#include "synth/synthesis.h"

namespace rigbench::cli {

namespace {

// The markdown table shows a knob's column when the run sets it off its default or varies it
// (as llama-bench does), and the file column when several models run.
report::PrinterOptions table_options(const BenchOptions& opts, bool energy_readable) {
  const measure::PlanSpec& p = opts.plan;
  report::PrinterOptions o;
  o.wide = opts.wide;
  if (energy_readable) {
    for (const char* k : {"energy_method", "idle_power_w", "tg_power_w", "tg_j_per_token"}) o.shown_knobs.insert(k);
    if (std::isfinite(opts.cost.price) || !opts.cost.tariff.empty()) {
      o.shown_knobs.insert("cost_gross_per_mtok");
      if (std::isfinite(opts.cost.utilization)) o.shown_knobs.insert("cost_total_per_mtok");
    }
  }
  for (const Knob& k : knobs()) {
    if (p.varies(k.key)) o.shown_knobs.insert(k.key);
  }
  if (p.models.size() > 1) o.shown_knobs.insert("model_file");
  // The longest test label of the plan, so that the rows after the first stay aligned.
  for (const std::string& d : p.values("n_depth")) {
    const int depth = std::atoi(d.c_str());
    for (int n : p.n_prompt) o.test_width = std::max(o.test_width, phase_test_name(true, n, false, depth).size());
    for (int n : p.n_gen) o.test_width = std::max(o.test_width, phase_test_name(false, n, false, depth).size());
    for (const auto& [pp, tg] : p.n_pg) {
      o.test_width = std::max({o.test_width, phase_test_name(true, pp, true, depth).size(),
                               phase_test_name(false, tg, true, depth).size()});
    }
  }
  return o;
}

// This machine's bandwidth for the tg bound: the cached figure, else a probe in a child process
// (`rigbench hw --bandwidth`, this same binary), so its arrays count neither in this process's
// peak RSS nor in its timing. 0 when the probe fails (no bound then).
double host_bandwidth(const MachineInfo& machine) {
  if (const double cached = hw::cached_bandwidth_gbps(machine); cached > 0) return cached;
  std::fprintf(stderr,
               "rigbench: probing memory bandwidth in a separate process, once per machine (about a second; "
               "`rigbench hw --bandwidth` measures it again)\n");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  char arg0[] = "rigbench", arg1[] = "hw", arg2[] = "--bandwidth", arg3[] = "-o", arg4[] = "json";
  char* argv[] = {arg0, arg1, arg2, arg3, arg4, nullptr};
  pid_t pid = 0;
  setenv("RIGBENCH_PROBE_FOR_BENCH", "1", 1);  // the child leaves out its own "probing" line
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, environ);
  unsetenv("RIGBENCH_PROBE_FOR_BENCH");
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return 0;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return hw::cached_bandwidth_gbps(machine);
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, BenchOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "bench", "Measure prompt processing (pp), generation (tg) and TTFT in-process through llama.cpp");
  add_bench_options(*cmd, opts);
  return cmd;
}

Status run_bench_command(BenchOptions& opts) {
  if (opts.verbose) setenv("RIGBENCH_LLAMA_LOG", "1", 1);
  engine::init_llama();  // before any GGUF is read, so ggml's log is captured, not printed

  // 1. Options; without a model, the embedded default (written to the cache on first use).
  if (Status s = validate(opts, hw::default_threads()); !s) return s;
  if (opts.plan.models.empty()) {
    // Ctrl-C during its first write leaves no partial file in the cache (exit 130).
    auto path = synth::default_bench_model(&install_interrupt_flag(), [](const std::string& line) {
      std::fprintf(stderr, "rigbench: %s\n", line.c_str());
    });
    if (!path) return std::unexpected(path.error());
    opts.plan.models = {*path};
  }
  const auto format = report::parse_output_format(opts.output, report::record_formats());
  // A prompt suite is read (and checked line by line) before any model is.
  std::optional<measure::PromptSuite> suite;
  if (opts.plan.suite) {
    auto read = measure::read_prompt_suite(opts.prompts);
    if (!read) return std::unexpected(read.error());
    suite = std::move(*read);
  }

  // 2. Every model, placement and rpc-server is checked before anything runs, so a bad file,
  // an encoder, a device this build lacks or a silent server measures and stores nothing.
  measure::Job job;
  auto rpc_servers = measure::prepare_job(opts.plan, job);
  if (!rpc_servers) return std::unexpected(rpc_servers.error());

  // 3. The database, opened before the first run so that a bad --db fails early.
  auto opened = store::open_results_db(opts.db_path, opts.no_db);
  if (!opened) return std::unexpected(opened.error());
  std::unique_ptr<store::SqliteStore> db = std::move(*opened);

  // 4. Adapters: this machine, the build, the meters.
  job.context.machine = machine_info();
  if (!opts.machine.empty()) job.context.machine.hostname = opts.machine;  // --machine names it
  job.context.build = build_info();
  job.context.tags = opts.tags;
  bool energy_readable = false;
  auto energy = energy_config({opts.energy, opts.idle_s, opts.watts, opts.power_log, opts.estimate_tdp_w, &opts.cost},
                              &energy_readable);
  if (!energy) return std::unexpected(energy.error());
  job.context.energy = std::move(*energy);

  // This machine as fit sees it, and each --rpc value's split as fit --rpc plans it.
  measure::set_job_target(job, fit::this_machine(job.context.machine, host_bandwidth(job.context.machine)),
                          *rpc_servers);
  job.force = opts.force;
  for (const auto& w :
       measure::plan_warnings(job.plan, job.models, job.context.machine, job.context.build.build_type)) {
    std::fprintf(stderr, "rigbench: warning: %s%s%s\n", w.cause.c_str(), w.remedy.empty() ? "" : "; ",
                 w.remedy.c_str());
  }
  if (const auto note = measure::offload_note(opts.plan, job.context.machine)) {
    std::fprintf(stderr, "rigbench: note: %s; %s\n", note->cause.c_str(), note->remedy.c_str());
  }

  // 5. The use case: every run becomes a record (ok, refused, failed, interrupted), stored and
  // printed as it comes; the exit code is set at the end.
  const std::atomic<bool>& cancel = install_interrupt_flag();
  // SIGPIPE as it was before any rpc-server was attached, on every return (declared before the
  // engine: the model on the servers is freed, over their sockets, before it is put back).
  struct EndRpcRun {
    ~EndRpcRun() { engine::end_rpc_run(); }
  } end_rpc_run;
  auto engine = engine::make_llama_engine(&cancel);
  // Progress: one line rewritten in place on a terminal (cleared before any table row and at
  // the end), plain lines with --progress elsewhere, none with --no-progress.
  const bool on_terminal = isatty(STDERR_FILENO) != 0;
  const bool show_progress = !opts.no_progress && (opts.progress || on_terminal);
  const bool rewrite_line = show_progress && on_terminal;
  measure::Runner runner(*engine, cancel, progress_printer(show_progress, rewrite_line));
  if (suite) {
    // Every prompt through each model's template and tokenizer before anything runs: a chat
    // prompt on a model without a template, or a prompt longer than -c, stops here (the model
    // stays loaded for its first run).
    const auto warn = [](const measure::Warning& w) {
      std::fprintf(stderr, "rigbench: warning: %s; %s\n", w.cause.c_str(), w.remedy.c_str());
    };
    if (Status s = measure::check_job_prompts(job, *engine, *suite, warn); !s) return s;
    runner.set_suite(&*suite, opts.ignore_eos);
  }

  auto printer = report::make_printer(*format, std::cout, table_options(opts, energy_readable));
  printer->begin();
  int stored = 0;
  // An rpc-server lost mid-run: ggml's client cannot return the error, so the run in progress
  // is stored here with its finished repetitions, the output closed, and the process ends
  // (exit 1) from ggml's thread while the run's thread waits on the lost server.
  // The handler runs on ggml's thread: it shares the output with the run's sink under one
  // lock, and is cleared before the printer and the database go (every return below).
  std::mutex output_mutex;
  struct ClearLostHandler {
    ~ClearLostHandler() { engine::on_rpc_server_lost({}); }
  } clear_lost_handler;
  engine::on_rpc_server_lost([&](const std::string& what) {
    std::lock_guard<std::mutex> lock(output_mutex);
    if (auto rec = measure::salvage_run_in_progress(what)) {
      if (db && db->save(*rec)) ++stored;
      if (rewrite_line) std::fprintf(stderr, "\r\033[K");
      printer->add(*rec);
    }
    printer->end();
    std::cout.flush();
    say_stored(db.get(), stored);
    std::fprintf(stderr, "rigbench: error: %s\n", what.c_str());
    std::fflush(stderr);
    std::_Exit(1);
  });
  const auto summary = measure::run_job(job, runner, [&](const RunRecord& rec) -> Status {
    std::lock_guard<std::mutex> lock(output_mutex);
    if (db) {
      if (Status s = db->save(rec); !s) return s;
      ++stored;
    }
    if (rewrite_line) std::fprintf(stderr, "\r\033[K"), std::fflush(stderr);
    printer->add(rec);
    return {};
  });
  engine::on_rpc_server_lost({});  // the run is over: a server lost from here on is ggml's abort
  if (rewrite_line) std::fprintf(stderr, "\r\033[K"), std::fflush(stderr);
  printer->end();
  say_stored(db.get(), stored);
  if (!summary) return std::unexpected(summary.error());
  const int kept = summary->ok;
  if (summary->interrupted) {
    return fail(ErrorCode::kInterrupted,
                "interrupted: " + std::to_string(kept) + " of " + std::to_string(summary->total) + " runs kept");
  }
  const int bad = summary->refused + summary->failed;
  if (bad > 0) {
    return fail(ErrorCode::kRuntime, std::to_string(bad) + " of " + std::to_string(summary->total) +
                                         " tests did not run (" + std::to_string(summary->refused) + " refused, " +
                                         std::to_string(summary->failed) +
                                         " failed; " + (db ? "stored" : "nothing stored: --no-db") +
                                         "): " + summary->first_problem);
  }
  return {};
}

}  // namespace rigbench::cli
