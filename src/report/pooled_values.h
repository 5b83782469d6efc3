// rigbench: the values of one metric pooled from several records, what a comparison's cell
// (report/comparison_row.h) is made of: their samples, the statistics of summary-only results,
// their energy flags and noise notes.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/stats.h"
#include "report/compare_metric.h"
#include "report/metric_values.h"

namespace rigbench::report {

// Values pooled from several records: raw samples, and the statistics of summary-only
// results, which have none.
struct PooledValues {
  std::vector<double> samples;
  std::optional<Summary> stated;   // the summary-only results, combined (core/stats.h combine)
  std::vector<std::string> flags;  // the energy flags of everything added, sorted, each once
  // The noise notes (RunRecord::noise) of the records added that concern the metric's test
  // (a pp row: pp's and the whole run's; tg, ITL, energy and cost: tg's and the whole run's),
  // each distinct note once, at most kMaxCellNoise; noise_more counts the distinct ones left out.
  std::vector<NoiseNote> noise;
  std::size_t noise_more = 0;
  // The strictest interval target (Precision::ci_target_pct) of the records added; NaN when none stated one.
  double ci_target_pct = std::nan("");

  void add(const MetricValues& v);
  // Adds what metric_values(rec, metric) holds, without making its test label (a view of
  // many records adds each record's values); false when the record holds no value of `metric`.
  // A record that stands for several runs (RunRecord::runs) adds a per-run value once per run.
  // Adds its noise notes and interval target too.
  bool add_values_of(const RunRecord& rec, Metric metric);
  // add_values_of without the noise notes and target.
  bool add_samples_of(const RunRecord& rec, Metric metric);
  // The statistics of everything added: summarize(samples), combined with `stated`. A
  // summary that does not state its n (0) counts as 2, the fewest that carry a spread,
  // when it is pooled with anything else; alone it is returned as it is.
  Summary summary() const;
  bool summary_only() const { return stated.has_value(); }
};
// The most distinct noise notes a cell keeps (PooledValues::noise).
inline constexpr std::size_t kMaxCellNoise = 8;

}  // namespace rigbench::report
