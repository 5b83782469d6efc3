#include "core/repetitions.h"

#include <algorithm>

#include "core/significance.h"
#include "core/stats.h"

namespace rigbench {

const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::kNone: return "";
    case StopReason::kCount: return "count";
    case StopReason::kTarget: return "target";
    case StopReason::kTime: return "max_time";
    case StopReason::kCap: return "cap";
  }
  return "";
}

bool interval_within(std::span<const double> tps, double target_pct) {
  const auto ci = mean_interval(summarize(tps));
  return ci && ci->half_width_pct <= target_pct;
}

StopReason stop_after(const RepetitionRule& rule, std::span<const std::vector<double>> series, double elapsed_s) {
  std::size_t n = 0;
  for (const auto& s : series) n = std::max(n, s.size());
  const int done = static_cast<int>(n);
  if (!rule.automatic) return done >= rule.repetitions ? StopReason::kCount : StopReason::kNone;
  if (done < std::max(rule.repetitions, kAutoMinRepetitions)) return StopReason::kNone;
  bool all_within = !series.empty();
  for (const auto& s : series) all_within = all_within && interval_within(s, rule.ci_target_pct);
  if (all_within) return StopReason::kTarget;
  if (done >= rule.max_repetitions) return StopReason::kCap;
  if (elapsed_s + elapsed_s / done > rule.max_time_s) return StopReason::kTime;
  return StopReason::kNone;
}

}  // namespace rigbench
