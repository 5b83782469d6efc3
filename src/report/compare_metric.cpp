#include "report/compare_metric.h"

namespace rigbench::report {

namespace {

// The metrics, in row order (all_metrics() lists the same). A record contributes the values
// of each metric it holds (metric_values()).
struct MetricDef {
  Metric metric;
  MetricInfo info;
};
constexpr MetricDef kMetrics[] = {
    {Metric::kPp, {"pp_tps", "t/s", true, true, true}},
    {Metric::kTg, {"tg_tps", "t/s", true, true, true}},
    {Metric::kTtft, {"ttft_ms", "ms", false, true, true}},
    {Metric::kTgEnergy, {"tg_j_per_token", "J/token", false, true, false}},
    {Metric::kCost, {"cost_per_mtok", "per Mtok", false, true, false}},
    {Metric::kMemory, {"memory_bytes", "bytes", false, false, false}},
    {Metric::kItl, {"itl_ms", "ms", false, true, false}},
    {Metric::kSuiteGen, {"suite_gen_tps", "t/s", true, true, false}},
    {Metric::kSuiteTtft, {"suite_ttft_ms", "ms", false, true, false}},
    {Metric::kEmbedLatency, {"embed_latency_ms", "ms", false, true, false}},
};

}  // namespace

const MetricInfo& metric_info(Metric metric) {
  for (const MetricDef& d : kMetrics) {
    if (d.metric == metric) return d.info;
  }
  return kMetrics[0].info;
}

std::span<const Metric> all_metrics() {
  static constexpr Metric kAll[] = {Metric::kPp,        Metric::kTg,          Metric::kTtft, Metric::kTgEnergy,
                                    Metric::kCost,      Metric::kMemory,      Metric::kItl,  Metric::kSuiteGen,
                                    Metric::kSuiteTtft, Metric::kEmbedLatency};
  return kAll;
}

}  // namespace rigbench::report
