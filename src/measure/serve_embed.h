// rigbench: `serve-bench --embeddings`, an embedding server (/v1/embeddings, Ollama's
// /api/embed) timed as `rigbench embed` times a model in process (measure/embed.h), so that
// both give one EmbeddingResult and one table (report/embed_table.h):
//
//   latency:    `warmup` untimed requests; then per repetition, per query in the set's order,
//               one request of that one text: t0 (before the request is written); the whole
//               answer read; t1. `concurrency` workers take the queries in order, so at 1 it is
//               single-query latency at batch 1, and at N the latency with N in flight.
//   throughput: per batch size b: one untimed request of the first b texts per warmup; then per
//               repetition t0; the whole set in requests of b texts (measure::batch_ranges),
//               `concurrency` in flight; t1. texts/s = n_queries / (t1 - t0); tokens/s from
//               the server's usage (prompt_tokens, prompt_eval_count) when it reports them.
//
// Times from std::chrono::steady_clock, ns. Failed requests are counted by kind (the run goes
// on) and give no sample; a pass with a failed request gives no throughput sample.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "net/http_client.h"
#include "net/url.h"

namespace rigbench::measure {

struct ServeEmbedSpec {
  net::Url url;
  net::ClientOptions client;
  bool ollama = false;  // /api/embed, else /v1/embeddings
  std::string model;
  std::vector<std::string> queries;
  std::string query_set = "builtin";
  std::vector<int> batch_sizes{1, 8, 32, 128};
  int repetitions = 3;
  int warmup = 1;
  int concurrency = 1;
  const std::atomic<bool>* stop = nullptr;  // set: finish the request in flight, start nothing more
  // Called with true when the counted requests start (after the warm-up) and again after each
  // batch size's warm-up, with false before each such warm-up and at the end: energy's loaded
  // window (the "pp" phase) covers the counted requests only.
  std::function<void(bool counting)> on_counting;
};

struct ServeEmbedOutcome {
  EmbeddingResult result;
  int requests = 0;  // counted requests (warm-up excluded)
  int failed = 0;
  std::map<std::string, int> errors;  // by net::error_kind_key
  std::string first_error;            // one line, never the API key
  double duration_s = 0;              // the counted requests' wall time
  bool interrupted = false;
  // What the counted requests that succeeded embedded: texts, and their tokens as the server's
  // usage states them (tokens_known false when an answer did not state them).
  int64_t texts = 0;
  int64_t tokens = 0;
  bool tokens_known = true;
};

// Runs `spec`. Errors (kRuntime, one line naming the URL and path): every warm-up request
// failed (no embeddings endpoint, unknown model, 401, an answer that is not embeddings).
Result<ServeEmbedOutcome> run_serve_embed(const ServeEmbedSpec& spec,
                                          const std::function<void(const std::string&)>& progress = {});

}  // namespace rigbench::measure
