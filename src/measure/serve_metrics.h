// rigbench: what `serve-bench` measures, per request and per run, from the times the client
// saw (no I/O: the load generator records the times, these compute from them).
//
// Per request (the definitions of vLLM's `bench serve` and GuideLLM): TTFT = first streamed
// text - request sent; ITL = every gap between streamed text pieces; TPOT = (E2E - TTFT) /
// (output tokens - 1); E2E = last byte - request sent. Output tokens are the server's usage
// when it reports them, else its own count (llama-server's timings.predicted_n), else the
// pieces counted; input tokens the usage, else its timings' prompt_n + cache_n, else the
// client's count, else unknown (-1, never 0). Per run: mean, p50, p90, p95, p99 of each
// (core/stats.h summarize(), one percentile definition), requests/s, output and total
// tokens/s over the run's wall time, goodput (requests/s meeting every SLO given), errors by
// kind, and the server's own timings beside the client's.
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/results.h"
#include "core/stats.h"
#include "core/status.h"
#include "net/http_client.h"
#include "net/protocol.h"
#include "net/stream_reader.h"

namespace rigbench::measure {

// What the client saw of one request; times in seconds since the run started (steady clock).
struct RequestTrace {
  double start_s = 0;            // request sent
  std::vector<double> token_s;   // arrival of each streamed text piece (content or reasoning)
  double content_s = -1;         // arrival of the first content piece (not reasoning); -1 none
  double end_s = 0;              // answer over (or failed)
  int asked_output_tokens = 0;   // max_tokens asked for
  int prompt_tokens = -1;        // the server's usage; -1 = not reported
  int completion_tokens = -1;    // idem
  int client_input_tokens = -1;  // the prompt's length as the client built it (-1 unknown)
  net::ErrorKind error = net::ErrorKind::kNone;
  std::string error_message;  // one line; never holds the API key
  int http_status = 0;
  net::ServerTimings server;     // the server's own figures (llama-server timings, Ollama durations)
  std::string response;          // the generated text, only with LoadOptions::save_responses
  std::size_t prompt_index = 0;  // the prompt sent: LoadOptions::prompts[prompt_index % size]
  int turn = 1;                  // the turn of its session (LoadOptions::turns), 1 the first
  // "load" / "unload": the answer was Ollama's reply to a model load or unload (no generation):
  // not a request of the run, never counted (net::StreamReader::model_event); "" else.
  std::string model_event;
};

struct RequestMetrics {
  double ttft_ms = kNaN;          // to the first piece, content or reasoning
  double ttft_content_ms = kNaN;  // to the first content piece (after the reasoning); NaN none
  double tpot_ms = kNaN;          // NaN with fewer than 2 output tokens
  double e2e_ms = kNaN;
  std::vector<double> itl_ms;
  int input_tokens = -1;  // server usage, else the client's count; -1 unknown
  int output_tokens = 0;  // server usage, else the pieces counted
  bool output_from_server = false;
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
};

RequestMetrics request_metrics(const RequestTrace& trace);

// Service-level objectives; NaN = not set. A request meets them when each set one holds
// (goodput); a run meets them when each set one's percentile over its completed requests
// holds (a capacity sweep, measure/capacity.h): `*_percentile` 50, 90, 95 or 99 (given as
// ttft_p95_ms=...), or 100 where the key names none (ttft_ms=...: every request).
struct Slo {
  double ttft_ms = RequestMetrics::kNaN;
  double tpot_ms = RequestMetrics::kNaN;
  double e2e_ms = RequestMetrics::kNaN;
  int ttft_percentile = 100, tpot_percentile = 100, e2e_percentile = 100;
  bool any() const;
};
// "ttft_ms=500,tpot_ms=50[,e2e_ms=2000]", or with percentiles "ttft_p95_ms=2000,tpot_p95_ms=100,
// e2e_p99_ms=8000" (p50, p90, p95, p99). Errors: kUsage naming --slo and the bad part.
Result<Slo> parse_slo(std::string_view text);
bool meets(const RequestMetrics& m, const Slo& slo);

// One run (one concurrency or rate) of many requests.
struct ServeRunMetrics {
  int requests = 0;   // sent and finished (ok or failed), warm-up excluded
  int load_replies = 0;  // Ollama's load/unload replies that came instead of an answer: not requests
  int completed = 0;  // ok
  int failed = 0;
  std::map<std::string, int> errors;         // by net::error_kind_key: refused, http_status, malformed_stream, ...
  std::string first_error;                   // the first failure's message (one line)
  double duration_s = 0;                     // wall time of the run
  Summary ttft_ms, tpot_ms, itl_ms, e2e_ms;  // over completed requests (itl: every gap of every request)
  Summary ttft_content_ms;                   // over completed requests that streamed content
  Summary ttft_later_turns_ms;               // over completed requests of turn 2 and later (multi-turn chats)
  // TTFT through the run: the TTFT median of the later half of the completed requests (by the
  // time each was sent) over that of the earlier half; above 1 the server's queue grew while
  // the run went on. NaN with fewer than 4 completed requests.
  double ttft_rise = RequestMetrics::kNaN;
  // input_tokens: over the completed requests whose input is known (the server's usage, else
  // the client's count); n = 0 when none is (a server that reports none: unknown, never 0)
  Summary input_tokens, output_tokens;
  int64_t total_input_tokens = 0, total_output_tokens = 0;
  double request_rate = 0;  // completed requests / s
  double output_tps = 0;    // output tokens / s
  double total_tps = 0;     // (input + output) tokens / s; NaN when a completed request's input is unknown
  int good_requests = 0;    // completed requests meeting the SLO (all completed when none is set)
  double goodput = 0;       // good requests / s
  int output_short = 0;     // completed requests whose output tokens != asked (the server did not honour the length)
  // The server's own figures, where it reported them (NaN otherwise): its generation rate and
  // prompt time, beside the client's generation rate and TTFT. Both rates are ratios of sums
  // over the same requests (those with server timings and a TPOT), never means of per-request
  // rates: one request whose tokens arrived together (a TPOT near 0) would make a mean of
  // 1000 / TPOT as large as it likes (24,902 t/s beside the server's 973).
  int server_reported = 0;  // completed requests carrying server timings
  double server_tg_tps = RequestMetrics::kNaN;  // sum(predicted_n) / sum(predicted_ms), tokens/s (llama-server's
                                                // timings.predicted_per_second for one request)
  double client_tg_tps = RequestMetrics::kNaN;  // sum(output tokens - 1) / sum(E2E - TTFT), tokens/s
  Summary server_prompt_ms;
  // Over the completed requests with server timings (NaN none): sum(prompt_n) / sum(prompt_ms)
  // (tokens/s it evaluated, its cache's excluded); mean prompt_n and cache_n per request;
  // sum(draft_n_accepted) / sum(draft_n) in %; Ollama's load_duration (ms).
  double server_prompt_tps = RequestMetrics::kNaN;
  double server_prompt_n_mean = RequestMetrics::kNaN;
  double server_cache_n_mean = RequestMetrics::kNaN;
  double server_draft_accepted_pct = RequestMetrics::kNaN;
  Summary server_load_ms;
  double tg_tps_diff_pct = RequestMetrics::kNaN;  // (client - server) / server, %
};

ServeRunMetrics summarize_run(const std::vector<RequestTrace>& traces, double duration_s, const Slo& slo);

// The run's tg figure, as its record keeps it (`results.tg`, read by compare, report, export
// and cost): the run's output t/s (every completed request's output tokens over the run's
// wall time, a ratio of sums, the table's "out t/s"), as one sample of `n_gen` tokens (the
// label, tg<n_gen>); one run is one measurement. Never per-request rates (1000 / TPOT): one
// request whose tokens arrive together would make their mean as large as it likes. Empty
// (nullopt) when no output token was counted.
std::optional<ThroughputResult> served_tg(const ServeRunMetrics& m, int n_gen);

}  // namespace rigbench::measure
