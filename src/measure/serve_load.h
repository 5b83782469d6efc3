// rigbench: the load generator of `serve-bench`: requests to a server's streaming API at a
// fixed concurrency (a closed loop: each of N workers sends its next request when its last
// one ends) or at a request rate (Poisson arrivals, at most N in flight), until a number of
// requests or a duration, whichever comes first; both are always bounded. Warm-up requests
// go first, one at a time through the same client, and are not counted. Ctrl-C (the `stop` flag) cancels the
// requests in flight; the finished ones are kept.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/status.h"
#include "measure/serve_metrics.h"
#include "net/http_client.h"
#include "net/protocol.h"
#include "net/url.h"

namespace rigbench::measure {

// One prompt: text (or token ids for openai-completions) and the output length asked for.
struct ServePrompt {
  std::string text;
  std::vector<int> tokens;  // non-empty: sent as token ids (openai-completions)
  int max_tokens = 128;
  int input_tokens = -1;  // the prompt's length in tokens when the client knows it, else -1
};

// `count` prompts of random words (seeded), each of about `input_tokens` tokens: one common
// English word per token. When `tokenize` is given (llama-server's /tokenize), it is called
// once, on one long random text, and each prompt is a window of exactly `input_tokens` of its
// token ids at a random (seeded) offset.
std::vector<ServePrompt> random_prompts(int count, int input_tokens, int output_tokens, uint64_t seed,
                                        const std::function<Result<std::vector<int>>(const std::string&)>& tokenize);

// The same with a length of its own for each prompt (a trace's requests, measure/serve_trace.h):
// prompt i has lengths[i].first input tokens (words, or token ids from one /tokenize call, a
// window of the longest's text) and asks for lengths[i].second output tokens.
std::vector<ServePrompt> random_prompts_of(const std::vector<std::pair<int, int>>& lengths, uint64_t seed,
                                           const std::function<Result<std::vector<int>>(const std::string&)>& tokenize);

// A shared prefix (a system prompt, as chats have: the server's prompt cache then serves it):
// `prefix_tokens` random words (seeded by `seed`; one token each, or, when `tokenize` is
// given, its token ids cut to exactly `prefix_tokens`) put before the text or token ids of
// `share` (0..1) of `prompts`: round(share x prompts.size()) of them, which ones drawn from
// `seed` (every prompt at 1, none at 0); a known input_tokens grows by it. Nothing when
// prefix_tokens <= 0.
void add_shared_prefix(std::vector<ServePrompt>& prompts, int prefix_tokens, uint64_t seed,
                       const std::function<Result<std::vector<int>>(const std::string&)>& tokenize,
                       double share = 1);

// The gaps between open-loop arrivals at `rate` requests/s: gamma-distributed with shape
// `burstiness` and mean 1/rate s (vLLM's --burstiness): 1 exponential (Poisson arrivals), below
// 1 burstier, above 1 more even, infinity exactly 1/rate; drawn in order from `seed`.
class ArrivalGaps {
 public:
  ArrivalGaps(double rate, double burstiness, uint64_t seed);
  double next();  // seconds

 private:
  std::mt19937_64 rng_;
  std::gamma_distribution<double> gamma_;
  double even_s_ = 0;  // > 0: every gap this long (burstiness infinity)
};

// The seed of one run's random prompts and arrivals: `seed` mixed with the model's and the
// concurrency step's places in the job (splitmix64), so no two runs of a job send the same
// prompts (a server's prompt cache would answer the later run's from the earlier's).
uint64_t run_seed(uint64_t seed, std::size_t model_index, std::size_t step_index);

// A JSONL prompt file: one object a line, {"prompt": "..."} (or a prompt suite's "text") or
// {"messages": [{"role": "user", "content": "..."}, ...]} (the contents joined), with
// "max_tokens" (or "output_tokens", or a suite's "n_gen", else `default_output_tokens`).
// "builtin" reads bench's built-in prompt suite (measure/prompt_suite.h builtin_suite_path()).
// Errors: kNotFound, kInvalidInput naming the file and the line.
Result<std::vector<ServePrompt>> read_prompt_file(const std::string& spec, int default_output_tokens);

struct LoadOptions {
  net::Url url;
  net::ClientOptions client;
  net::Api api = net::Api::kOpenAiCompletions;
  std::string model;
  int concurrency = 1;    // workers (closed loop), or the most requests in flight under a rate
  double rate = 0;        // requests/s, open loop (ArrivalGaps); 0 or infinity = closed loop
  double burstiness = 1;  // the arrival gaps' gamma shape (ArrivalGaps): 1 = Poisson
  // A trace's times (measure/serve_trace.h trace_arrivals): counted request i is sent at
  // arrival_s[i] seconds after the counted run starts (at most `concurrency` in flight; one that
  // cannot start at its time starts when one ends), instead of `rate`; empty: none.
  std::vector<double> arrival_s;
  // Multi-turn chats (closed loop only): each of `concurrency` sessions sends `turns` requests,
  // each after the last one's answer and `think_time_s`, re-sending the session's history (its
  // prompts and answers, as text) before the next prompt; then a new session. 1 = single turns.
  int turns = 1;
  double think_time_s = 0;
  int num_requests = 0;   // requests counted; 0 = until the duration
  double duration_s = 0;  // seconds of the counted run; 0 = until num_requests
  int warmup = 1;         // requests before, one at a time, not counted
  bool ignore_eos = true;
  bool save_responses = false;              // keep each answer's text in RequestTrace::response
  uint64_t seed = 42;                       // Poisson arrivals
  std::vector<ServePrompt> prompts;         // cycled
  const std::atomic<bool>* stop = nullptr;  // set: cancel what is in flight, start nothing more
  // When every warm-up request failed, send nothing more (the server cannot serve this load:
  // wrong model, 401, no stream) and say so in LoadResult::warmup_failed.
  bool stop_if_warmup_fails = true;
  // A lost server: after this many counted requests in a row were refused (nothing listens at
  // the URL any more), nothing more is sent (LoadResult::server_lost); 0 = never. With it, a
  // server that stops listening while its streams stall (llama-server after SIGTERM holds them
  // 30 s) is lost too: when no byte came for `stall_probe_s` with requests in flight, a new
  // connection is tried (a GET of net::ping_path); refused, or 3 such pings in a row
  // unanswered within 2 s, the server is gone.
  int lost_after_refused = 0;
  double stall_probe_s = 1.0;
  // Called once between the warm-up and the counted requests (energy: the loaded window starts).
  std::function<void()> before_counted;
};

// The most requests one run sends when only a duration bounds it.
inline constexpr int kMaxRequestsPerRun = 1'000'000;

struct LoadResult {
  std::vector<RequestTrace> warmup;    // the warm-up requests
  std::vector<RequestTrace> requests;  // the counted requests, in the order they ended
  double duration_s = 0;               // first counted request sent .. last one ended
  // What the client cost while the counted requests ran: this process's CPU time (user +
  // system, every thread; getrusage) over the wall time from the first counted request sent
  // to the loop's end, in % of one core. Start-up, the server's detection and the warm-up are
  // outside it. NaN when no counted request was sent.
  double client_cpu_pct = std::numeric_limits<double>::quiet_NaN();
  bool interrupted = false;
  bool warmup_failed = false;  // every warm-up request failed; no counted request was sent
  // LoadOptions::lost_after_refused requests in a row were refused: the server went away, the
  // run stopped there (what was in flight ended; the requests that ended are kept).
  bool server_lost = false;
  // Why, one phrase ("5 requests in a row refused", "it stopped accepting connections while 2
  // requests stalled"); the requests that stalled end failed (cut), not canceled.
  std::string lost_reason;
  // Non-empty: the client itself failed (the system refused a file descriptor or memory to its
  // event loop; net::StreamLoop's errors), one line. The requests in flight were canceled,
  // nothing more was sent, `interrupted` is true; the requests that ended are kept.
  std::string client_error;
};

// Runs the load: the warm-up and every counted request on one thread (net::StreamLoop, one
// event loop over the connections). `on_done` (optional) is called for each counted request
// as it ends, on the calling thread (for progress and error counts while the run goes on).
LoadResult run_load(const LoadOptions& options, const std::function<void(const RequestTrace&)>& on_done = {});

}  // namespace rigbench::measure
