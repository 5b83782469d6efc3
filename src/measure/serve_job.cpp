#include "measure/serve_job.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/model_name.h"
#include "core/short_commit.h"
#include "core/strings.h"
#include "measure/capacity.h"
#include "measure/energy.h"
#include "measure/noise.h"
#include "measure/serve_energy.h"
#include "model/model_file.h"

namespace rigbench::measure {

std::vector<NoiseNote> client_machine_notes(std::vector<NoiseNote> notes, bool server_is_local) {
  if (server_is_local) std::erase_if(notes, [](const NoiseNote& n) { return n.code == "machine_busy"; });
  return notes;
}

namespace {

constexpr int kDefaultRequestsPerWorker = 8;  // num_requests default: 8 per concurrent request, at least 16

// A lost server's run, for its record and the error line: what ended before it stopped.
std::string lost_counts(const LoadResult& load, const ServeRunMetrics& m) {
  return load.lost_reason + "; " + std::to_string(m.completed) + " of " +
         std::to_string(m.requests) + " requests completed, " + std::to_string(m.failed) +
         " failed, the run stopped there";
}

// The record of one run at one concurrency.
RunRecord make_record(const ServeJob& job, const std::string& model, int concurrency, const LoadResult& load,
                      const ServeRunMetrics& m) {
  RunRecord rec = new_served_record(job.machine, job.build, model, job.tags);
  if (job.target.model_file) rec.model = *job.target.model_file;  // the file's identity, as bench records it
  rec.params.n_prompt = job.prompts_file.empty() && job.trace.empty() ? job.n_prompt : 0;
  rec.params.n_gen = job.n_gen;
  rec.params.repetitions = m.requests;
  rec.params.warmup = job.warmup;
  rec.interrupted = load.interrupted;
  ServerRun s;
  s.url = job.url.redacted();
  s.software = job.target.server.software;
  s.version = job.target.server.version;
  s.api = net::api_name(job.target.api);
  s.model_id = model;
  s.concurrency = concurrency;
  s.rate_rps = job.rate;
  s.burstiness = job.burstiness;
  s.prefix_tokens = job.file_prompts.empty() ? job.prefix_tokens : 0;
  s.prefix_share = job.prefix_share;
  s.trace = job.trace_file;
  s.trace_scale = job.trace_scale;
  s.seed = job.seed;
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
  s.ttft_content_ms = m.ttft_content_ms;
  s.turns = job.turns;
  s.think_time_s = job.think_time_s;
  s.ttft_later_turns_ms = m.ttft_later_turns_ms;
  s.load_replies = m.load_replies;
  s.input_tokens_mean = m.input_tokens.n > 0 ? m.input_tokens.mean : RequestMetrics::kNaN;  // unknown, never 0
  s.output_tokens_mean = m.output_tokens.mean;
  s.request_throughput_rps = m.request_rate;
  s.output_tps = m.output_tps;
  s.total_tps = m.total_tps;
  s.slo = job.slo_text;
  s.goodput_rps = m.goodput;
  s.output_short = m.output_short;
  s.server_tg_tps = m.server_tg_tps;  // NaN where the server gave no timings
  s.client_tg_tps = m.client_tg_tps;
  if (m.server_prompt_ms.n > 0) s.server_prompt_p50_ms = m.server_prompt_ms.median;
  s.server_prompt_tps = m.server_prompt_tps;
  s.server_prompt_n_mean = m.server_prompt_n_mean;
  s.server_cache_n_mean = m.server_cache_n_mean;
  s.server_draft_accepted_pct = m.server_draft_accepted_pct;
  if (m.server_load_ms.n > 0) s.server_load_p50_ms = m.server_load_ms.median;
  s.client_cpu_pct = load.client_cpu_pct;
  rec.server = s;
  // The samples compare and report read: TTFT per request, and the run's one tg figure, its
  // output t/s (served_tg: the table's "out t/s", cost's rate, a ratio of sums).
  LatencyResult ttft;
  for (const auto& t : load.requests) {
    if (t.error != net::ErrorKind::kNone) continue;
    const RequestMetrics rm = request_metrics(t);
    if (std::isfinite(rm.ttft_ms)) ttft.samples_ns.push_back(static_cast<int64_t>(rm.ttft_ms * 1e6));
  }
  if (!ttft.samples_ns.empty()) {
    const auto ms = to_milliseconds(ttft.samples_ns);
    ttft.ms = summarize(ms);
    rec.results.ttft = ttft;
  }
  rec.results.tg = served_tg(m, job.n_gen);
  if (m.completed == 0 && !load.interrupted) rec.failed = "every request failed: " + m.first_error;
  if (load.server_lost) rec.failed = "server lost: " + lost_counts(load, m);
  return rec;
}

// --save-responses: one JSON line per counted request of `rec`'s run (canceled ones left out).
void append_responses(std::string& out, const RunRecord& rec, const LoadResult& load,
                      const std::vector<ServePrompt>& prompts) {
  if (prompts.empty()) return;
  for (const auto& t : load.requests) {
    if (t.error == net::ErrorKind::kCanceled) continue;
    const ServePrompt& p = prompts[t.prompt_index % prompts.size()];
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

// The load of run (model, concurrency c) of `job`, its prompts made with `step_seed`.
LoadOptions load_options(const ServeJob& job, const std::string& model, int c, uint64_t step_seed) {
  LoadOptions load{.url = job.url,
                   .client = job.client,
                   .api = job.target.api,
                   .model = model,
                   .concurrency = c,
                   .rate = job.rate,
                   .burstiness = job.burstiness,
                   .turns = job.turns,
                   .think_time_s = job.think_time_s,
                   .duration_s = job.duration_s,
                   .warmup = job.warmup,
                   .ignore_eos = job.ignore_eos,
                   .save_responses = job.save_responses,
                   .seed = step_seed,
                   .stop = job.stop,
                   .lost_after_refused = kLostAfterRefused};
  load.num_requests =
      job.num_requests > 0 ? job.num_requests : (job.duration_s > 0 ? 0 : std::max(16, kDefaultRequestsPerWorker * c));
  if (!job.file_prompts.empty()) {
    load.prompts = job.file_prompts;
  } else {
    std::function<Result<std::vector<int>>(const std::string&)> tokenize;
    // Token ids only for single turns: a session's history is re-sent as text.
    if (job.tokenizer && job.turns <= 1 && job.target.api == net::Api::kOpenAiCompletions &&
        job.target.server.software == "llama.cpp") {
      tokenize = [&job](const std::string& text) { return net::tokenize(*job.tokenizer, text); };
    }
    if (!job.trace.empty()) {
      // The warm-up's prompts (the trace's first lengths, cycled), then one per request of the trace.
      std::vector<std::pair<int, int>> lengths;
      for (int i = 0; i < job.warmup; ++i) {
        const TraceRequest& r = job.trace[static_cast<std::size_t>(i) % job.trace.size()];
        lengths.emplace_back(r.input_tokens, r.output_tokens);
      }
      for (const TraceRequest& r : job.trace) lengths.emplace_back(r.input_tokens, r.output_tokens);
      load.prompts = random_prompts_of(lengths, step_seed, tokenize);
      load.arrival_s = trace_arrivals(job.trace, job.trace_scale);
      const int n = static_cast<int>(job.trace.size());
      load.num_requests = job.num_requests > 0 ? std::min(job.num_requests, n) : n;
    } else {
      const int count = std::min(job.warmup + (load.num_requests > 0 ? load.num_requests : 256), 1024);
      load.prompts = random_prompts(count, job.n_prompt, job.n_gen, step_seed, tokenize);
    }
    // The shared prefix is the job's (its seed, not the run's): every run carries it alike.
    add_shared_prefix(load.prompts, job.prefix_tokens, job.seed, tokenize, job.prefix_share);
  }
  return load;
}

// The warm-up that failed outright, as the job's error: the server cannot serve this benchmark
// (bad model, 401, no stream, wrong API).
Status warmup_error(const ServeJob& job, const RequestTrace& w) {
  std::string why = w.error_message;
  if (w.http_status == 401 || w.http_status == 403) why += "; give --api-key or set OPENAI_API_KEY";
  if (w.error == net::ErrorKind::kMalformed && why.find("does the server stream") != std::string::npos) {
    why = "the server does not stream: " + why;
  }
  return fail(ErrorCode::kRuntime, job.url.redacted() + net::generation_path(job.target.api) +
                                       ": warm-up request failed (" + net::error_kind_text(w.error) +
                                       "): " + net::without_secret(why, job.client.api_key));
}

}  // namespace

Result<ServeTarget> probe_serve_target(net::HttpClient& client, const net::Url& url,
                                       const std::optional<net::Api>& forced, const std::vector<std::string>& wanted,
                                       const std::string& api_key) {
  const auto secretless = [&](std::string text) { return net::without_secret(std::move(text), api_key); };
  ServeTarget target;
  auto server = net::probe_server(client, url, forced);
  if (!server) return fail(server.error().code, secretless(server.error().message));
  target.server = std::move(*server);
  target.api = forced
                   ? *forced
                   : (target.server.api_family == "ollama" ? net::Api::kOllamaGenerate : net::Api::kOpenAiCompletions);
  // Every model of the list, checked before the first run (one run after another, each with
  // its own idle window: the third study's table).
  for (const std::string& name : wanted.empty() ? std::vector<std::string>{""} : wanted) {
    auto model = net::choose_model(target.server, name, url);
    if (!model)
      return fail(model.error().code == ErrorCode::kUsage ? ErrorCode::kRuntime : model.error().code,
                  secretless(model.error().message));
    target.models.push_back(*model);
  }
  // A local llama-server's one model: its file, as bench would describe it.
  if (net::is_loopback(url) && !target.server.model_path.empty() && target.models.size() == 1) {
    if (auto file = model::check_model_file(target.server.model_path, /*with_fingerprint=*/true)) {
      target.model_file = std::move(file->info);
    }
  }
  return target;
}

namespace {

// What one run of a job gave: its metrics (none when nothing was kept), and whether the job
// ends after it (an error in `Status`, or Ctrl-C / the client's failure in `interrupted`).
struct StepResult {
  std::optional<ServeRunMetrics> metrics;
  Status status;
};

// One run of `model` (the job's `mi`-th) at concurrency `c` and `rate` (0: closed loop), the
// job's `step`-th for that model: its load, record (annotated by `annotate` before the sink
// gets it) and cost, into `out`.
StepResult run_step(const ServeJob& job, std::size_t mi, std::size_t step, int c, double rate, const RecordSink& sink,
                    const ServeJobHooks& hooks, ServeJobResult& out,
                    const std::function<void(RunRecord&, const ServeRunMetrics&)>& annotate) {
  static const std::atomic<bool> kNever{false};
  const std::atomic<bool>& stop = job.stop ? *job.stop : kNever;
  const std::vector<std::string>& models = job.target.models;
  const std::string& model = models[mi];
  // This run's own prompts and arrivals (run_seed): another run's would hit the server's
  // prompt cache.
  LoadOptions load = load_options(job, model, c, run_seed(job.seed, mi, step));
  load.rate = rate;
  if (rate > 0 && std::isfinite(rate) && job.num_requests <= 0 && job.duration_s <= 0) {
    load.num_requests = std::max(16, static_cast<int>(std::ceil(kDefaultRequestsPerWorker * rate)));
  }
  std::mutex mu;
  int done = 0, errors = 0;
  std::map<std::string, int> by_kind;
  const int total = load.num_requests;
  const std::string label =
      "c=" + std::to_string(c) + (rate > 0 && std::isfinite(rate) && rate != job.rate ? " at " + format_fixed(rate, 2) + " req/s" : "");
  const auto on_done = [&](const RequestTrace& t) {
    std::lock_guard lock(mu);
    ++done;
    if (t.error != net::ErrorKind::kNone && t.error != net::ErrorKind::kCanceled) {
      ++errors;
      ++by_kind[net::error_kind_key(t.error)];
    }
    if (!hooks.progress) return;
    std::string kinds;
    for (const auto& [k, n] : by_kind) kinds += (kinds.empty() ? " (" : ", ") + k + " " + std::to_string(n);
    if (!kinds.empty()) kinds += ")";
    hooks.progress((models.size() > 1 ? model + " " : std::string()) + label + ": " + std::to_string(done) +
                   (total > 0 ? "/" + std::to_string(total) : "") + " requests, " + std::to_string(errors) +
                   " error" + (errors == 1 ? "" : "s") + kinds);
  };
  // Energy: the idle window (the server idle, model loaded), then the counted requests.
  auto meters = open_serve_energy(job.energy, stop);
  if (!meters) return {std::nullopt, std::unexpected(meters.error())};
  if (meters->session) load.before_counted = [&meters] { meters->mark("tg"); };
  const MachineWatch watch(job.kernel);
  const LoadResult result = run_load(load, on_done);
  meters->mark("");
  std::vector<NoiseNote> noise = client_machine_notes(watch.finish(), net::is_loopback(job.url));
  if (hooks.load_ended) hooks.load_ended();

  // A warm-up that failed outright: nothing counted ran, so nothing is kept.
  if (result.warmup_failed) return {std::nullopt, warmup_error(job, result.warmup.front())};

  const ServeRunMetrics metrics = summarize_run(result.requests, result.duration_s, job.slo);
  RunRecord rec = make_record(job, model, c, result, metrics);
  rec.server->rate_rps = rate;
  rec.noise = std::move(noise);
  if (annotate) annotate(rec, metrics);
  if (job.save_responses) append_responses(out.responses, rec, result, load.prompts);
  // J per output token over the loaded window (tokens: every completed request's output
  // tokens, as the run's output t/s counts them), and its cost.
  if (job.energy) {
    rec.energy =
        meters->finish(rec.results, *job.energy, PhaseTokens{0, static_cast<double>(metrics.total_output_tokens)});
  }
  if (job.energy && job.energy->pricing) rec.cost = price_run(rec, *job.energy->pricing);
  if (metrics.completed == 0 && metrics.requests > 0) {
    ++out.runs_all_failed;
    if (out.first_failure.empty()) out.first_failure = metrics.first_error;
  }
  out.interrupted = result.interrupted;
  if (metrics.requests > 0 || metrics.completed > 0) {
    if (Status s = sink(rec); !s) return {std::nullopt, s};
    out.runs.push_back(rec);
  }
  if (result.server_lost) {
    return {metrics, fail(ErrorCode::kRuntime, job.url.redacted() + ": the server was lost (" + lost_counts(result, metrics) +
                                                    "); this run is stored marked failed, no later run was sent")};
  }
  if (!result.client_error.empty()) {
    return {metrics, fail(ErrorCode::kRuntime, "serve-bench's client failed: " + result.client_error + " (" +
                                                    std::to_string(metrics.requests) +
                                                    " finished requests of this run kept, marked interrupted)")};
  }
  return {metrics, {}};
}

// The capacity sweep of model `mi` (ServeJob::capacity): steps chosen by measure/capacity.h,
// each run's record marked met or missed, the last one carrying the answer.
Status run_capacity(const ServeJob& job, std::size_t mi, const RecordSink& sink, const ServeJobHooks& hooks,
                    ServeJobResult& out) {
  const CapacityOptions& sweep = *job.capacity;
  CapacitySearch search(sweep);
  const bool by_rate = sweep.by == CapacityBy::kRate;
  const int in_flight = job.concurrency.empty() ? 1 : *std::max_element(job.concurrency.begin(), job.concurrency.end());
  for (std::size_t step = 0;; ++step) {
    const std::optional<double> load = search.next();
    if (!load || (job.stop && job.stop->load())) return {};
    const auto annotate = [&](RunRecord& rec, const ServeRunMetrics& m) {
      const CapacityStep s = capacity_step(*load, m, job.slo);
      search.add(s);
      ServerRun& r = *rec.server;
      r.sweep = capacity_by_name(sweep.by);
      r.slo_met = s.met() ? 1 : 0;
      r.slo_miss = s.miss;
      if (!search.next()) {
        const CapacityAnswer a = search.answer();
        r.capacity = capacity_line(a, job.slo, sweep.by);
        r.capacity_load = a.capacity;
      }
    };
    const int c = by_rate ? in_flight : static_cast<int>(*load);
    const StepResult r = run_step(job, mi, step, c, by_rate ? *load : 0, sink, hooks, out, annotate);
    if (!r.status) return r.status;
    if (!r.metrics || out.interrupted) return {};
  }
}

}  // namespace

ServeJobResult run_serve_job(const ServeJob& job, const RecordSink& sink, const ServeJobHooks& hooks) {
  const std::vector<std::string>& models = job.target.models;
  ServeJobResult out;
  // The runs, one after another; an error ends them (the finished runs are kept: a failure on
  // a later model loses nothing).
  out.error = [&]() -> Status {
    for (std::size_t mi = 0; mi < models.size(); ++mi) {
      if (job.capacity) {
        if (Status s = run_capacity(job, mi, sink, hooks, out); !s) return s;
        if (out.interrupted) break;
        continue;
      }
      for (std::size_t ci = 0; ci < job.concurrency.size(); ++ci) {
        if ((job.stop && job.stop->load()) || out.interrupted) break;
        const StepResult r = run_step(job, mi, ci, job.concurrency[ci], job.rate, sink, hooks, out, {});
        if (!r.status) return r.status;
        if (out.interrupted) break;
      }
    }
    return {};
  }();
  // Several models priced: the third study's table (cost --per-model on these runs: each
  // model's last run, J per output token, cost per Mtok with the idle window measured).
  if (models.size() > 1 && job.energy && job.energy->pricing) {
    if (auto c = cost::model_costs(out.runs, *job.energy->pricing)) out.model_costs = std::move(*c);
  }
  return out;
}

Status serve_job_status(const ServeJob& job, const ServeJobResult& result, int stored) {
  // Ctrl-C before any request of any run finished: nothing was measured, and the message says
  // so (before, an empty table and "0 runs kept").
  if (result.interrupted && result.runs.empty()) {
    return fail(ErrorCode::kInterrupted, "interrupted before any request finished: nothing measured, nothing stored");
  }
  if (!result.error) return result.error;
  if (result.interrupted) {
    return fail(ErrorCode::kInterrupted, "interrupted: " + std::to_string(stored) + " run" + (stored == 1 ? "" : "s") +
                                             " kept with the requests that finished");
  }
  if (result.runs_all_failed > 0) {
    return fail(ErrorCode::kRuntime, job.url.redacted() + ": every request of " +
                                         std::to_string(result.runs_all_failed) + " run" +
                                         (result.runs_all_failed == 1 ? "" : "s") +
                                         " failed: " + net::without_secret(result.first_failure, job.client.api_key));
  }
  return {};
}

std::string serve_job_intro(const ServeJob& job, bool seed_drawn) {
  const net::ServerInfo& server = job.target.server;
  return job.url.redacted() + ": " + (server.software.empty() ? server.api_family : server.software) +
         (server.version.empty() ? "" : " ") + short_commit(server.version) + ", API " + net::api_name(job.target.api) +
         ", model " + join(job.target.models, ", ") +
         (seed_drawn ? ", seed " + std::to_string(job.seed) + " (--seed repeats these prompts)" : std::string());
}

}  // namespace rigbench::measure
