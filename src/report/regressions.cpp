#include "report/regressions.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rigbench::report {

namespace {

struct GroupKey {
  std::string machine, model;          // labels, for order and display
  std::string machine_key, model_key;  // identities (two machines may share a label)
  std::string backends;                // build_backends(): a CPU and a Vulkan build are not a regression
  bool llama_bench = false;            // llama-bench's rows and rigbench's are two tools, not two builds
  int metric = 0, n = 0, depth = 0;
  std::string test, config;
  auto operator<=>(const GroupKey&) const = default;
};

struct BuildSamples {
  std::string label;
  std::string first_time;  // earliest test_time (ISO 8601 UTC sorts as text)
  PooledValues values;
};

// When a record's first run started: a pooled record's earliest run (RunRecord::first_test_time).
const std::string& first_time(const RunRecord& r) { return r.first_test_time.empty() ? r.test_time : r.first_test_time; }

Regression test_pair(const GroupKey& key, const BuildSamples& from, const BuildSamples& to, double alpha) {
  const MetricInfo& info = metric_info(static_cast<Metric>(key.metric));
  Regression r;
  r.machine = key.machine;
  r.model = key.model;
  r.metric = static_cast<Metric>(key.metric);
  r.test = key.test;
  r.config = key.config;
  r.from_build = from.label;
  r.to_build = to.label;
  r.from = from.values.summary();
  r.to = to.values.summary();
  r.change = r.from.mean != 0 ? r.to.mean / r.from.mean - 1 : 0;
  // From the samples where both builds kept them; else from the summaries (n, mean, sd).
  const bool samples = !from.values.summary_only() && !to.values.summary_only();
  const auto w = samples ? welch_t_test(to.values.samples, from.values.samples) : welch_t_test(r.to, r.from);
  if (!w) return r;  // kTooFewSamples
  // Slower: fewer t/s, or more ms.
  r.p_slower = info.higher_is_better ? w->p_less : w->p_greater;
  r.p_faster = info.higher_is_better ? w->p_greater : w->p_less;
  r.verdict = r.p_slower < alpha ? Change::kSlower : r.p_faster < alpha ? Change::kFaster : Change::kWithinNoise;
  return r;
}

}  // namespace

std::string change_name(Change change) {
  switch (change) {
    case Change::kSlower: return "slower";
    case Change::kFaster: return "faster";
    case Change::kWithinNoise: return "within noise";
    case Change::kTooFewSamples: return "too few samples";
  }
  return "?";
}

std::vector<Regression> find_regressions(std::span<const RunRecord> records, double alpha) {
  return find_regressions(records, alpha, RecordIdentities(records));
}

std::vector<Regression> find_regressions(std::span<const RunRecord> records, double alpha,
                                         const RecordIdentities& ids) {
  // Group -> build key -> samples.
  std::map<GroupKey, std::map<std::string, BuildSamples>> groups;
  // Where the values of a setup's records go, per metric with a value per repetition: its
  // records share machine, model, build and knobs; the test's tokens come from the results
  // (in the key). Found at a setup's first value of the metric.
  struct Destination {
    Metric metric;
    BuildSamples* samples = nullptr;
  };
  std::map<std::tuple<std::size_t, int, int>, std::vector<Destination>> destinations;  // setup, pp n, tg n
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RunRecord& rec = records[i];
    const auto n_of = [](const std::optional<ThroughputResult>& t) { return t ? t->n_tokens : -1; };
    auto [dest, fresh] = destinations.try_emplace({ids.setup(i), n_of(rec.results.pp), n_of(rec.results.tg)});
    if (fresh) {
      for (Metric metric : all_metrics()) {
        if (metric_info(metric).per_repetition) dest->second.push_back({metric});  // a test needs samples
      }
    }
    for (Destination& d : dest->second) {
      if (!d.samples) {
        auto v = metric_values(rec, d.metric);
        if (!v) continue;
        const RecordIdentities::Entry& id = ids.of(i);
        GroupKey key{id.machine.label, id.model.label, id.machine.key, id.model.key, build_backends(rec.machine),
                     from_llama_bench(rec), static_cast<int>(d.metric), v->n, v->depth, v->test, id.knobs};
        d.samples = &groups[key][id.build.key];
        if (d.samples->label.empty()) {
          d.samples->label = id.build.label;
          d.samples->first_time = first_time(rec);
        }
      }
      if (!d.samples->values.add_values_of(rec, d.metric)) continue;  // no value of this test
      d.samples->first_time = std::min(d.samples->first_time, first_time(rec));
    }
  }
  std::vector<Regression> out;
  for (const auto& [key, builds] : groups) {
    if (builds.size() < 2) continue;
    std::vector<const BuildSamples*> ordered;
    for (const auto& [build_key, samples] : builds) ordered.push_back(&samples);
    std::stable_sort(ordered.begin(), ordered.end(), [](const BuildSamples* a, const BuildSamples* b) {
      return std::tie(a->first_time, a->label) < std::tie(b->first_time, b->label);
    });
    for (std::size_t i = 1; i < ordered.size(); ++i) out.push_back(test_pair(key, *ordered[i - 1], *ordered[i], alpha));
  }
  return out;
}

}  // namespace rigbench::report
