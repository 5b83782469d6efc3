// rigbench: the options of `rigbench serve-bench`: the flags, declared once (CLI11) so that
// parsing, --help and defaults cannot drift, and their check, separate from parsing, with
// messages that name the flag. What the command does with them: cli/serve_bench_command.h.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/cost_flags.h"
#include "core/status.h"
#include "measure/capacity.h"
#include "measure/serve_metrics.h"
#include "net/http_client.h"
#include "net/protocol.h"
#include "net/url.h"
#include "report/table.h"

namespace rigbench::cli {

// --trace without --concurrency: the most requests in flight (the trace's times set the load).
inline constexpr int kTraceInFlight = 64;

struct ServeBenchOptions {
  std::string url;  // positional
  std::string api;  // --api: openai, openai-chat, openai-completions, ollama, ollama-generate, ollama-chat; "" = detect
  std::vector<std::string>
      models;           // -m, --model a,b,c: the server's model names, run one after another; none = the loaded one
  std::string api_key;  // --api-key, else $OPENAI_API_KEY; never printed or stored
  std::vector<int> concurrency{1};  // --concurrency 1,4,16
  bool concurrency_given = false;   // --concurrency was given (with --trace the default is kTraceInFlight)
  double rate = 0;                  // --rate: requests/s (open loop); 0 = closed loop; inf = all at once (closed loop)
  double burstiness = 1;            // --burstiness: the arrival gaps' gamma shape; 1 = Poisson, inf = even gaps
  int prefix_tokens = 0;            // --prefix-tokens: a shared prefix before random prompts
  std::optional<double> prefix_share;  // --prefix-share: the share of prompts carrying it, 0..1; unset: 1
  int turns = 1;                    // --turns: multi-turn chat sessions, turns each (closed loop)
  double think_time_s = 0;          // --think-time: seconds between a session's answer and its next turn
  int num_requests = -1;            // --num-requests; -1 = default (unless --duration-seconds)
  double duration_s = 0;            // --duration-seconds
  int warmup = 1;                   // --warmup
  bool no_warmup = false;           // --no-warmup (llama-bench's spelling): as --warmup 0
  int n_prompt = 128;               // -p, --n-prompt: random prompt tokens
  int n_gen = 128;                  // -n, --n-gen: output tokens asked for
  std::string prompts_file;         // --prompts FILE (JSONL)
  std::string trace;                // --trace FILE (JSONL: arrival_s, input_tokens, output_tokens)
  double trace_scale = 1;           // --trace-scale: the trace's rate multiplied by this (its times divided)
  std::string slo;                  // --slo ttft_ms=500,tpot_ms=50 or ttft_p95_ms=2000,tpot_p95_ms=100
  std::string capacity;             // --capacity concurrency|rate: a capacity sweep; "" = the --concurrency list
  double capacity_max = 64;         // --capacity-max: the largest load the sweep's ramp tries
  double timeout_s = 60;            // --timeout-seconds
  // --seed: the random prompts' and arrivals' seed; unset: a fresh one each invocation (said
  // on stderr), so a second invocation against the same server does not re-send the first's
  // prompts (its prompt cache would answer them)
  std::optional<uint64_t> seed;
  bool no_ignore_eos = false;  // --no-ignore-eos
  std::string save_responses;  // --save-responses FILE: prompts and answers as JSONL (never kept by default)
  // --embeddings: time the server's embeddings endpoint (/v1/embeddings, Ollama's /api/embed)
  // as `rigbench embed` times a model: latency per text, texts/s per batch size.
  bool embeddings = false;                      // --embeddings
  std::string queries;                          // --queries FILE (embed's format); "" = the built-in set
  std::vector<int> batch_sizes{1, 8, 32, 128};  // -b, --batch-size: texts per request, list
  int repetitions = 3;                          // -r, --repetitions: passes over the query set
  std::string output = "md";                    // -o
  bool wide = false;                            // --wide
  std::string db_path;                          // --db
  bool no_db = false;                           // --no-db
  std::vector<std::string> tags;                // --tag
  std::string machine;                          // --machine: the machine's name in the records (as bench)
  bool progress = false;                        // --progress (cli/progress_flags.h)
  bool no_progress = false;                     // --no-progress
  // Energy and cost with bench's meters (the server must run on this machine): an idle window
  // with the model loaded, then the loaded window (warm-up excluded).
  std::string energy = "off";  // --energy auto|off
  double idle_s = 5;           // --idle-seconds
  double watts = 0;            // --watts
  std::string power_log;       // --power-log
  double estimate_tdp_w = 0;   // --estimate-power
  CostFlags cost;              // --price, --tariff, --idle-watts, ... (as bench)
};

// Declares the flags of `serve-bench` on `cmd`, bound to `opts`; each number's range is
// checked as it is parsed (int_range, range: one message shape).
void add_serve_bench_options(CLI::App& cmd, ServeBenchOptions& opts);

// What the checked flags give the job before the server is asked anything.
struct ServeBenchFlags {
  net::Url url;                    // the positional, parsed
  std::optional<net::Api> forced;  // --api; nullopt: detected
  net::ClientOptions client;       // --api-key (else $OPENAI_API_KEY), --timeout-seconds (connecting: at most 10 s)
  measure::Slo slo;                // --slo
  std::optional<measure::CapacityOptions> capacity;  // --capacity (with --rate as the first rate), --capacity-max
  report::OutputFormat format = report::OutputFormat::kMarkdown;  // -o
  bool show_progress = false;  // --progress / --no-progress, given whether stderr is a terminal
};

// Checks and completes parsed options (--no-warmup sets warmup 0). Errors (kUsage, naming the
// flag): --concurrency without a value, --progress with --no-progress, a bad --slo, --api,
// URL or -o, --capacity without --slo or with a --rate above --capacity-max, and with
// --embeddings a flag only generation uses.
Result<ServeBenchFlags> check_serve_bench_options(ServeBenchOptions& opts);

}  // namespace rigbench::cli
