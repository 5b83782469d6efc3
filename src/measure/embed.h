// rigbench: the `embed` use case. Times an embedding model through engine::Embedder:
//
//   latency:    a context for one text; `warmup` untimed calls; then per repetition, per query
//               in the set's order: t0; embed({query}) (its pooled embedding read); t1.
//               One sample per query and repetition: single-query latency at batch 1.
//   throughput: per batch size b (in the order given): a context for b texts; one untimed
//               call of the first b texts per warmup; then per repetition t0; the whole set
//               in calls of b texts (the last call may hold fewer); t1. One sample per pass:
//               texts/s = n_queries / (t1 - t0), tokens/s = the set's tokens / (t1 - t0).
//               Batch size 1 is not run again: its passes are the latency passes (the same
//               calls of one text each), each pass's wall time one sample.
//
// Times come from std::chrono::steady_clock, in ns. The model's own pooling is used (no
// override): what a server of this GGUF would compute.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/record.h"
#include "core/repetitions.h"
#include "core/status.h"
#include "engine/embedder.h"

namespace rigbench::measure {

inline const std::vector<int> kDefaultEmbedBatchSizes = {1, 8, 32, 128};

struct EmbedSpec {
  std::string model_path;
  std::vector<std::string> queries;
  std::string query_set = "builtin";  // "builtin" or the file as given
  std::vector<int> batch_sizes = kDefaultEmbedBatchSizes;
  BenchParams params;  // n_threads, n_gpu_layers, load_mode, flash_attn, poll, repetitions, warmup
  // How many passes each phase gets (core/repetitions.h): automatic (-r auto) until the 95 %
  // interval of the phase's per-pass figure (latency: the pass's mean ms; a batch size: its
  // texts/s) is within ci_target_pct, at least kAutoMinRepetitions, within max_time_s of the
  // phase's passes, where the budget ends a phase from its second pass on (a pass is the whole
  // set: long on a busy machine); not automatic: exactly params.repetitions passes
  // (rule.repetitions unused).
  RepetitionRule rule;
};

struct EmbedOutcome {
  EmbeddingResult result;
  std::vector<BufferMemory> memory;  // llama.cpp's breakdown for the largest batch's context
  std::vector<std::string> devices_used;
  bool interrupted = false;  // cancel was set; the result holds the finished samples
  // Why the phases' passes ended: the weakest reason over the phases ("max_time" or "cap" when
  // one phase stopped so, else "target" or "count"; "interrupted"), and whether every phase's
  // interval is within the target (asked of -r N too).
  std::string stopped_by;
  bool reached = false;
  int latency_passes = 0;  // passes over the query set at batch 1
};

// The calls of one pass over `n_texts` texts in batches of `batch_size`: [first, end) ranges.
std::vector<std::pair<std::size_t, std::size_t>> batch_ranges(std::size_t n_texts, int batch_size);

// The most tokens any one call of batch_ranges(token_counts.size(), batch_size) holds.
int max_batch_tokens(const std::vector<int>& token_counts, int batch_size);

// Runs `spec` on `embedder` (the model is loaded here). `progress` (may be empty) gets one
// short line per phase and one per pass ("latency at batch 1: pass 2 of 64 queries, 4.46 ms
// mean, ±1.3 % (target ±2 %)"). Errors: the embedder's (kInvalidInput for a model llama.cpp cannot
// load, kRuntime); kInvalidInput naming the query (1-based) that is longer than the model's
// training context. Cancellation is not an error: see EmbedOutcome::interrupted.
Result<EmbedOutcome> run_embed(engine::Embedder& embedder, const EmbedSpec& spec, const std::atomic<bool>& cancel,
                               const std::function<void(const std::string&)>& progress = {});

}  // namespace rigbench::measure
