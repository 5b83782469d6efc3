#include "measure/tune_serve.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/knobs.h"
#include "core/llama_commands.h"
#include "measure/llama_server.h"
#include "measure/serve_job.h"
#include "net/http_client.h"

namespace rigbench::measure {

namespace {

// The prompts' seed: the same for every candidate (each load run mixes in its place, run_seed),
// so that candidates are raced on the same requests; every trial starts a fresh server, whose
// prompt cache is empty.
constexpr uint64_t kServeSeed = 42;

// The candidate's knobs in a served record's params (its tokens, repetitions and warm-up kept):
// the server ran with them, and compare tells the candidates apart by them.
void set_knobs(BenchParams& to, const BenchParams& from) {
  for (const Knob& k : knobs()) {
    if (k.type == Knob::Type::kInt) to.*(k.int_field) = from.*(k.int_field);
    else to.*(k.text_field) = from.*(k.text_field);
  }
}

}  // namespace

ServeTrial serve_trial(const TuneSpec& spec, const Job& job, const TestCase& candidate, int repetitions,
                       const std::vector<std::string>& tags, const RecordSink& sink) {
  ServeTrial trial;
  TrialOutcome& out = trial.outcome;
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto server = LlamaServer::start(spec.serve.server_binary,
                                   llama_server_args(candidate.params, candidate.model_path, spec.n_parallel),
                                   spec.serve.start_timeout_s, spec.serve.stop);
  if (!server) {
    out.interrupted = server.error().code == ErrorCode::kInterrupted;
    if (!out.interrupted) out.error = server.error().message;
    out.seconds = elapsed();
    return trial;
  }
  net::HttpClient probe((*server)->url(), net::ClientOptions{});
  auto target = probe_serve_target(probe, (*server)->url(), std::nullopt, {}, "");
  if (!target) {
    out.error = target.error().message;
    out.seconds = elapsed();
    return trial;
  }
  ServeJob load;
  load.url = (*server)->url();
  load.target = std::move(*target);
  load.tokenizer = &probe;
  load.concurrency.assign(static_cast<size_t>(repetitions), spec.serve.concurrency);
  load.num_requests = serve_requests_per_run(spec.serve);
  load.warmup = 1;
  load.n_prompt = spec.n_prompt;
  load.n_gen = spec.n_gen;
  load.slo = spec.serve.slo;
  load.slo_text = spec.serve.slo_text;
  load.seed = kServeSeed;
  load.machine = job.context.machine;
  load.build = job.context.build;
  load.tags = job.context.tags;
  load.tags.insert(load.tags.end(), tags.begin(), tags.end());
  load.stop = spec.serve.stop;
  const ServeJobResult done = run_serve_job(load, [&](const RunRecord& served) -> Status {
    RunRecord rec = served;
    set_knobs(rec.params, candidate.params);
    ++trial.records;
    if (!rec.failed.empty() && out.error.empty()) out.error = rec.failed;
    for (double v : objective_samples(TuneObjective::kServe, rec, spec.serve.slo.any())) out.samples.push_back(v);
    Status s = sink(rec);
    if (!s) trial.sink_error = s;
    return s;
  });
  (*server)->stop();
  out.seconds = elapsed();
  out.interrupted = done.interrupted || !trial.sink_error;
  if (!done.error && out.error.empty() && trial.sink_error) out.error = done.error.error().message;
  if (out.error.empty() && !out.interrupted && static_cast<int>(out.samples.size()) < repetitions) {
    out.error = "a load run gave no figure: no request completed";
  }
  return trial;
}

}  // namespace rigbench::measure
