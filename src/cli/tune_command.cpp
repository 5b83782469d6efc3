#include "cli/tune_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cli/interrupt.h"
#include "cli/knob_flags.h"
#include "cli/progress_flags.h"
#include "cli/record_flags.h"
#include "engine/llama_engine.h"
#include "fit/targets.h"
#include "hw/bandwidth.h"
#include "hw/describe.h"
#include "measure/llama_server.h"
#include "measure/tune.h"
#include "report/tune_printer.h"
#include "store/sqlite_store.h"
#include "synth/synthesis.h"

namespace rigbench::cli {

CLI::App* add_tune_command(CLI::App& app, TuneOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "tune", "Which flags run a model fastest here: candidates planned by fit, raced until one is known to lead");
  cmd->add_option("model", o.models, "GGUF model file (default: bench's synthetic Llama-3.2-1B Q4_K_M)")
      ->expected(0, 1);
  cmd->add_option("-m,--model", o.model_flags, "the model, as llama-bench takes it");
  cmd->add_option("-c,--ctx-size", o.n_ctx,
                  "the context you will run at, tokens: every candidate is planned by fit "
                  "and created at it (default: 4096, or the model's n_ctx_train where "
                  "smaller)")
      ->check(int_range(1, 1 << 24))
      ->take_last();
  cmd->add_option("--parallel", o.n_parallel,
                  "llama-server's slots (-np): fit plans every candidate's KV cache for this many sequences; the "
                  "printed commands and serve's servers use it")
      ->check(int_range(1, 256))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("-d,--n-depth", o.n_depth, "tokens in the KV cache before each timed test")
      ->check(int_range(0, 1 << 24))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("-p,--n-prompt", o.n_prompt, "the pp test's prompt tokens (objectives pp, ttft, balanced)")
      ->check(int_range(1, 1 << 24))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("-n,--n-gen", o.n_gen, "the tg test's generated tokens (objectives tg, balanced)")
      ->check(int_range(1, 1 << 24))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("--objective", o.objective,
                  "what to make fastest: tg (generation t/s), pp (prompt t/s), ttft (time to first token, ms) or "
                  "balanced (one request of -p then -n tokens, t/s), or serve (serve-bench's load against a "
                  "llama-server started for each candidate: goodput with --slo, else output t/s)")
      ->capture_default_str()
      ->take_last();
  cmd->add_option("--concurrency", o.concurrency, "serve: requests in flight in each load run (default: -np)")
      ->check(int_range(1, 4096))
      ->take_last();
  cmd->add_option("--num-requests", o.num_requests,
                  "serve: requests counted per load run, one sample (default: 4 per request in flight, at least 8)")
      ->check(int_range(1, 100000))
      ->take_last();
  cmd->add_option("--slo", o.slo, "serve: goodput's objectives per request, as serve-bench's (ttft_ms=500,tpot_ms=50)")
      ->take_last();
  cmd->add_option("--server-bin", o.server_bin,
                  "serve: the llama-server to start (default: the one beside rigbench, built from the same sources)")
      ->take_last();
  cmd->add_option("--max-time", o.max_time_s, "seconds of trials in all; the race ends before it would overrun")
      ->check(range(1.0, 86400.0))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("--alpha", o.alpha, "Welch's test level for 'slower than the leader'")
      ->check(range(1e-6, 0.5))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("--tie", o.tie_pct, "% within which the leaders are a tie (95 % interval of their difference)")
      ->check(range(0.0, 50.0))
      ->capture_default_str()
      ->take_last();
  cmd->add_option("--warmup", o.warmup, "warmup passes per trial")
      ->check(int_range(0, 100))
      ->capture_default_str()
      ->take_last();
  add_knob_list_flags(*cmd, o.knobs, {"n_ctx", "n_depth"});
  cmd->add_option("-o,--output", o.output, "output format: md, csv, json or jsonl")->capture_default_str()->take_last();
  add_record_flags(*cmd, o.db_path, o.no_db, o.tags, o.machine, "trials");
  add_progress_flags(*cmd, o.progress, o.no_progress);
  cmd->add_flag("-v,--verbose", o.verbose, "show llama.cpp's own log on stderr");
  for (CLI::Option* opt : cmd->get_options()) {
    if (!opt->get_positional()) opt->allow_extra_args(false);
  }
  cmd->footer(R"(Candidates: the product of the knob lists; a knob you list (-t 2,4 -fa on,off -ub 256,512 -ngl 0,99
-ncmoe 0,8 ...) replaces tune's own list for it (threads around the physical cores, -fa on/off, KV cache
f16/q8_0, --poll 0/50, -ub for prompt objectives; -ngl and -ncmoe with a GPU). Each is planned by fit at -c
first: what does not fit is dropped, with fit's numbers. Then a race: with more than 5 candidates a screen
(2 repetitions each, tg at a quarter of the tokens) keeps the best third; rounds of 3, 6, 12, 24 repetitions
follow, a candidate leaving once Welch's test says it is slower than the leader (p < --alpha) or in the
slower half; the race ends when one is left, the leaders tie (--tie), or --max-time would be overrun.
--objective serve: each candidate's flags start a llama-server (127.0.0.1, a free port, -c and -np as
given); each repetition is one serve-bench load run at --concurrency, ranked by goodput with --slo.
Every trial is stored as a record tagged tune:<id> (compare --tag tune:<id> shows the search).
Exit codes: 0 answered; 1 no configuration fits or a bad model file; 2 a bad flag; 130 interrupted (the
trials so far are stored and the best so far is printed).
Examples:
  rigbench tune model.gguf -c 8192
  rigbench tune model.gguf --objective ttft -p 2048 -ub 256,512,1024
  rigbench tune model.gguf -t 2,4 -fa on,off -ctk f16,q8_0 -ctv f16,q8_0 -o json
  rigbench tune model.gguf --objective serve -np 4 -c 8192 -p 256 -n 128 --slo ttft_ms=1000,tpot_ms=100)");
  return cmd;
}

namespace {

Status validate(TuneOptions& o, measure::TuneSpec& spec) {
  o.models.insert(o.models.end(), o.model_flags.begin(), o.model_flags.end());
  if (o.models.size() > 1) return fail(ErrorCode::kUsage, "tune takes one model; run it once per model");
  auto objective = measure::parse_tune_objective(o.objective);
  if (!objective) return std::unexpected(objective.error());
  if (auto f = report::parse_output_format(o.output); !f) return std::unexpected(f.error());
  if (o.no_db && !o.db_path.empty()) return fail(ErrorCode::kUsage, "--db and --no-db: give one, not both");
  if (auto shown = show_progress(o.progress, o.no_progress, false); !shown) return std::unexpected(shown.error());
  if (Status s = normalize_knob_lists(o.knobs); !s) return s;
  spec.n_ctx = o.n_ctx > 0 ? o.n_ctx : measure::kTuneDefaultCtx;  // o.n_ctx 0: lowered to n_ctx_train later
  spec.n_parallel = o.n_parallel;
  spec.n_depth = o.n_depth;
  spec.n_prompt = o.n_prompt;
  spec.n_gen = o.n_gen;
  spec.objective = *objective;
  spec.knobs = o.knobs;
  spec.race.budget_s = o.max_time_s;
  spec.race.alpha = o.alpha;
  spec.race.tie_pct = o.tie_pct;
  spec.warmup = o.warmup;
  spec.tags = o.tags;
  const bool serve = *objective == measure::TuneObjective::kServe;
  if (!serve) {
    const std::vector<std::pair<const char*, bool>> serve_flags = {{"--concurrency", o.concurrency > 0},
                                                                   {"--num-requests", o.num_requests > 0},
                                                                   {"--slo", !o.slo.empty()},
                                                                   {"--server-bin", !o.server_bin.empty()}};
    for (const auto& [flag, given] : serve_flags) {
      if (given) return fail(ErrorCode::kUsage, std::string(flag) + " is for --objective serve");
    }
  } else {
    if (o.n_depth > 0) return fail(ErrorCode::kUsage, "-d with --objective serve: each request's prompt is -p tokens");
    if (!o.slo.empty()) {
      auto slo = measure::parse_slo(o.slo);
      if (!slo) return std::unexpected(slo.error());
      spec.serve.slo = *slo;
      spec.serve.slo_text = o.slo;
    }
    spec.serve.concurrency = o.concurrency > 0 ? o.concurrency : o.n_parallel;
    spec.serve.num_requests = o.num_requests;
    if (spec.n_ctx / o.n_parallel < o.n_prompt + o.n_gen) {
      return fail(ErrorCode::kUsage, "-c " + std::to_string(spec.n_ctx) + " over -np " + std::to_string(o.n_parallel) +
                                         " slots leaves " + std::to_string(spec.n_ctx / o.n_parallel) +
                                         " tokens a request, fewer than -p + -n (" +
                                         std::to_string(o.n_prompt + o.n_gen) + ")");
    }
  }
  const int needed = measure::tune_tokens_needed(spec);
  if (spec.n_ctx < needed) {
    return fail(ErrorCode::kUsage, "-c " + std::to_string(spec.n_ctx) + " is smaller than the test needs (" +
                                       std::to_string(needed) + " tokens: -d + the objective's -p and -n)");
  }
  return {};
}

}  // namespace

Status run_tune_command(TuneOptions& o) {
  if (o.verbose) setenv("RIGBENCH_LLAMA_LOG", "1", 1);
  engine::init_llama();
  measure::TuneSpec spec;
  if (Status s = validate(o, spec); !s) return s;
  if (o.models.empty()) {
    auto path = synth::default_bench_model(&install_interrupt_flag(), [](const std::string& line) {
      std::fprintf(stderr, "rigbench: %s\n", line.c_str());
    });
    if (!path) return std::unexpected(path.error());
    o.models = {*path};
  }
  spec.model_path = o.models.front();
  if (spec.objective == measure::TuneObjective::kServe) {
    auto binary = measure::find_llama_server(o.server_bin, "--server-bin");
    if (!binary) return std::unexpected(binary.error());
    spec.serve.server_binary = *binary;
    spec.serve.stop = &install_interrupt_flag();
  }

  // The model inspected and the user's placements checked (as bench checks them) before
  // anything opens or runs.
  measure::PlanSpec plan;
  plan.models = {spec.model_path};
  plan.knobs = spec.knobs;
  measure::Job job;
  auto rpc_servers = measure::prepare_job(plan, job);
  if (!rpc_servers) return std::unexpected(rpc_servers.error());
  const std::string lowered =
      o.n_ctx > 0 ? "" : measure::lower_default_ctx(spec, job.shapes.at(spec.model_path).n_ctx_train);
  if (!lowered.empty()) std::fprintf(stderr, "rigbench: tune: %s\n", lowered.c_str());
  auto opened = store::open_results_db(o.db_path, o.no_db);
  if (!opened) return std::unexpected(opened.error());
  std::unique_ptr<store::SqliteStore> db = std::move(*opened);

  job.context.machine = machine_info();
  if (!o.machine.empty()) job.context.machine.hostname = o.machine;
  job.context.build = build_info();
  job.context.tags = o.tags;
  measure::set_job_target(job, fit::this_machine(job.context.machine, hw::cached_bandwidth_gbps(job.context.machine)),
                          *rpc_servers);

  const std::atomic<bool>& cancel = install_interrupt_flag();
  auto engine = engine::make_llama_engine(&cancel);
  const bool on_terminal = isatty(STDERR_FILENO) != 0;
  const bool show = !o.no_progress && (o.progress || on_terminal);
  measure::Runner runner(*engine, cancel, progress_printer(show, show && on_terminal));
  int stored = 0;
  auto result = measure::run_tune(spec, job, runner, [&](const RunRecord& rec) -> Status {
    if (!db) return {};
    if (Status s = db->save(rec); !s) return s;
    ++stored;
    return {};
  });
  if (show && on_terminal) std::fprintf(stderr, "\r\033[K");
  say_stored(db.get(), stored, "trial record");
  if (!result) return std::unexpected(result.error());
  const auto& gpus = job.context.machine.gpus;
  report::TuneReport rep{&spec, &*result, job.models.at(spec.model_path).name, spec.model_path,
                         std::any_of(gpus.begin(), gpus.end(), hw::offloadable)};
  report::print_tune(rep, *report::parse_output_format(o.output), std::cout);
  if (result->race.end == measure::RaceEnd::kInterrupted) {
    return fail(ErrorCode::kInterrupted, "interrupted: the best so far is printed above; " +
                                             std::to_string(result->trials) + " trials " +
                                             (db ? "stored" : "made (--no-db: not stored)"));
  }
  if (result->race.winner < 0) return fail(ErrorCode::kRuntime, "no candidate finished a trial");
  return {};
}

}  // namespace rigbench::cli
