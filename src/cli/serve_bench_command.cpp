#include "cli/serve_bench_command.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <random>

#include "cli/build_info.h"
#include "cli/energy_flags.h"
#include "cli/interrupt.h"
#include "cli/record_flags.h"
#include "cli/serve_bench_embed.h"
#include "core/strings.h"
#include "measure/serve_job.h"
#include "measure/serve_load.h"
#include "measure/serve_trace.h"
#include "report/serve_table.h"
#include "report/table.h"
#include "store/sqlite_store.h"
#include "store/writable.h"

namespace rigbench::cli {

CLI::App* add_serve_bench_command(CLI::App& app, ServeBenchOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "serve-bench", "Benchmark a running server (llama-server, Ollama, vLLM, OpenAI-compatible) under load");
  add_serve_bench_options(*cmd, o);
  cmd->footer(R"(
Examples:
  rigbench serve-bench http://127.0.0.1:8080 --concurrency 1,2,4 -p 128 -n 128
  rigbench serve-bench http://127.0.0.1:11434 -m llama3 --rate 2 --duration-seconds 60
  rigbench serve-bench http://127.0.0.1:8080 --rate 4 --burstiness 0.5 --prefix-tokens 512 -p 64
  rigbench serve-bench http://127.0.0.1:8080 --slo ttft_ms=500,tpot_ms=50 -o json
  rigbench serve-bench http://127.0.0.1:8080 --trace chats.jsonl --trace-scale 2 --concurrency 8
  rigbench serve-bench http://127.0.0.1:8080 --capacity concurrency --slo ttft_p95_ms=2000,tpot_p95_ms=100
  rigbench serve-bench http://127.0.0.1:11434 -m llama3,qwen2.5,gemma2 --energy auto --price 0.30
  rigbench serve-bench http://127.0.0.1:8080 --embeddings -b 1,32 --concurrency 1,4

Exit status: 0 success (failed requests are counted, not fatal), 1 the server cannot be used
(unreachable, wrong API, unknown model, 401, no stream), every request failed, or the server was
lost mid-run (5 requests in a row refused: the run stops, stored marked failed), 2 bad flag,
130 interrupted (finished requests are kept and stored; none finished: nothing is).)");
  return cmd;
}

Status run_serve_bench_command(ServeBenchOptions& opts) {
  // 1. Flags, the prompt file and the energy flags, all before the server is asked anything.
  auto flags = check_serve_bench_options(opts);
  if (!flags) return std::unexpected(flags.error());
  measure::ServeJob job;
  job.url = flags->url;
  job.client = flags->client;
  if (!opts.prompts_file.empty()) {
    auto p = measure::read_prompt_file(opts.prompts_file, opts.n_gen);
    if (!p) return std::unexpected(p.error());
    job.file_prompts = std::move(*p);
  }
  if (!opts.trace.empty()) {
    auto trace = measure::read_trace(opts.trace);
    if (!trace) return std::unexpected(trace.error());
    job.trace = std::move(*trace);
    job.trace_file = opts.trace;
    job.trace_scale = opts.trace_scale;
  }
  // Energy and cost, as bench measures them: a bad --power-log is refused here.
  auto energy = energy_config({opts.energy, opts.idle_s, opts.watts, opts.power_log, opts.estimate_tdp_w, &opts.cost});
  if (!energy) return std::unexpected(energy.error());
  job.energy = std::move(*energy);

  // 2. The server: its API, version and models.
  net::HttpClient probe(job.url, job.client);
  auto target = measure::probe_serve_target(probe, job.url, flags->forced, opts.models, job.client.api_key);
  if (!target) return std::unexpected(target.error());
  job.target = std::move(*target);

  // 3. The database and the --save-responses file, checked before the first run so that a bad
  // path fails early.
  if (!opts.save_responses.empty()) {
    if (Status s = store::check_writable("--save-responses", opts.save_responses); !s) return s;
  }
  auto opened = store::open_results_db(opts.db_path, opts.no_db);
  if (!opened) return std::unexpected(opened.error());
  std::unique_ptr<store::SqliteStore> db = std::move(*opened);
  job.machine = machine_info();
  if (!trim(opts.machine).empty()) job.machine.hostname = trim(opts.machine);  // --machine, as bench
  job.build = build_info();
  job.tags = opts.tags;
  job.stop = &install_interrupt_flag();
  if (opts.embeddings) return run_serve_embeddings(opts, job, db.get(), flags->format, flags->show_progress);

  // 4. The runs, each stored (and with -o jsonl printed) as it ends.
  job.tokenizer = &probe;
  job.concurrency = opts.concurrency;
  job.rate = opts.rate;
  job.burstiness = opts.burstiness;
  job.prefix_tokens = opts.prefix_tokens;
  job.prefix_share = opts.prefix_share.value_or(1.0);
  job.turns = opts.turns;
  job.think_time_s = opts.think_time_s;
  job.num_requests = opts.num_requests;
  job.duration_s = opts.duration_s;
  job.warmup = opts.warmup;
  job.ignore_eos = !opts.no_ignore_eos;
  job.n_prompt = opts.n_prompt;
  job.n_gen = opts.n_gen;
  if (!job.trace.empty()) job.n_gen = measure::trace_mean_output_tokens(job.trace);  // the records' tg<n_gen>
  job.prompts_file = opts.prompts_file;
  job.slo = flags->slo;
  job.slo_text = opts.slo;
  job.capacity = flags->capacity;
  job.save_responses = !opts.save_responses.empty();
  // No --seed: a fresh one, said on this line so that the run can be repeated with the same prompts.
  job.seed = opts.seed ? *opts.seed : (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  std::fprintf(stderr, "rigbench: %s\n",
               measure::serve_job_intro(job, !opts.seed && opts.prompts_file.empty()).c_str());
  const report::OutputFormat format = flags->format;
  const bool several = job.target.models.size() > 1;
  report::ServeWorkload workload;
  workload.prompts_file = opts.prompts_file;
  workload.n_prompt = opts.n_prompt;
  workload.n_gen = opts.n_gen;
  workload.rate = opts.rate;
  workload.burstiness = opts.burstiness;
  workload.prefix_tokens = opts.prefix_tokens;
  workload.prefix_share = job.prefix_share;
  workload.trace = opts.trace;
  workload.trace_scale = opts.trace_scale;
  report::Table table = report::serve_job_table(job.url.redacted(), net::api_name(job.target.api), job.target.models,
                                                workload, job.slo.any());
  int stored = 0;
  const auto sink = [&](const RunRecord& rec) -> Status {
    if (db) {
      if (Status s = db->save(rec); !s) return s;
      ++stored;
    }
    table.add_row(report::serve_row(rec));
    report::add_serve_footers(table, rec, job.n_gen);
    if (format == report::OutputFormat::kJsonl) {
      report::Table one(report::serve_columns(job.slo.any(), several));
      one.add_row(report::serve_row(rec));
      report::render(one, format, std::cout);
    }
    return {};
  };
  const bool rewrite_line = isatty(STDERR_FILENO) != 0;
  measure::ServeJobHooks hooks;
  if (flags->show_progress) {
    hooks.progress = [rewrite_line](const std::string& line) {
      if (rewrite_line) std::fprintf(stderr, "\r\033[Krigbench: %s", line.c_str());
      else std::fprintf(stderr, "rigbench: %s\n", line.c_str());
    };
  }
  hooks.load_ended = [rewrite_line] {
    if (rewrite_line) std::fprintf(stderr, "\r\033[K");
  };
  const measure::ServeJobResult done = measure::run_serve_job(job, sink, hooks);

  // 5. The output: nothing when nothing was measured; --save-responses holds every finished
  // request, also when a later run failed or Ctrl-C stopped the job (nothing is written when no
  // run finished before an error).
  if (done.interrupted && done.runs.empty()) return measure::serve_job_status(job, done, stored);
  if (job.save_responses && (done.error || !done.runs.empty())) {
    if (Status s = store::write_whole("--save-responses", opts.save_responses, done.responses); !s) return s;
  }
  if (!done.error && done.runs.empty()) return done.error;
  report::print_serve_job(table, done.model_costs, job.energy && job.energy->pricing ? &*job.energy->pricing : nullptr,
                          format, opts.wide, std::cout);
  std::cout << std::flush;
  say_stored(db.get(), stored);
  return measure::serve_job_status(job, done, stored);
}

}  // namespace rigbench::cli
