#include "measure/plan.h"

#include <algorithm>

#include "core/knobs.h"

namespace rigbench::measure {

std::vector<std::string> PlanSpec::values(const std::string& key) const {
  const auto it = knobs.find(key);
  if (it != knobs.end() && !it->second.empty()) return it->second;
  const Knob* k = find_knob(key);
  return {k ? knob_default(*k) : std::string()};
}

bool PlanSpec::varies(const std::string& key) const {
  const Knob* k = find_knob(key);
  const auto v = values(key);
  return k && (v.size() > 1 || v.front() != knob_default(*k));
}

namespace {

// Every combination of the knobs from index `i` on, innermost last, each with the tests.
void expand_knobs(const PlanSpec& spec, const std::string& model, std::size_t i, BenchParams& p,
                  std::vector<TestCase>& out) {
  const auto& all = knobs();
  if (i < all.size()) {
    for (const std::string& v : spec.values(all[i].key)) {
      if (!set_knob(all[i], p, v)) continue;  // values were validated by the caller
      expand_knobs(spec, model, i + 1, p, out);
    }
    return;
  }
  const int asked_ctx = p.n_ctx;
  auto add = [&](int np, int ng) {
    TestCase tc{model, p, {}};
    tc.params.n_prompt = np;
    tc.params.n_gen = ng;
    tc.params.n_ctx = std::max(asked_ctx, p.n_depth + np + ng);
    tc.params.repetitions = spec.repetitions;
    tc.rule.automatic = spec.auto_repetitions;
    tc.rule.repetitions = spec.auto_repetitions ? std::max(spec.repetitions, kAutoMinRepetitions) : spec.repetitions;
    tc.rule.ci_target_pct = spec.ci_target_pct;
    tc.rule.max_time_s = spec.max_time_s;
    tc.params.warmup = spec.warmup;
    tc.params.delay_s = spec.delay_s;
    out.push_back(std::move(tc));
  };
  if (spec.suite) {
    add(0, 0);
    return;
  }
  for (int np : spec.n_prompt) {
    if (np > 0) add(np, 0);
  }
  for (int ng : spec.n_gen) {
    if (ng > 0) add(0, ng);
  }
  for (const auto& [np, ng] : spec.n_pg) {
    if (np > 0 || ng > 0) add(np, ng);
  }
}

}  // namespace

std::vector<TestCase> expand(const PlanSpec& spec) {
  std::vector<TestCase> out;
  for (const auto& model : spec.models) {
    BenchParams p;
    expand_knobs(spec, model, 0, p, out);
  }
  return out;
}

}  // namespace rigbench::measure
