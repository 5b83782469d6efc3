// rigbench: the `serve-bench URL --embeddings` use case: an embedding server timed as `rigbench
// embed` times a model in process (measure/serve_embed.h), one record per model and
// concurrency, with the energy of its loaded window (measure/serve_energy.h: phase "pp", J per
// input token and per text) and its cost per Mtok of input tokens. Nothing here prints or
// stores: records go to a sink, progress to a callback.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "measure/job.h"  // EnergyConfig, RecordSink
#include "measure/serve_embed.h"
#include "net/http_client.h"
#include "net/protocol.h"
#include "net/url.h"

namespace rigbench::measure {

// A whole `serve-bench --embeddings` job.
struct ServeEmbedJob {
  // What each run sends: the URL, the client options (the API key, never printed or stored, the
  // timeouts), the API (ollama), the query set, the batch sizes, repetitions and warm-up. Its
  // model, concurrency and stop are each run's (below).
  ServeEmbedSpec request;
  net::ServerInfo server;              // as probed (measure/serve_job.h probe_serve_target)
  std::vector<std::string> models;     // the server's model ids, one after another
  std::vector<int> concurrency{1};     // requests in flight: one run per value, per model
  std::optional<EnergyConfig> energy;  // --energy auto: an idle window per run, then its loaded window; nullopt = off
  MachineInfo machine;                 // what every record shares
  BuildInfo build;
  std::vector<std::string> tags;
  const std::atomic<bool>* stop = nullptr;  // Ctrl-C: finish the request in flight, start nothing more
};

// How a job went.
struct ServeEmbedJobResult {
  std::vector<RunRecord> records;  // every run handed to the sink (one with requests), in order
  std::vector<int64_t> texts;      // per record: the texts its counted requests embedded (J per text)
  // What ended the job early, one line; the records before are kept: a warm-up that failed
  // outright (kRuntime naming the URL and path), the meters' start, the sink's error.
  Status error;
  bool interrupted = false;  // Ctrl-C: the run in progress kept with its finished samples, no more run
};

// Runs every model of `job` at every concurrency. Each run becomes a record (a fresh
// record_id, test_time, the machine, build and tags, embeddings=1 and n_batch the largest
// batch size, its EmbeddingResult, the server's part with its counts and errors by kind, J per
// input token over the loaded window and its cost; failed "every request failed: ..." when no
// request succeeded) handed to `sink` when it sent a counted request. `progress` (may be
// empty) gets lines "MODEL c=N: what", and one with the failed requests' count of a run.
ServeEmbedJobResult run_serve_embed_job(const ServeEmbedJob& job, const RecordSink& sink,
                                        const std::function<void(const std::string&)>& progress = {});

// The job's exit status, once its output is printed: result.error; kInterrupted "interrupted:
// finished samples kept"; kRuntime "URL: every request failed: ..." for the first record
// marked failed; else success.
Status serve_embed_job_status(const ServeEmbedJob& job, const ServeEmbedJobResult& result);

}  // namespace rigbench::measure
