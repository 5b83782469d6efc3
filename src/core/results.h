// rigbench: results built from raw samples. Pure functions, no I/O: every producer of a
// record (the runner, JSON import, llama-bench import) makes its statistics the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/record.h"

namespace rigbench {

// A throughput result: per-sample tokens/s = 1e9 * n_tokens / samples_ns, and their statistics;
// with `itl_ns` (tg: each generated token's latency), their statistics in ms too.
ThroughputResult make_throughput(int n_tokens, std::vector<int64_t> samples_ns, std::vector<int64_t> itl_ns = {});

// A summary-only throughput result (ThroughputResult::summary_only): no samples, the
// statistics as a source stated them: `n` repetitions (0 = not stated), mean and sample
// standard deviation in tokens/s; median, min, max and the percentiles NaN.
ThroughputResult make_summary_throughput(int n_tokens, std::size_t n, double mean_tps, double stddev_tps);

// A latency result: statistics of the samples in milliseconds.
LatencyResult make_latency(std::vector<int64_t> samples_ns);

// Embedding throughput at one batch size: per pass texts/s = 1e9 * n_texts / ns and tokens/s
// = 1e9 * n_tokens / ns, and their statistics.
EmbedThroughput make_embed_throughput(int batch_size, int n_texts, int n_tokens, std::vector<int64_t> samples_ns);

}  // namespace rigbench
