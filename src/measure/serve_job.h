// rigbench: the `serve-bench` use case (generation; --embeddings is measure/serve_embed_job.h):
// a running server under load at each concurrency of a list (or a Poisson rate), one model
// after another. Each run's requests (measure/serve_load.h) become one RunRecord with the
// per-request metrics of the run (measure/serve_metrics.h), the energy of its loaded window
// (measure/serve_energy.h) and its cost; several models priced also give a per-model cost
// table (cost/model_costs.h). Nothing here prints or stores: records go to a sink, progress
// to a callback.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "cost/model_costs.h"
#include "measure/capacity.h"
#include "measure/job.h"  // EnergyConfig, RecordSink
#include "measure/serve_load.h"
#include "measure/serve_metrics.h"
#include "measure/serve_trace.h"
#include "net/http_client.h"
#include "net/protocol.h"
#include "net/url.h"

namespace rigbench::measure {

// A lost server: this many counted requests in a row refused (nothing listens any more) end
// the run and the job (the record is kept, marked failed, with its counts).
inline constexpr int kLostAfterRefused = 5;

// The server a job loads, as asked before the first run.
struct ServeTarget {
  net::ServerInfo server;                       // software, version, API family, the models it lists
  net::Api api = net::Api::kOpenAiCompletions;  // the API the load speaks
  std::vector<std::string> models;              // the server's model ids, one run after another
  // The file a local server serves (a loopback URL and llama-server's /props model_path, found
  // on this machine, model::check_model_file with its fingerprint): the served runs carry its
  // identity, as bench's records of that file do, so compare puts them in the same model's
  // rows; nullopt otherwise (the model is then named by its id, served_model_name).
  std::optional<ModelInfo> model_file;
};

// Asks the server at `url` through `client` what it is (net::probe_server) and which models
// to load: the API `forced` (--api), else the detected family's (openai-completions or
// ollama-generate); each name of `wanted` checked against the server's list (none: the one it
// has loaded, net::choose_model), all before the first run. Messages never hold `api_key`.
// Errors: the probe's (kRuntime naming the URL: unreachable, 401/403, neither API answering);
// kRuntime for a model the server does not have, naming the ones it has. A model file that
// cannot be read here leaves ServeTarget::model_file unset (not an error).
Result<ServeTarget> probe_serve_target(net::HttpClient& client, const net::Url& url,
                                       const std::optional<net::Api>& forced, const std::vector<std::string>& wanted,
                                       const std::string& api_key);

// A whole `serve-bench` job (generation).
struct ServeJob {
  net::Url url;
  net::ClientOptions client;  // the API key (never printed or stored), the timeouts
  ServeTarget target;
  // The client the target was probed with: llama-server's /tokenize makes the random prompts
  // exactly n_prompt tokens long (openai-completions on llama.cpp). Null: words only.
  net::HttpClient* tokenizer = nullptr;
  std::vector<int> concurrency{1};  // requests in flight: one run per value, per model, in this order
  double rate = 0;                  // requests/s, open loop (at most `concurrency` in flight); 0 or infinity = closed loop
  double burstiness = 1;            // the open loop's gamma shape (measure/serve_load.h ArrivalGaps): 1 = Poisson
  int prefix_tokens = 0;            // a shared prefix of this many tokens before random prompts (add_shared_prefix)
  double prefix_share = 1;          // the share of the prompts that carry it, 0..1 (which ones: drawn from `seed`)
  int turns = 1;                    // multi-turn chats: turns per session (LoadOptions::turns; text prompts then)
  double think_time_s = 0;          // seconds between a session's answer and its next turn
  // Requests counted per run; <= 0: 8 per concurrent request, at least 16 (none with a duration:
  // the duration bounds the run).
  int num_requests = -1;
  double duration_s = 0;                  // seconds per run (with num_requests: the first to end); 0 = none
  int warmup = 1;                         // requests before each run, one at a time, not counted
  bool ignore_eos = true;                 // ask for exactly n_gen tokens (ignore_eos, min_tokens)
  int n_prompt = 128;                     // tokens of each random prompt
  int n_gen = 128;                        // output tokens asked for per request
  std::string prompts_file;               // --prompts as given; "" = random prompts
  std::vector<ServePrompt> file_prompts;  // its prompts (read_prompt_file), cycled; empty with random prompts
  // --trace: its requests (read_trace), replayed in each run at their times / trace_scale with
  // random prompts of their lengths (the run's seed), at most the run's concurrency in flight;
  // the warm-up sends the trace's first requests' lengths. Empty: none.
  std::vector<TraceRequest> trace;
  std::string trace_file;  // --trace as given
  double trace_scale = 1;  // --trace-scale (> 0)
  Slo slo;                                // goodput's objectives (and the capacity sweep's)
  // A capacity sweep instead of the concurrency list: the loads measure/capacity.h chooses,
  // by concurrency, or by rate with at most max(concurrency) requests in flight; nullopt off.
  std::optional<CapacityOptions> capacity;
  std::string slo_text;                   // --slo as given, kept in the records
  uint64_t seed = 0;                   // the random prompts' and arrivals' seed; each run mixes in its place (run_seed)
  bool save_responses = false;         // keep each counted request's prompt and answer (ServeJobResult::responses)
  std::optional<EnergyConfig> energy;  // --energy auto: an idle window per run, then its loaded window; nullopt = off
  hw::KernelPaths kernel;              // where this machine's activity is read (measure/noise.h): each run's notes
  MachineInfo machine;                 // what every record shares
  BuildInfo build;
  std::vector<std::string> tags;
  const std::atomic<bool>* stop = nullptr;  // Ctrl-C: cancel what is in flight, start no more run
};

// The notes of this machine's watch over one load run (MachineWatch::finish) that a served
// run carries: steal, thermal throttling and the governor as bench's; machine_busy only for a
// server elsewhere (`server_is_local` false), since a server beside the client is itself the
// other process whose CPU time the note counts.
std::vector<NoiseNote> client_machine_notes(std::vector<NoiseNote> notes, bool server_is_local);

// What a job tells its caller while it runs, on the calling thread.
struct ServeJobHooks {
  // One line per counted request as it ends ("c=4: 12/32 requests, 1 error (timeout 1)", the
  // model first when the job has several); empty: no progress.
  std::function<void(const std::string& line)> progress;
  // After each run's requests, before its record (a progress line is cleared here).
  std::function<void()> load_ended;
};

// How a job went.
struct ServeJobResult {
  std::vector<RunRecord> runs;  // every run handed to the sink (one with requests), in order
  // With ServeJob::save_responses: one JSON line per counted request (canceled ones left out)
  // of every run: {"record_id", "model", "concurrency", "prompt" or "prompt_token_ids",
  // "response", "error"}.
  std::string responses;
  // What ended the job before its last run, one line (the runs before are in `runs`): a warm-up
  // that failed outright (kRuntime: the server cannot serve this load; nothing of that run is
  // kept), the server lost (kRuntime; that run is kept, marked failed), the client's own failure
  // (kRuntime; that run kept, marked interrupted), the sink's error, the meters' start.
  Status error;
  bool interrupted = false;   // Ctrl-C (or the client's failure): the run in progress kept with its finished requests
  int runs_all_failed = 0;    // runs whose every counted request failed
  std::string first_failure;  // the first such run's first error
  // Several models with a price: each model's last run priced (cost::model_costs); nullopt
  // otherwise, or when no run gave a figure.
  std::optional<cost::ModelCosts> model_costs;
};

// Runs every model of job.target at every concurrency of `job` (or, with job.capacity, at each
// load of its capacity sweep: every run's record says whether it met job.slo, the sweep's last
// one carries the answer, ServerRun::capacity), one run after another. Each
// run: its own prompts and arrivals (run_seed), the energy's idle window, the warm-up and the
// counted requests (run_load), then one record (a fresh record_id, test_time, the machine,
// build and tags, the knobs, the server's part with every metric of the run, TTFT samples,
// the output t/s as tg, J per output token over the loaded window and its cost) handed to
// `sink` when the run counted a request. Never fails as a whole: what ended it early is
// ServeJobResult::error.
ServeJobResult run_serve_job(const ServeJob& job, const RecordSink& sink, const ServeJobHooks& hooks = {});

// The job's exit status, once its output is printed, the first that holds: kInterrupted
// "interrupted before any request finished: nothing measured, nothing stored" when Ctrl-C
// came before any run was kept; result.error; kInterrupted "interrupted: N runs kept with the
// requests that finished" (N = `stored`, the records the sink stored); kRuntime "URL: every
// request of N runs failed: FIRST ERROR" (never the API key); else success.
Status serve_job_status(const ServeJob& job, const ServeJobResult& result, int stored);

// The job's line on stderr before the first run: "URL: SOFTWARE VERSION, API A, model M",
// with ", seed S (--seed repeats these prompts)" when `seed_drawn` (no --seed, random prompts).
std::string serve_job_intro(const ServeJob& job, bool seed_drawn);

}  // namespace rigbench::measure
