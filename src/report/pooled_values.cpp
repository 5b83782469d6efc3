#include "report/pooled_values.h"

#include <algorithm>

namespace rigbench::report {

namespace {

// A summary of unknown n (0) counts as 2 when pooled (PooledValues::summary).
Summary with_known_n(Summary s) {
  if (s.n == 0) s.n = 2;
  return s;
}

// The phase of a record's noise notes that concern a metric's rows ("" = none but the whole
// run's): TTFT is measured in the pp phase; ITL, energy and cost come from tg.
const char* noise_phase(Metric metric) {
  switch (metric) {
    case Metric::kPp:
    case Metric::kTtft: return "pp";
    case Metric::kTg:
    case Metric::kItl:
    case Metric::kTgEnergy:
    case Metric::kCost: return "tg";
    default: return "";
  }
}

// Adds the record's noise notes that concern `metric` and its interval target to `pooled`.
void add_noise_of(PooledValues& pooled, const RunRecord& rec, Metric metric) {
  const double target = rec.precision.ci_target_pct;
  if (std::isfinite(target) && !(pooled.ci_target_pct <= target)) pooled.ci_target_pct = target;
  if (rec.noise.empty() || metric == Metric::kMemory) return;
  const std::string phase = noise_phase(metric);
  for (const NoiseNote& n : rec.noise) {
    if (!n.phase.empty() && n.phase != phase) continue;
    const bool seen = std::any_of(pooled.noise.begin(), pooled.noise.end(), [&n](const NoiseNote& m) {
      return m.code == n.code && m.phase == n.phase && m.text == n.text;
    });
    if (seen) continue;
    if (pooled.noise.size() < kMaxCellNoise) pooled.noise.push_back(n);
    else ++pooled.noise_more;
  }
}

}  // namespace

void PooledValues::add(const MetricValues& v) {
  samples.insert(samples.end(), v.samples.begin(), v.samples.end());
  for (const std::string& f : v.flags) {
    const auto at = std::lower_bound(flags.begin(), flags.end(), f);
    if (at == flags.end() || *at != f) flags.insert(at, f);
  }
  if (v.stated) stated = stated ? combine(with_known_n(*stated), with_known_n(*v.stated)) : *v.stated;
}

bool PooledValues::add_values_of(const RunRecord& rec, Metric metric) {
  if (!add_samples_of(rec, metric)) return false;
  add_noise_of(*this, rec, metric);
  return true;
}

bool PooledValues::add_samples_of(const RunRecord& rec, Metric metric) {
  const Results& r = rec.results;
  switch (metric) {
    case Metric::kPp:
    case Metric::kTg: {
      const auto& t = metric == Metric::kPp ? r.pp : r.tg;
      if (!t || t->summary_only) break;  // summary-only: as metric_values states it, below
      if (t->samples_tps.empty()) return false;
      samples.insert(samples.end(), t->samples_tps.begin(), t->samples_tps.end());
      return true;
    }
    case Metric::kTtft:
      if (!r.ttft || r.ttft->samples_ns.empty()) return false;
      for (int64_t ns : r.ttft->samples_ns) samples.push_back(static_cast<double>(ns) / 1e6);  // to_milliseconds
      return true;
    default: break;  // one value per run: few
  }
  auto v = metric_values(rec, metric);
  if (!v) return false;
  // One value per run (energy, cost, memory, ITL): a record that stands for several runs
  // (RunRecord::runs, a pooled view) gives it once per run, as the runs one by one would.
  for (int k = 0; k < std::max(rec.runs, 1); ++k) add(*v);
  return true;
}

Summary PooledValues::summary() const {
  if (!stated) return summarize(samples);
  if (samples.empty()) return *stated;
  return combine(summarize(samples), with_known_n(*stated));
}

}  // namespace rigbench::report
