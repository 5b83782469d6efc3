#include "cli/serve_bench_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cli/energy_flags.h"
#include "cli/interrupt.h"
#include "core/strings.h"
#include "measure/energy.h"
#include "measure/job.h"
#include "measure/serve_load.h"
#include "measure/serve_metrics.h"
#include "net/protocol.h"
#include "net/url.h"
#include "power/meters.h"
#include "report/table.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

namespace {

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

constexpr int kDefaultRequestsPerWorker = 8;  // --num-requests default: 8 per concurrent request, at least 16

// The table's columns: md shows the headline ones (within 120 columns), --wide and the data
// formats every one.
std::vector<report::TableColumn> columns(bool slo) {
  using report::Align;
  std::vector<report::TableColumn> c = {
      {"model", "model", Align::kLeft, false, true},
      {"server_url", "server", Align::kLeft, false, true},
      {"server_software", "software", Align::kLeft, false, true},
      {"server_version", "version", Align::kLeft, false, true},
      {"api", "api", Align::kLeft, false, true},
      {"concurrency", "c", Align::kRight},
      {"rate_rps", "rate req/s", Align::kRight, true},
      {"requests", "req", Align::kRight, true},
      {"completed", "ok", Align::kRight, true},
      {"failed", "err", Align::kRight},
      {"duration_s", "s", Align::kRight, true},
      {"request_throughput_rps", "req/s", Align::kRight},
      {"output_tps", "out t/s", Align::kRight},
      {"total_tps", "total t/s", Align::kRight, true},
      {"goodput_rps", "good req/s", Align::kRight, !slo},
      {"input_tokens_mean", "in tok", Align::kRight, true},
      {"output_tokens_mean", "out tok", Align::kRight, true},
  };
  for (const char* m : {"ttft", "tpot", "itl", "e2e"}) {
    const std::string name = std::string(m) == "e2e" ? "E2E" : upper(m);
    for (const char* p : {"mean", "p50", "p90", "p95", "p99"}) {
      const std::string stat = p;
      // md: p50 and p99 of TTFT and TPOT, p50 of ITL and E2E.
      const bool shown = (stat == "p50") || (stat == "p99" && (std::string(m) == "ttft" || std::string(m) == "tpot"));
      c.push_back({std::string(m) + "_" + stat + "_ms", name + " " + stat + " ms", Align::kRight, !shown});
    }
  }
  for (const char* kind : {"refused", "http_status", "malformed_stream", "cut_mid_stream", "timeout"}) {
    c.push_back({std::string("errors_") + kind, std::string("err ") + kind, Align::kRight, false, true});
  }
  c.push_back({"server_tg_tps", "server tg t/s", Align::kRight, true});
  c.push_back({"client_tg_tps", "client tg t/s", Align::kRight, true});
  c.push_back({"tg_tps_diff_pct", "tg diff %", Align::kRight, true});
  c.push_back({"server_prompt_p50_ms", "server prompt p50 ms", Align::kRight, true});
  c.push_back({"output_short", "short", Align::kRight, false, true});
  c.push_back({"energy_method", "energy", Align::kLeft, false, true});
  c.push_back({"idle_power_w", "idle W", Align::kRight, false, true});
  c.push_back({"tg_power_w", "loaded W", Align::kRight, false, true});
  c.push_back({"tg_j_per_token", "J/tok", Align::kRight, false, true});
  c.push_back({"cost_gross_per_mtok", "cost/Mtok", Align::kRight, false, true});
  c.push_back({"currency", "currency", Align::kLeft, false, true});
  c.push_back({"interrupted", "interrupted", Align::kLeft, false, true});
  c.push_back({"record_id", "record", Align::kLeft, false, true});
  return c;
}

std::vector<report::TableCell> row(const RunRecord& rec) {
  using report::TableCell;
  const ServerRun& s = *rec.server;
  std::vector<TableCell> r = {
      TableCell::str(rec.model.name),
      TableCell::str(s.url),
      TableCell::str(s.software),
      TableCell::str(s.version),
      TableCell::str(s.api),
      TableCell::integer(s.concurrency),
      s.rate_rps > 0 ? TableCell::number(s.rate_rps, 2) : TableCell::absent("-"),
      TableCell::integer(s.requests),
      TableCell::integer(s.completed),
      TableCell::integer(s.failed),
      TableCell::number(s.duration_s, 2),
      TableCell::number(s.request_throughput_rps, 2),
      TableCell::number(s.output_tps, 1),
      TableCell::number(s.total_tps, 1),
      TableCell::number(s.goodput_rps, 2),
      TableCell::number(s.input_tokens_mean, 1),
      TableCell::number(s.output_tokens_mean, 1),
  };
  for (const Summary* m : {&s.ttft_ms, &s.tpot_ms, &s.itl_ms, &s.e2e_ms}) {
    const bool none = m->n == 0;
    for (double v : {m->mean, m->median, m->p90, m->p95, m->p99}) r.push_back(TableCell::number(none ? NAN : v, 2));
  }
  for (const char* kind : {"refused", "http_status", "malformed_stream", "cut_mid_stream", "timeout"}) {
    int n = 0;
    for (const auto& [k, v] : s.errors) {
      if (k == kind) n = v;
    }
    r.push_back(TableCell::integer(n));
  }
  r.push_back(TableCell::number(s.server_tg_tps, 1));
  r.push_back(TableCell::number(s.client_tg_tps, 1));
  const double diff = std::isfinite(s.server_tg_tps) && s.server_tg_tps > 0
                          ? 100.0 * (s.client_tg_tps - s.server_tg_tps) / s.server_tg_tps
                          : NAN;
  r.push_back(TableCell::number(diff, 1));
  r.push_back(TableCell::number(s.server_prompt_p50_ms, 2));
  r.push_back(TableCell::integer(s.output_short));
  const bool measured = rec.energy.method != "unavailable";
  r.push_back(measured ? TableCell::str(rec.energy.method) : TableCell::absent());
  r.push_back(TableCell::number(rec.energy.idle_power_w, 2));
  r.push_back(TableCell::number(rec.energy.tg ? rec.energy.tg->power_w : NAN, 2));
  r.push_back(TableCell::number(rec.energy.tg ? rec.energy.tg->j_per_token : NAN, 4));
  r.push_back(TableCell::number(rec.cost ? rec.cost->gross_per_mtok : NAN, 4));
  r.push_back(rec.cost ? TableCell::str(rec.cost->currency) : TableCell::absent());
  r.push_back(TableCell::boolean(rec.interrupted));
  r.push_back(TableCell::str(rec.record_id));
  return r;
}

Result<std::vector<int>> parse_positive_list(const std::vector<int>& values, const char* flag) {
  if (values.empty()) return fail(ErrorCode::kUsage, std::string(flag) + ": give at least one value");
  for (int v : values) {
    if (v < 1) return fail(ErrorCode::kUsage, std::string(flag) + " " + std::to_string(v) + ": must be >= 1");
  }
  return values;
}

// The record of one run at one concurrency.
RunRecord make_record(const ServeBenchOptions& opts, const net::Url& url, const net::ServerInfo& server,
                      net::Api api, const std::string& model, int concurrency, const measure::LoadResult& load,
                      const measure::ServeRunMetrics& m) {
  RunRecord rec;
  rec.record_id = measure::new_record_id();
  rec.test_time = measure::utc_now_iso8601();
  rec.machine = machine_info();
  rec.build = build_info();
  rec.model.name = model;
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
  s.concurrency = concurrency;
  s.rate_rps = opts.rate;
  s.requests = m.requests;
  s.completed = m.completed;
  s.failed = m.failed;
  for (const auto& [kind, n] : m.errors) s.errors.emplace_back(kind, n);
  s.first_error = m.first_error;  // send_request took any API key out
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
  if (m.server_tg_tps.n > 0) {
    s.server_tg_tps = m.server_tg_tps.mean;
    s.client_tg_tps = m.client_tg_tps.mean;
  }
  if (m.server_prompt_ms.n > 0) s.server_prompt_p50_ms = m.server_prompt_ms.median;
  rec.server = s;
  // The samples compare and report read: TTFT per request, and the decode rate per request
  // (1000 / TPOT) as n_gen tokens at that pace.
  LatencyResult ttft;
  ThroughputResult tg;
  tg.n_tokens = opts.n_gen;
  for (const auto& t : load.requests) {
    if (t.error != net::ErrorKind::kNone) continue;
    const measure::RequestMetrics rm = measure::request_metrics(t);
    if (std::isfinite(rm.ttft_ms)) ttft.samples_ns.push_back(static_cast<int64_t>(rm.ttft_ms * 1e6));
    if (std::isfinite(rm.tpot_ms) && rm.tpot_ms > 0) {
      tg.samples_ns.push_back(static_cast<int64_t>(rm.tpot_ms * 1e6 * opts.n_gen));
    }
  }
  if (!ttft.samples_ns.empty()) {
    const auto ms = to_milliseconds(ttft.samples_ns);
    ttft.ms = summarize(ms);
    rec.results.ttft = ttft;
  }
  if (!tg.samples_ns.empty()) {
    tg.samples_tps = tokens_per_second(tg.samples_ns, tg.n_tokens);
    tg.tps = summarize(tg.samples_tps);
    rec.results.tg = tg;
  }
  if (m.completed == 0 && !load.interrupted) rec.failed = "every request failed: " + m.first_error;
  return rec;
}

// Footer lines of one run: errors by kind, the server's timings beside the client's, an
// output length the server did not honour.
void add_footers(report::Table& table, const RunRecord& rec, int n_gen) {
  const ServerRun& s = *rec.server;
  const std::string at = "c=" + std::to_string(s.concurrency) + ": ";
  if (s.failed > 0) {
    std::string kinds;
    for (const auto& [k, n] : s.errors) kinds += (kinds.empty() ? "" : ", ") + k + " " + std::to_string(n);
    table.add_footer(at + std::to_string(s.failed) + " of " + std::to_string(s.requests) +
                     " requests failed (" + kinds + "; first: " + s.first_error + ")");
  }
  if (std::isfinite(s.server_tg_tps)) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "server-reported tg %.1f t/s, client 1000/TPOT %.1f t/s (%+.1f %%); server prompt p50 %.2f ms, "
                  "client TTFT p50 %.2f ms",
                  s.server_tg_tps, s.client_tg_tps, 100.0 * (s.client_tg_tps - s.server_tg_tps) / s.server_tg_tps,
                  s.server_prompt_p50_ms, s.ttft_ms.median);
    table.add_footer(at + line);
  }
  if (rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token)) {
    char line[256];
    std::snprintf(line, sizeof line, "energy (%s): idle %.1f W, loaded %.1f W, %.4f J per output token",
                  rec.energy.method.c_str(), rec.energy.idle_power_w, rec.energy.tg->power_w,
                  rec.energy.tg->j_per_token);
    std::string text = at + line;
    if (rec.cost && std::isfinite(rec.cost->gross_per_mtok)) {
      std::snprintf(line, sizeof line, "; %.4f %s per Mtok (electricity, gross)", rec.cost->gross_per_mtok,
                    rec.cost->currency.c_str());
      text += line;
    }
    table.add_footer(text);
  }
  if (s.output_short > 0) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "the server did not honour the output length on %d of %d requests (asked %d, got %.1f on "
                  "average): TPOT and tokens/s are over the tokens it sent",
                  s.output_short, s.completed, n_gen, s.output_tokens_mean);
    table.add_note(line);
  }
}

}  // namespace

CLI::App* add_serve_bench_command(CLI::App& app, ServeBenchOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "serve-bench", "Benchmark a running server (llama-server, Ollama, vLLM, OpenAI-compatible) under load");
  cmd->add_option("url", o.url, "the server's base URL, e.g. http://127.0.0.1:8080")->required();
  cmd->add_option("--api", o.api,
                  "API: openai (= openai-chat), openai-chat, openai-completions, ollama (= ollama-generate), "
                  "ollama-chat; default: detected (openai-completions or ollama-generate)");
  cmd->add_option("-m,--model", o.model, "the server's model name (default: the one it has loaded)");
  cmd->add_option("--api-key", o.api_key, "bearer key (default: $OPENAI_API_KEY); never printed or stored");
  cmd->add_option("--concurrency", o.concurrency, "requests in flight: one run per value, list (1,4,16)")
      ->delimiter(',');
  cmd->add_option("--rate", o.rate, "requests per second, Poisson arrivals (at most --concurrency in flight)");
  cmd->add_option("--num-requests", o.num_requests,
                  "requests counted per run (default: 8 per concurrent request, at least 16)");
  cmd->add_option("--duration-seconds,--duration", o.duration_s, "seconds per run (with --num-requests: the first to end)");
  cmd->add_option("--warmup", o.warmup, "requests before each run, one at a time, not counted");
  cmd->add_option("-p,--n-prompt", o.n_prompt, "random prompt tokens per request");
  cmd->add_option("-n,--n-gen", o.n_gen, "output tokens asked for per request (ignore_eos, min_tokens, num_predict)");
  cmd->add_option("--prompts", o.prompts_file,
                  "JSONL prompts instead of random ones: {\"prompt\": ...} or {\"messages\": [...]}, \"max_tokens\"");
  cmd->add_option("--slo", o.slo, "service-level objectives for goodput, e.g. ttft_ms=500,tpot_ms=50");
  cmd->add_option("--timeout-seconds", o.timeout_s, "a request's time limit, and the longest wait for a byte");
  cmd->add_option("--seed", o.seed, "seed of the random prompts and arrivals");
  cmd->add_flag("--no-ignore-eos", o.no_ignore_eos, "let the model stop early (do not send ignore_eos/min_tokens)");
  cmd->add_option("-o,--output", o.output, "output format: md, csv, json or jsonl")
      ->check(output_format({"md", "csv", "json", "jsonl"}));
  cmd->add_flag("--wide", o.wide, "every column in the md table (every percentile, server timings)");
  cmd->add_option("--db", o.db_path, "results database (default: $XDG_DATA_HOME/rigbench/results.db)")->take_last();
  cmd->add_flag("--no-db", o.no_db, "do not store the results");
  cmd->add_option("--tag", o.tags, "text kept with every record (repeatable)");
  cmd->add_flag("--progress", o.progress, "progress lines on stderr even when it is not a terminal");
  cmd->add_option("--energy", o.energy,
                  "measure energy with bench's meters (the server must run on this machine): auto or off")
      ->check(CLI::IsMember({"auto", "off"}))
      ->capture_default_str();
  cmd->add_option("--idle-seconds", o.idle_s, "seconds of idle baseline before each run (the server idle, model loaded)")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--watts", o.watts, "a constant power you state, W (when no meter can read it)")
      ->check(CLI::Range(0.0, 100000.0));
  cmd->add_option("--idle-watts", o.cost.idle_watts, "the idle power you state, W (replaces the idle window)")
      ->check(CLI::Range(0.0, 100000.0));
  cmd->add_option("--power-log", o.power_log, "CSV log (timestamp,watts) of a wall meter covering the run");
  cmd->add_option("--estimate-power", o.estimate_tdp_w, "estimate power as TDP x CPU utilization, with this TDP in W")
      ->check(CLI::Range(1.0, 10000.0));
  add_price_flags(*cmd, o.cost);
  cmd->footer(
      "\nExamples:\n"
      "  rigbench serve-bench http://127.0.0.1:8080 --concurrency 1,2,4 -p 128 -n 128\n"
      "  rigbench serve-bench http://127.0.0.1:11434 -m llama3 --rate 2 --duration-seconds 60\n"
      "  rigbench serve-bench http://127.0.0.1:8080 --slo ttft_ms=500,tpot_ms=50 -o json\n"
      "\nExit status: 0 success (failed requests are counted, not fatal), 1 the server cannot be used\n"
      "(unreachable, wrong API, unknown model, 401, no stream) or every request failed, 2 bad flag,\n"
      "130 interrupted (finished requests are kept and stored).");
  return cmd;
}

Status run_serve_bench_command(ServeBenchOptions& opts) {
  // 1. Flags.
  auto conc = parse_positive_list(opts.concurrency, "--concurrency");
  if (!conc) return std::unexpected(conc.error());
  if (opts.rate < 0 || !std::isfinite(opts.rate)) return fail(ErrorCode::kUsage, "--rate: must be >= 0 requests/s");
  if (opts.num_requests == 0 || opts.num_requests < -1) return fail(ErrorCode::kUsage, "--num-requests: must be >= 1");
  if (opts.duration_s < 0) return fail(ErrorCode::kUsage, "--duration-seconds: must be >= 0");
  if (opts.warmup < 0) return fail(ErrorCode::kUsage, "--warmup: must be >= 0");
  if (opts.n_prompt < 1) return fail(ErrorCode::kUsage, "--n-prompt: must be >= 1");
  if (opts.n_gen < 1) return fail(ErrorCode::kUsage, "--n-gen: must be >= 1");
  if (!(opts.timeout_s > 0)) return fail(ErrorCode::kUsage, "--timeout-seconds: must be > 0");
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

  // 2. The prompt file, read before the server is asked anything.
  std::vector<measure::ServePrompt> file_prompts;
  if (!opts.prompts_file.empty()) {
    auto p = measure::read_prompt_file(opts.prompts_file, opts.n_gen);
    if (!p) return std::unexpected(p.error());
    file_prompts = std::move(*p);
  }

  // 3. The server: its API, version and model.
  net::HttpClient probe(*url, client_opts);
  auto server = net::probe_server(probe, *url, forced);
  if (!server) return fail(server.error().code, secretless(server.error().message));
  net::Api api = forced ? *forced : (server->api_family == "ollama" ? net::Api::kOllamaGenerate
                                                                    : net::Api::kOpenAiCompletions);
  if (!forced && server->api_family == "ollama" && !opts.prompts_file.empty()) api = net::Api::kOllamaGenerate;
  auto model = net::choose_model(*server, opts.model, *url);
  if (!model) return fail(model.error().code == ErrorCode::kUsage ? ErrorCode::kRuntime : model.error().code,
                          secretless(model.error().message));

  // 4. The database, opened before the first run so that a bad --db fails early.
  auto opened = store::open_results_db(opts.db_path, opts.no_db);
  if (!opened) return std::unexpected(opened.error());
  std::unique_ptr<store::SqliteStore> db = std::move(*opened);

  // 5. Energy and cost, as bench measures them (cli/bench_command.cpp).
  auto configured =
      energy_config({opts.energy, opts.idle_s, opts.watts, opts.power_log, opts.estimate_tdp_w, &opts.cost});
  if (!configured) return std::unexpected(configured.error());
  std::optional<measure::EnergyConfig> energy = std::move(*configured);

  const std::atomic<bool>& stop = install_interrupt_flag();
  const bool show_progress = opts.progress || isatty(STDERR_FILENO) != 0;
  const bool rewrite_line = isatty(STDERR_FILENO) != 0;
  std::fprintf(stderr, "rigbench: %s: %s%s%s, API %s, model %s\n", url->redacted().c_str(),
               server->software.empty() ? server->api_family.c_str() : server->software.c_str(),
               server->version.empty() ? "" : " ", server->version.c_str(), net::api_name(api), model->c_str());

  report::Table table(columns(slo->any()));
  table.add_preamble("serve-bench " + url->redacted() + " (" + net::api_name(api) + "), model " + *model +
                     (opts.prompts_file.empty()
                          ? ", " + std::to_string(opts.n_prompt) + " prompt + " + std::to_string(opts.n_gen) + " output tokens"
                          : ", prompts from " + opts.prompts_file) +
                     (opts.rate > 0 ? ", " + report::shortest(opts.rate) + " req/s Poisson" : ""));
  int stored = 0;
  bool interrupted = false;
  int runs_all_failed = 0;
  std::string first_failure;
  for (const int c : *conc) {
    if (stop.load()) break;
    measure::LoadOptions load;
    load.url = *url;
    load.client = client_opts;
    load.api = api;
    load.model = *model;
    load.concurrency = c;
    load.rate = opts.rate;
    load.duration_s = opts.duration_s;
    load.num_requests = opts.num_requests > 0 ? opts.num_requests
                                              : (opts.duration_s > 0 ? 0 : std::max(16, kDefaultRequestsPerWorker * c));
    load.warmup = opts.warmup;
    load.ignore_eos = !opts.no_ignore_eos;
    load.seed = opts.seed;
    load.stop = &stop;
    if (!file_prompts.empty()) {
      load.prompts = file_prompts;
    } else {
      const int count = std::min(opts.warmup + (load.num_requests > 0 ? load.num_requests : 256), 1024);
      std::function<Result<std::vector<int>>(const std::string&)> tokenize;
      if (api == net::Api::kOpenAiCompletions && server->software == "llama.cpp") {
        tokenize = [&](const std::string& text) { return net::tokenize(probe, text); };
      }
      load.prompts = measure::random_prompts(count, opts.n_prompt, opts.n_gen, opts.seed, tokenize);
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
      const std::string line = "c=" + std::to_string(c) + ": " + std::to_string(done) +
                               (total > 0 ? "/" + std::to_string(total) : "") + " requests, " +
                               std::to_string(errors) + " error" + (errors == 1 ? "" : "s") + kinds;
      if (rewrite_line) std::fprintf(stderr, "\r\033[Krigbench: %s", line.c_str());
      else std::fprintf(stderr, "rigbench: %s\n", line.c_str());
    };
    // Energy: the idle window (the server idle, model loaded), then the counted requests.
    std::unique_ptr<measure::EnergySession> session;
    std::vector<power::MeterStatus> meter_status;
    double idle_s = 0;
    if (energy) {
      session = measure::EnergySession::open(energy->meters, &meter_status);
      if (session) {
        if (Status s = session->start(); !s) return s;
        idle_s = std::isnan(energy->idle_watts) ? energy->idle_s : 0;
        if (idle_s > 0) {
          session->mark("idle");
          for (double left = idle_s; left > 0 && !stop.load(); left -= 0.1) {
            std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.1)));
          }
          session->mark("");
        }
        load.before_counted = [&session] { session->mark("tg"); };
      }
    }
    const measure::LoadResult result = measure::run_load(load, on_done);
    if (session) session->mark("");
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
    RunRecord rec = make_record(opts, *url, *server, api, *model, c, result, metrics);
    // J per output token over the loaded window (tokens: n_gen per completed request), and its cost.
    if (session) rec.energy = session->finish(rec.results, idle_s, energy->idle_watts);
    else if (energy) rec.energy = measure::unavailable_energy(meter_status);
    if (energy && energy->pricing) rec.cost = measure::price_run(rec.energy, rec.results, *energy->pricing);
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
      table.add_row(row(rec));
      add_footers(table, rec, opts.n_gen);
      if (*format == report::OutputFormat::kJsonl) {
        report::Table one(columns(slo->any()));
        one.add_row(row(rec));
        report::render(one, *format, std::cout);
      }
    }
    if (interrupted) break;
  }
  if (*format != report::OutputFormat::kJsonl) report::render(table, *format, std::cout, {opts.wide});
  if (db && stored > 0) {
    std::fprintf(stderr, "rigbench: %d record%s stored in %s\n", stored, stored == 1 ? "" : "s", db->path().c_str());
  }
  if (interrupted) {
    return fail(ErrorCode::kInterrupted, "interrupted: " + std::to_string(stored) + " run" + (stored == 1 ? "" : "s") +
                                             " kept with the requests that finished");
  }
  if (runs_all_failed > 0) {
    return fail(ErrorCode::kRuntime, url->redacted() + ": every request of " + std::to_string(runs_all_failed) +
                                         " run" + (runs_all_failed == 1 ? "" : "s") + " failed: " + secretless(first_failure));
  }
  return {};
}

}  // namespace rigbench::cli
