#include "core/results.h"

namespace rigbench {

ThroughputResult make_throughput(int n_tokens, std::vector<int64_t> samples_ns, std::vector<int64_t> itl_ns) {
  ThroughputResult r;
  r.n_tokens = n_tokens;
  r.samples_ns = std::move(samples_ns);
  r.samples_tps = tokens_per_second(r.samples_ns, n_tokens);
  r.tps = summarize(r.samples_tps);
  r.itl_ns = std::move(itl_ns);
  r.itl_ms = summarize(to_milliseconds(r.itl_ns));
  return r;
}

ThroughputResult make_summary_throughput(int n_tokens, std::size_t n, double mean_tps, double stddev_tps) {
  ThroughputResult r;
  r.n_tokens = n_tokens;
  r.summary_only = true;
  r.tps.n = n;
  r.tps.mean = mean_tps;
  r.tps.stddev = stddev_tps;
  r.tps.median = r.tps.min = r.tps.max = kUnmeasured;
  r.tps.p90 = r.tps.p95 = r.tps.p99 = kUnmeasured;
  return r;
}

LatencyResult make_latency(std::vector<int64_t> samples_ns) {
  LatencyResult r;
  r.samples_ns = std::move(samples_ns);
  r.ms = summarize(to_milliseconds(r.samples_ns));
  return r;
}

EmbedThroughput make_embed_throughput(int batch_size, int n_texts, int n_tokens, std::vector<int64_t> samples_ns) {
  EmbedThroughput r;
  r.batch_size = batch_size;
  r.n_texts = n_texts;
  r.n_tokens = n_tokens;
  r.samples_ns = std::move(samples_ns);
  r.texts_per_s = summarize(tokens_per_second(r.samples_ns, n_texts));
  r.tokens_per_s = summarize(tokens_per_second(r.samples_ns, n_tokens));
  return r;
}

}  // namespace rigbench
