#include "cost/run_figures.h"

#include <cmath>

namespace rigbench::cost {

RunFigures run_figures(const Results& results, const EnergyInfo& energy) {
  RunFigures f;
  f.power_method = energy.method;
  f.idle_power_w = energy.idle_power_w;
  if (!results.tg) return f;
  const auto& tg = *results.tg;
  if (tg.samples_ns.empty()) {
    // A summary-only import (llama-bench csv/sql) keeps its average rate and nothing else:
    // that is the only speed there is to price.
    f.n_tokens = static_cast<double>(tg.n_tokens) * static_cast<double>(tg.tps.n);
    f.tokens_per_s = tg.tps.mean;
    return f;
  }
  f.n_tokens = static_cast<double>(tg.n_tokens) * static_cast<double>(tg.samples_ns.size());
  double timed_ns = 0;
  for (const int64_t ns : tg.samples_ns) timed_ns += static_cast<double>(ns);
  const bool measured = energy.tg && std::isfinite(energy.tg->energy_j) && energy.tg->duration_s > 0;
  f.seconds = measured ? energy.tg->duration_s : timed_ns * 1e-9;
  if (f.seconds > 0 && f.n_tokens > 0) f.tokens_per_s = f.n_tokens / f.seconds;
  if (measured) f.active_power_w = energy.tg->energy_j / energy.tg->duration_s;
  return f;
}

}  // namespace rigbench::cost
