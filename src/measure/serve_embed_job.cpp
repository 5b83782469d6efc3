#include "measure/serve_embed_job.h"

#include <algorithm>
#include <cmath>

#include "core/model_name.h"
#include "measure/energy.h"
#include "measure/serve_embed.h"
#include "measure/serve_energy.h"

namespace rigbench::measure {

namespace {

// The record of one run at one concurrency, without its energy.
RunRecord make_record(const ServeEmbedJob& job, const std::string& model, ServeEmbedOutcome& outcome) {
  RunRecord rec = new_served_record(job.machine, job.build, model, job.tags);
  rec.params.n_prompt = 0;
  rec.params.n_gen = 0;
  rec.params.repetitions = job.request.repetitions;
  rec.params.warmup = job.request.warmup;
  rec.params.embeddings = 1;
  rec.params.n_batch = rec.params.n_ubatch =
      *std::max_element(job.request.batch_sizes.begin(), job.request.batch_sizes.end());
  rec.interrupted = outcome.interrupted;
  rec.results.embedding = std::move(outcome.result);
  return rec;
}

// The server's part of the record.
ServerRun server_run(const ServeEmbedJob& job, const std::string& model, int concurrency,
                     const ServeEmbedOutcome& outcome, const RunRecord& rec) {
  ServerRun s;
  s.url = job.request.url.redacted();
  s.software = job.server.software;
  s.version = job.server.version;
  s.model_id = model;
  s.api = job.request.ollama ? "ollama-embed" : "openai-embeddings";
  s.concurrency = concurrency;
  s.requests = outcome.requests;
  s.failed = outcome.failed;
  s.completed = outcome.requests - outcome.failed;
  for (const auto& [kind, n] : outcome.errors) s.errors.emplace_back(kind, n);
  s.first_error = outcome.first_error;
  s.duration_s = outcome.duration_s;
  s.e2e_ms = rec.results.embedding->latency.ms;  // a request's whole time: its latency
  return s;
}

}  // namespace

ServeEmbedJobResult run_serve_embed_job(const ServeEmbedJob& job, const RecordSink& sink,
                                        const std::function<void(const std::string&)>& progress) {
  static const std::atomic<bool> kNever{false};
  const std::atomic<bool>& stop = job.stop ? *job.stop : kNever;
  ServeEmbedJobResult out;
  out.error = [&]() -> Status {
    for (const std::string& model : job.models) {
      for (const int c : job.concurrency) {
        if (out.interrupted) return {};
        ServeEmbedSpec spec = job.request;
        spec.model = model;
        spec.concurrency = c;
        spec.stop = &stop;
        const std::string at = model + " c=" + std::to_string(c);
        // Energy: the idle window (the server idle, model loaded), then the counted requests as "pp".
        auto meters = open_serve_energy(job.energy, stop);
        if (!meters) return std::unexpected(meters.error());
        if (meters->session) spec.on_counting = [&meters](bool on) { meters->mark(on ? "pp" : ""); };
        auto outcome = run_serve_embed(spec, [&](const std::string& line) {
          if (progress) progress(at + ": " + line);
        });
        if (!outcome) return std::unexpected(outcome.error());
        RunRecord rec = make_record(job, model, *outcome);
        // J per input token and per text over the loaded window, and the cost per Mtok of input tokens.
        if (job.energy) {
          rec.energy = meters->finish(Results{}, *job.energy);
          if (rec.energy.pp) {
            PhaseEnergyInfo& pp = *rec.energy.pp;
            const double tokens = outcome->tokens_known ? static_cast<double>(outcome->tokens) : 0;
            if (std::isfinite(pp.energy_j) && tokens > 0) pp.j_per_token = pp.energy_j / tokens;
            if (!(tokens > 0)) rec.energy.notes.push_back("the server did not state the input tokens: no J per token");
            if (job.energy->pricing) rec.cost = price_phase(rec.energy, pp, tokens, *job.energy->pricing);
          }
        }
        rec.server = server_run(job, model, c, *outcome, rec);
        const ServerRun& s = *rec.server;
        if (s.completed == 0 && !rec.interrupted) rec.failed = "every request failed: " + s.first_error;
        if (s.failed > 0 && progress) {
          progress(at + ": " + std::to_string(s.failed) + " of " + std::to_string(s.requests) +
                   " requests failed (first: " + s.first_error + ")");
        }
        if (s.requests > 0) {
          if (Status st = sink(rec); !st) return st;
          out.texts.push_back(outcome->texts);
          out.records.push_back(std::move(rec));
        }
        out.interrupted = stop.load();
      }
    }
    return {};
  }();
  return out;
}

Status serve_embed_job_status(const ServeEmbedJob& job, const ServeEmbedJobResult& result) {
  if (!result.error) return result.error;
  if (result.interrupted) return fail(ErrorCode::kInterrupted, "interrupted: finished samples kept");
  for (const RunRecord& r : result.records) {
    if (!r.failed.empty()) return fail(ErrorCode::kRuntime, job.request.url.redacted() + ": " + r.failed);
  }
  return {};
}

}  // namespace rigbench::measure
