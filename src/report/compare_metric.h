// rigbench: the metrics a comparison has rows of (`rigbench compare`, the HTML report): pp and
// tg t/s, TTFT ms, J per generated token, electricity cost per million generated tokens, the
// memory llama.cpp allocated, and the distributions below; what each one's unit is and whether
// its rows are ranked.
#pragma once

#include <span>

namespace rigbench::report {

// kItl: each generated token's latency in tg (ms). kSuiteGen, kSuiteTtft: a prompt suite's
// per-prompt medians (generation t/s, TTFT ms; core/suite_stats.h), one row per suite name and
// content hash, so that two suites are never pooled. kEmbedLatency: `rigbench embed`'s
// single-query latency at batch 1 (ms, one value per query and repetition), one row per query
// set and its size.
enum class Metric { kPp, kTg, kTtft, kTgEnergy, kCost, kMemory, kItl, kSuiteGen, kSuiteTtft, kEmbedLatency };

struct MetricInfo {
  const char* key;        // "pp_tps", "tg_tps", "ttft_ms", "tg_j_per_token", "cost_per_mtok", "memory_bytes",
                          // "itl_ms", "suite_gen_tps", "suite_ttft_ms", "embed_latency_ms"
  const char* unit;       // "t/s", "ms", "J/token", "per Mtok", "bytes"
  bool higher_is_better;  // t/s: true; ms, J, cost, bytes: false
  bool ranked;            // whether rows of the metric have a winner and ratios
  bool per_repetition;    // one value per repetition (pp, tg, TTFT), else one per run, token (ITL), prompt (suites)
                          // or query (embedding latency)
};
// The description of `metric`: a static table, valid for the whole run.
const MetricInfo& metric_info(Metric metric);

// Every metric, in row order.
std::span<const Metric> all_metrics();

}  // namespace rigbench::report
