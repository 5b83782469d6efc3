#include "cli/serve_bench_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cli/energy_flags.h"
#include "cli/interrupt.h"
#include "cli/progress_flags.h"
#include "cli/serve_bench_embed.h"
#include "core/short_commit.h"
#include "core/model_name.h"
#include "core/strings.h"
#include "cost/model_costs.h"
#include "measure/energy.h"
#include "measure/serve_energy.h"
#include "measure/job.h"
#include "measure/serve_load.h"
#include "measure/serve_metrics.h"
#include "net/protocol.h"
#include "net/url.h"
#include "power/meters.h"
#include "report/model_cost_printer.h"
#include "report/serve_table.h"
#include "report/table.h"
#include "store/sqlite_store.h"
#include "store/writable.h"

namespace rigbench::cli {

namespace {

constexpr int kDefaultRequestsPerWorker = 8;  // --num-requests default: 8 per concurrent request, at least 16
constexpr long kMaxConcurrency = 100000;      // --concurrency: requests in flight
constexpr long kMaxTokens = 1L << 24;         // -p, -n: as bench's
// A lost server: this many counted requests in a row refused (nothing listens any more) end
// the run and the job (the record is stored, marked failed, with its counts; exit 1).
constexpr int kLostAfterRefused = 5;

// A list flag's values (each checked by its int_range when parsed): at least one.
Result<std::vector<int>> non_empty_list(const std::vector<int>& values, const char* flag) {
  if (values.empty()) return fail(ErrorCode::kUsage, std::string(flag) + ": give at least one value");
  return values;
}

// A lost server's run, for its record and the error line: what ended before it stopped.
std::string lost_counts(const measure::ServeRunMetrics& m) {
  return std::to_string(kLostAfterRefused) + " requests in a row refused; " + std::to_string(m.completed) + " of " +
         std::to_string(m.requests) + " requests completed, " + std::to_string(m.failed) +
         " failed, the run stopped there";
}

// The record of one run at one concurrency.
RunRecord make_record(const ServeBenchOptions& opts, const net::Url& url, const net::ServerInfo& server, net::Api api,
                      const std::string& model, int concurrency, const measure::LoadResult& load,
                      const measure::ServeRunMetrics& m) {
  RunRecord rec;
  rec.record_id = measure::new_record_id();
  rec.test_time = measure::utc_now_iso8601();
  rec.machine = machine_info();
  if (!trim(opts.machine).empty()) rec.machine.hostname = trim(opts.machine);  // --machine, as bench
  rec.build = build_info();
  rec.model.name = served_model_name(model);  // as bench names the file (llama-server's id is its path)
  rec.model.path = "";
  rec.params.n_prompt = opts.prompts_file.empty() ? opts.n_prompt : 0;
  rec.params.n_gen = opts.n_gen;
  rec.params.repetitions = m.requests;
  rec.params.warmup = opts.warmup;
  rec.params.n_threads = 0;
  rec.tags = opts.tags;
  rec.interrupted = load.interrupted;
  ServerRun s;
  s.url = url.redacted();
  s.software = server.software;
  s.version = server.version;
  s.api = net::api_name(api);
  s.model_id = model;
  s.concurrency = concurrency;
  s.rate_rps = opts.rate;
  s.requests = m.requests;
  s.completed = m.completed;
  s.failed = m.failed;
  for (const auto& [kind, n] : m.errors) s.errors.emplace_back(kind, n);
  s.first_error = m.first_error;  // the load took any API key out
  s.duration_s = m.duration_s;
  s.ttft_ms = m.ttft_ms;
  s.tpot_ms = m.tpot_ms;
  s.itl_ms = m.itl_ms;
  s.e2e_ms = m.e2e_ms;
  s.input_tokens_mean = m.input_tokens.mean;
  s.output_tokens_mean = m.output_tokens.mean;
  s.request_throughput_rps = m.request_rate;
  s.output_tps = m.output_tps;
  s.total_tps = m.total_tps;
  s.slo = opts.slo;
  s.goodput_rps = m.goodput;
  s.output_short = m.output_short;
  s.server_tg_tps = m.server_tg_tps;  // NaN where the server gave no timings
  s.client_tg_tps = m.client_tg_tps;
  if (m.server_prompt_ms.n > 0) s.server_prompt_p50_ms = m.server_prompt_ms.median;
  s.client_cpu_pct = load.client_cpu_pct;
  rec.server = s;
  // The samples compare and report read: TTFT per request, and the run's one tg figure, its
  // output t/s (measure::served_tg: the table's "out t/s", cost's rate, a ratio of sums).
  LatencyResult ttft;
  for (const auto& t : load.requests) {
    if (t.error != net::ErrorKind::kNone) continue;
    const measure::RequestMetrics rm = measure::request_metrics(t);
    if (std::isfinite(rm.ttft_ms)) ttft.samples_ns.push_back(static_cast<int64_t>(rm.ttft_ms * 1e6));
  }
  if (!ttft.samples_ns.empty()) {
    const auto ms = to_milliseconds(ttft.samples_ns);
    ttft.ms = summarize(ms);
    rec.results.ttft = ttft;
  }
  rec.results.tg = measure::served_tg(m, opts.n_gen);
  if (m.completed == 0 && !load.interrupted) rec.failed = "every request failed: " + m.first_error;
  if (load.server_lost) rec.failed = "server lost: " + lost_counts(m);
  return rec;
}

// --save-responses: one JSON line per counted request of `rec`'s run (canceled ones left out).
void append_responses(std::string& out, const RunRecord& rec, const measure::LoadResult& load,
                      const std::vector<measure::ServePrompt>& prompts) {
  if (prompts.empty()) return;
  for (const auto& t : load.requests) {
    if (t.error == net::ErrorKind::kCanceled) continue;
    const measure::ServePrompt& p = prompts[t.prompt_index % prompts.size()];
    nlohmann::ordered_json j = {
        {"record_id", rec.record_id}, {"model", rec.model.name}, {"concurrency", rec.server->concurrency}};
    if (p.tokens.empty()) j["prompt"] = p.text;
    else j["prompt_token_ids"] = p.tokens;
    j["response"] = t.response;
    j["error"] = net::error_kind_key(t.error);
    out += j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    out += '\n';
  }
}

}  // namespace

CLI::App* add_serve_bench_command(CLI::App& app, ServeBenchOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "serve-bench", "Benchmark a running server (llama-server, Ollama, vLLM, OpenAI-compatible) under load");
  cmd->add_option("url", o.url, "the server's base URL, e.g. http://127.0.0.1:8080")->required();
  cmd->add_option("--api", o.api,
                  "API: openai (= openai-completions, as vLLM's --backend openai), openai-completions, openai-chat, ollama (= ollama-generate), "
                  "ollama-chat; default: detected (openai-completions or ollama-generate)");
  cmd->add_option("-m,--model", o.models,
                  "the server's model names, one run after another, list (a,b,c; default: the one it has loaded)")
      ->delimiter(',');
  cmd->add_option("--api-key", o.api_key, "bearer key (default: $OPENAI_API_KEY); never printed or stored");
  cmd->add_option("--concurrency", o.concurrency, "requests in flight: one run per value, list (1,4,16)")
      ->delimiter(',')
      ->check(int_range(1, kMaxConcurrency))
      ->capture_default_str();
  cmd->add_option("--rate", o.rate,
                  "requests per second (> 0), Poisson arrivals (at most --concurrency in flight); without it, a closed "
                  "loop of --concurrency workers (vLLM's --request-rate inf)")
      ->check(range(1e-6, 1e6));
  cmd->add_option("--num-requests", o.num_requests,
                  "requests counted per run (default: 8 per concurrent request, at least 16)")
      ->check(int_range(1, measure::kMaxRequestsPerRun));
  cmd->add_option("--duration-seconds,--duration", o.duration_s,
                  "seconds per run (with --num-requests: the first to end)")
      ->check(range(0, 7 * 86400));
  cmd->add_option("--warmup", o.warmup, "requests before each run, one at a time, not counted")
      ->check(int_range(0, 1000))
      ->capture_default_str();
  cmd->add_flag("--no-warmup", o.no_warmup, "no warmup request (as --warmup 0; llama-bench's spelling)");
  cmd->add_option("-p,--n-prompt", o.n_prompt, "random prompt tokens per request")
      ->check(int_range(1, kMaxTokens))
      ->capture_default_str();
  cmd->add_option("-n,--n-gen", o.n_gen, "output tokens asked for per request (ignore_eos, min_tokens, num_predict)")
      ->check(int_range(1, kMaxTokens))
      ->capture_default_str();
  cmd->add_option("--prompts", o.prompts_file,
                  "JSONL prompts instead of random ones: {\"prompt\": ...} or {\"messages\": [...]}, \"max_tokens\"; "
                  "builtin = bench's built-in prompt suite");
  cmd->add_option("--slo", o.slo, "service-level objectives for goodput, e.g. ttft_ms=500,tpot_ms=50");
  cmd->add_option("--timeout-seconds", o.timeout_s, "a request's time limit, and the longest wait for a byte")
      ->check(range(0.001, 7 * 86400))
      ->capture_default_str();
  cmd->add_option_function<uint64_t>(
      "--seed", [&o](const uint64_t& v) { o.seed = v; },
      "seed of the random prompts and arrivals (default: a fresh one each invocation, printed; each run of the job "
      "mixes in its model and concurrency, so no run re-sends another's prompts)");
  cmd->add_option("--save-responses", o.save_responses,
                  "write each counted request's prompt and answer to this JSONL file, with its record_id (by "
                  "default no prompt or answer is kept, only counts and timings; the API key never is)");
  cmd->add_flag("--no-ignore-eos", o.no_ignore_eos, "let the model stop early (do not send ignore_eos/min_tokens)");
  cmd->add_flag("--embeddings", o.embeddings,
                "time the embeddings endpoint (/v1/embeddings, Ollama's /api/embed) as `rigbench embed` does: "
                "latency per text, texts/s per -b (json/jsonl: the records)");
  cmd->add_option("--queries", o.queries, "--embeddings: the texts, embed's format (default: its built-in set)");
  cmd->add_option("-b,--batch-size", o.batch_sizes, "--embeddings: texts per request in the throughput sweep, list")
      ->delimiter(',')
      ->check(int_range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("-r,--repetitions", o.repetitions, "--embeddings: passes over the query set")
      ->check(int_range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "output format: md, csv, json or jsonl")->capture_default_str();
  cmd->add_flag("--wide", o.wide, "every column in the md table (every percentile, server timings)");
  cmd->add_option("--db", o.db_path, "results database (default: $XDG_DATA_HOME/rigbench/results.db)")->take_last();
  cmd->add_flag("--no-db", o.no_db, "do not store the results");
  cmd->add_option("--tag", o.tags, "text kept with every record (repeatable)");
  cmd->add_option("--machine", o.machine,
                  "the machine's name in the records, which compare goes by (default: the host's name)")
      ->take_last();
  add_progress_flags(*cmd, o.progress, o.no_progress);
  cmd->add_option("--energy", o.energy,
                  "measure energy with bench's meters (the server must run on this machine): auto or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str();
  cmd->add_option("--idle-seconds", o.idle_s,
                  "seconds of idle baseline before each run (the server idle, model loaded)")
      ->check(range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--watts", o.watts, "a constant power you state, W (when no meter can read it)")
      ->check(range(0.0, 100000.0));
  cmd->add_option("--idle-watts", o.cost.idle_watts, "the idle power you state, W (replaces the idle window)")
      ->check(range(0.0, 100000.0));
  cmd->add_option("--power-log", o.power_log, "CSV log (timestamp,watts) of a wall meter covering the run");
  cmd->add_option("--estimate-power", o.estimate_tdp_w, "estimate power as TDP x CPU utilization, with this TDP in W")
      ->check(range(1.0, 10000.0));
  add_price_flags(*cmd, o.cost);
  cmd->footer(
      "\nExamples:\n"
      "  rigbench serve-bench http://127.0.0.1:8080 --concurrency 1,2,4 -p 128 -n 128\n"
      "  rigbench serve-bench http://127.0.0.1:11434 -m llama3 --rate 2 --duration-seconds 60\n"
      "  rigbench serve-bench http://127.0.0.1:8080 --slo ttft_ms=500,tpot_ms=50 -o json\n"
      "  rigbench serve-bench http://127.0.0.1:11434 -m llama3,qwen2.5,gemma2 --energy auto --price 0.30\n"
      "  rigbench serve-bench http://127.0.0.1:8080 --embeddings -b 1,32 --concurrency 1,4\n"
      "\nExit status: 0 success (failed requests are counted, not fatal), 1 the server cannot be used\n"
      "(unreachable, wrong API, unknown model, 401, no stream), every request failed, or the server was\n"
      "lost mid-run (5 requests in a row refused: the run stops, stored marked failed), 2 bad flag,\n"
      "130 interrupted (finished requests are kept and stored; none finished: nothing is).");
  return cmd;
}

Status run_serve_bench_command(ServeBenchOptions& opts) {
  // 1. Flags.
  auto conc = non_empty_list(opts.concurrency, "--concurrency");
  if (!conc) return std::unexpected(conc.error());
  // The numbers' ranges are checked as the flags are parsed (int_range, range: one message shape).
  if (opts.no_warmup) opts.warmup = 0;
  auto progress_shown = show_progress(opts.progress, opts.no_progress, isatty(STDERR_FILENO) != 0);
  if (!progress_shown) return std::unexpected(progress_shown.error());
  auto slo = measure::parse_slo(opts.slo);
  if (!slo) return std::unexpected(slo.error());
  std::optional<net::Api> forced;
  if (!opts.api.empty()) {
    forced = net::parse_api(opts.api);
    if (!forced) {
      return fail(ErrorCode::kUsage, "--api '" + opts.api +
                                         "': use openai, openai-chat, openai-completions, ollama, ollama-generate or "
                                         "ollama-chat");
    }
  }
  auto url = net::parse_url(opts.url);
  if (!url) return std::unexpected(url.error());
  const auto format = report::parse_output_format(opts.output);
  if (!format) return std::unexpected(format.error());
  net::ClientOptions client_opts;
  client_opts.api_key = opts.api_key;
  if (client_opts.api_key.empty()) {
    if (const char* env = std::getenv("OPENAI_API_KEY")) client_opts.api_key = env;
  }
  client_opts.timeout_s = opts.timeout_s;
  client_opts.connect_timeout_s = std::min(10.0, opts.timeout_s);
  const auto secretless = [&](std::string text) { return net::without_secret(std::move(text), client_opts.api_key); };

  if (opts.embeddings) {
    if (const std::string why = embeddings_refusal(opts); !why.empty()) return fail(ErrorCode::kUsage, why);
  }

  // 2. The prompt file, read before the server is asked anything.
  std::vector<measure::ServePrompt> file_prompts;
  if (!opts.prompts_file.empty()) {
    auto p = measure::read_prompt_file(opts.prompts_file, opts.n_gen);
    if (!p) return std::unexpected(p.error());
    file_prompts = std::move(*p);
  }

  // Energy and cost, as bench measures them (cli/bench_command.cpp): a bad --power-log is
  // refused here, before the server is asked anything.
  auto configured =
      energy_config({opts.energy, opts.idle_s, opts.watts, opts.power_log, opts.estimate_tdp_w, &opts.cost});
  if (!configured) return std::unexpected(configured.error());
  std::optional<measure::EnergyConfig> energy = std::move(*configured);

  // 3. The server: its API, version and model.
  net::HttpClient probe(*url, client_opts);
  auto server = net::probe_server(probe, *url, forced);
  if (!server) return fail(server.error().code, secretless(server.error().message));
  net::Api api =
      forced ? *forced : (server->api_family == "ollama" ? net::Api::kOllamaGenerate : net::Api::kOpenAiCompletions);
  if (!forced && server->api_family == "ollama" && !opts.prompts_file.empty()) api = net::Api::kOllamaGenerate;
  // Every model of the list, checked before the first run (one run after another, each with
  // its own idle window: the third study's table).
  std::vector<std::string> models;
  for (const std::string& wanted : opts.models.empty() ? std::vector<std::string>{""} : opts.models) {
    auto model = net::choose_model(*server, wanted, *url);
    if (!model)
      return fail(model.error().code == ErrorCode::kUsage ? ErrorCode::kRuntime : model.error().code,
                  secretless(model.error().message));
    models.push_back(*model);
  }

  // 4. The database and the --save-responses file, checked before the first run so that a bad
  // path fails early.
  std::optional<std::string> saved;  // the JSONL text of --save-responses, written at the end
  if (!opts.save_responses.empty()) {
    if (Status s = store::check_writable("--save-responses", opts.save_responses); !s) return s;
    saved.emplace();
  }
  auto opened = store::open_results_db(opts.db_path, opts.no_db);
  if (!opened) return std::unexpected(opened.error());
  std::unique_ptr<store::SqliteStore> db = std::move(*opened);

  if (opts.embeddings) {
    const bool ollama = forced ? net::is_ollama(*forced) : server->api_family == "ollama";
    return run_serve_embeddings(opts, *url, *server, ollama, models, *conc, client_opts, db.get(), *format, energy);
  }

  const std::atomic<bool>& stop = install_interrupt_flag();
  // No --seed: a fresh one, said so that the run can be repeated with the same prompts.
  const uint64_t seed = opts.seed ? *opts.seed : (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  const bool show_progress = *progress_shown;
  const bool rewrite_line = isatty(STDERR_FILENO) != 0;
  // The seed drawn (no --seed, random prompts) is said on this line, so that the run can be
  // repeated with the same prompts.
  const std::string drawn_seed = !opts.seed && opts.prompts_file.empty()
                                     ? ", seed " + std::to_string(seed) + " (--seed repeats these prompts)"
                                     : std::string();
  std::fprintf(stderr, "rigbench: %s: %s%s%s, API %s, model %s%s\n", url->redacted().c_str(),
               server->software.empty() ? server->api_family.c_str() : server->software.c_str(),
               server->version.empty() ? "" : " ", short_commit(server->version).c_str(), net::api_name(api),
               join(models, ", ").c_str(), drawn_seed.c_str());

  report::Table table(report::serve_columns(slo->any(), models.size() > 1));
  table.add_preamble("serve-bench " + url->redacted() + " (" + net::api_name(api) + "), model" +
                     (models.size() > 1 ? "s " : " ") + join(models, ", ") +
                     (opts.prompts_file.empty() ? ", " + std::to_string(opts.n_prompt) + " prompt + " +
                                                      std::to_string(opts.n_gen) + " output tokens"
                                                : ", prompts from " + opts.prompts_file) +
                     (opts.rate > 0 ? ", " + report::shortest(opts.rate) + " req/s Poisson" : ""));
  int stored = 0;
  std::vector<RunRecord> runs;  // every run kept, for the per-model cost table
  bool interrupted = false;
  int runs_all_failed = 0;
  std::string first_failure;
  // The runs, one after another; an error ends them (returned below, after the finished runs'
  // answers are saved and their table printed: a failure on a later model loses nothing).
  const Status run_error = [&]() -> Status {
    for (std::size_t mi = 0; mi < models.size(); ++mi) {
      const std::string& model = models[mi];
      for (std::size_t ci = 0; ci < conc->size(); ++ci) {
        const int c = (*conc)[ci];
        // This run's own prompts and arrivals (measure::run_seed): another run's would hit the
        // server's prompt cache.
        const uint64_t step_seed = measure::run_seed(seed, mi, ci);
        if (stop.load() || interrupted) break;
        measure::LoadOptions load;
        load.url = *url;
        load.client = client_opts;
        load.api = api;
        load.model = model;
        load.concurrency = c;
        load.rate = opts.rate;
        load.duration_s = opts.duration_s;
        load.num_requests = opts.num_requests > 0
                                ? opts.num_requests
                                : (opts.duration_s > 0 ? 0 : std::max(16, kDefaultRequestsPerWorker * c));
        load.warmup = opts.warmup;
        load.ignore_eos = !opts.no_ignore_eos;
        load.save_responses = saved.has_value();
        load.seed = step_seed;
        load.stop = &stop;
        load.lost_after_refused = kLostAfterRefused;
        if (!file_prompts.empty()) {
          load.prompts = file_prompts;
        } else {
          const int count = std::min(opts.warmup + (load.num_requests > 0 ? load.num_requests : 256), 1024);
          std::function<Result<std::vector<int>>(const std::string&)> tokenize;
          if (api == net::Api::kOpenAiCompletions && server->software == "llama.cpp") {
            tokenize = [&](const std::string& text) { return net::tokenize(probe, text); };
          }
          load.prompts = measure::random_prompts(count, opts.n_prompt, opts.n_gen, step_seed, tokenize);
        }

        std::mutex mu;
        int done = 0, errors = 0;
        std::map<std::string, int> by_kind;
        const int total = load.num_requests;
        const auto on_done = [&](const measure::RequestTrace& t) {
          std::lock_guard lock(mu);
          ++done;
          if (t.error != net::ErrorKind::kNone && t.error != net::ErrorKind::kCanceled) {
            ++errors;
            ++by_kind[net::error_kind_key(t.error)];
          }
          if (!show_progress) return;
          std::string kinds;
          for (const auto& [k, n] : by_kind) kinds += (kinds.empty() ? " (" : ", ") + k + " " + std::to_string(n);
          if (!kinds.empty()) kinds += ")";
          const std::string line = (models.size() > 1 ? model + " " : std::string()) + "c=" + std::to_string(c) + ": " +
                                   std::to_string(done) + (total > 0 ? "/" + std::to_string(total) : "") +
                                   " requests, " + std::to_string(errors) + " error" + (errors == 1 ? "" : "s") + kinds;
          if (rewrite_line) std::fprintf(stderr, "\r\033[Krigbench: %s", line.c_str());
          else std::fprintf(stderr, "rigbench: %s\n", line.c_str());
        };
        // Energy: the idle window (the server idle, model loaded), then the counted requests.
        auto meters = measure::open_serve_energy(energy, stop);
        if (!meters) return std::unexpected(meters.error());
        if (meters->session) load.before_counted = [&meters] { meters->mark("tg"); };
        const measure::LoadResult result = measure::run_load(load, on_done);
        meters->mark("");
        if (rewrite_line) std::fprintf(stderr, "\r\033[K");

        // A warm-up that failed outright: the server cannot serve this benchmark (bad model, 401,
        // no stream, wrong API). Nothing counted ran, so nothing is stored.
        if (result.warmup_failed) {
          const auto& w = result.warmup.front();
          std::string why = w.error_message;
          if (w.http_status == 401 || w.http_status == 403) why += "; give --api-key or set OPENAI_API_KEY";
          if (w.error == net::ErrorKind::kMalformed && why.find("does the server stream") != std::string::npos) {
            why = "the server does not stream: " + why;
          }
          return fail(ErrorCode::kRuntime, url->redacted() + net::generation_path(api) + ": warm-up request failed (" +
                                               net::error_kind_text(w.error) + "): " + secretless(why));
        }

        const measure::ServeRunMetrics metrics = measure::summarize_run(result.requests, result.duration_s, *slo);
        RunRecord rec = make_record(opts, *url, *server, api, model, c, result, metrics);
        if (saved) append_responses(*saved, rec, result, load.prompts);
        // J per output token over the loaded window (tokens: every completed request's output
        // tokens, as the run's output t/s counts them), and its cost.
        if (energy) {
          rec.energy = meters->finish(rec.results, *energy,
                                      measure::PhaseTokens{0, static_cast<double>(metrics.total_output_tokens)});
        }
        if (energy && energy->pricing) rec.cost = measure::price_run(rec, *energy->pricing);
        if (metrics.completed == 0 && metrics.requests > 0) {
          ++runs_all_failed;
          if (first_failure.empty()) first_failure = metrics.first_error;
        }
        interrupted = result.interrupted;
        if (metrics.requests > 0 || metrics.completed > 0) {
          if (db) {
            if (Status s = db->save(rec); !s) return s;
            ++stored;
          }
          runs.push_back(rec);
          table.add_row(report::serve_row(rec));
          report::add_serve_footers(table, rec, opts.n_gen);
          if (*format == report::OutputFormat::kJsonl) {
            report::Table one(report::serve_columns(slo->any(), models.size() > 1));
            one.add_row(report::serve_row(rec));
            report::render(one, *format, std::cout);
          }
        }
        if (result.server_lost) {
          return fail(ErrorCode::kRuntime, url->redacted() + ": the server was lost (" + lost_counts(metrics) +
                                               "); this run is stored marked failed, no later run was sent");
        }
        if (!result.client_error.empty()) {
          return fail(ErrorCode::kRuntime, "serve-bench's client failed: " + result.client_error + " (" +
                                               std::to_string(metrics.requests) +
                                               " finished requests of this run kept, marked interrupted)");
        }
        if (interrupted) break;
      }
    }
    return {};
  }();
  // Ctrl-C before any request of any run finished: nothing was measured, so no table, nothing
  // stored, and the message says so (before, an empty table and "0 runs kept").
  if (interrupted && runs.empty()) {
    return fail(ErrorCode::kInterrupted, "interrupted before any request finished: nothing measured, nothing stored");
  }
  // --save-responses holds every finished request, also when a later run failed or Ctrl-C
  // stopped the job (nothing is written when no run finished before an error).
  if (saved && (run_error || !runs.empty())) {
    if (Status s = store::write_whole("--save-responses", opts.save_responses, *saved); !s) return s;
  }
  if (!run_error && runs.empty()) return run_error;
  // Several models priced: the third study's table (cost --per-model on these runs: each
  // model's last run, J per output token, cost per Mtok with the idle window measured): md and
  // csv print it after the runs' table (csv: after one blank line, its own header), jsonl one
  // more line per model {"model_cost": {its row}}. json is always one object, {"runs": [the
  // runs' rows], "model_costs": {cost --per-model's object, or null when there is no such
  // table: one model, no price, or no run gave a figure}}, so its readers see one shape.
  const bool per_model = models.size() > 1 && energy && energy->pricing;
  std::optional<cost::ModelCosts> costs;
  if (per_model) {
    if (auto c = cost::model_costs(runs, *energy->pricing)) costs = std::move(*c);
  }
  switch (*format) {
    case report::OutputFormat::kJson: {
      std::ostringstream rows, priced;
      report::render(table, *format, rows, {opts.wide});
      if (costs) report::print_model_costs(*costs, *energy->pricing, *format, priced);
      const nlohmann::ordered_json both = {
          {"runs", nlohmann::ordered_json::parse(rows.str())},
          {"model_costs", costs ? nlohmann::ordered_json::parse(priced.str()) : nlohmann::ordered_json()}};
      std::cout << both.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
      break;
    }
    case report::OutputFormat::kJsonl:
      if (costs) {
        std::ostringstream priced;
        report::print_model_costs(*costs, *energy->pricing, *format, priced);
        std::istringstream lines(priced.str());
        for (std::string line; std::getline(lines, line);) {
          if (!line.empty()) std::cout << "{\"model_cost\": " << line << "}\n";
        }
      }
      break;
    default:
      report::render(table, *format, std::cout, {opts.wide});
      if (costs) {
        std::cout << "\n";
        report::print_model_costs(*costs, *energy->pricing, *format, std::cout);
      }
      break;
  }
  std::cout << std::flush;
  if (db && stored > 0) {
    std::fprintf(stderr, "rigbench: %d record%s stored in %s\n", stored, stored == 1 ? "" : "s", db->path().c_str());
  }
  if (!run_error) return run_error;
  if (interrupted) {
    return fail(ErrorCode::kInterrupted, "interrupted: " + std::to_string(stored) + " run" + (stored == 1 ? "" : "s") +
                                             " kept with the requests that finished");
  }
  if (runs_all_failed > 0) {
    return fail(ErrorCode::kRuntime, url->redacted() + ": every request of " + std::to_string(runs_all_failed) +
                                         " run" + (runs_all_failed == 1 ? "" : "s") +
                                         " failed: " + secretless(first_failure));
  }
  return {};
}

}  // namespace rigbench::cli
