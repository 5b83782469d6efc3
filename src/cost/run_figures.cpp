#include "cost/run_figures.h"

#include <cmath>

#include "core/test_name.h"

namespace rigbench::cost {

RunFigures run_figures(const Results& results, const EnergyInfo& energy) {
  RunFigures f;
  f.power_method = energy.method;
  f.idle_power_w = energy.idle_power_w;
  if (!results.tg) return f;
  const auto& tg = *results.tg;
  // The row's rate, as every printer shows it: the mean of the per-repetition rates (a
  // summary-only import keeps only that mean).
  f.tokens_per_s = tg.tps.n > 0 && tg.tps.mean > 0 ? tg.tps.mean : kUnmeasured;
  f.rate_source = "tg" + std::to_string(tg.n_tokens) + " t/s as bench's row reports it: the mean of " +
                  std::to_string(tg.tps.n) + " per-repetition rate" + (tg.tps.n == 1 ? "" : "s");
  if (tg.samples_ns.empty()) {
    f.n_tokens = static_cast<double>(tg.n_tokens) * static_cast<double>(tg.tps.n);
    return f;
  }
  f.n_tokens = static_cast<double>(tg.n_tokens) * static_cast<double>(tg.samples_ns.size());
  double timed_ns = 0;
  for (const int64_t ns : tg.samples_ns) timed_ns += static_cast<double>(ns);
  const bool measured = energy.tg && std::isfinite(energy.tg->energy_j) && energy.tg->duration_s > 0;
  f.seconds = measured ? energy.tg->duration_s : timed_ns * 1e-9;
  if (measured) {
    f.active_power_w = energy.tg->energy_j / energy.tg->duration_s;
    if (f.n_tokens > 0) f.seconds_per_token = energy.tg->duration_s / f.n_tokens;
  }
  return f;
}

RunFigures run_figures(const RunRecord& record) {
  RunFigures f = run_figures(record.results, record.energy);
  if (!record.server) {
    // The test as bench labels its row: a -pg test's tg ("tg128 (pg)") is not the plain tg test.
    if (record.results.tg && pp_tg_test(record)) {
      const std::string plain = "tg" + std::to_string(record.results.tg->n_tokens);
      f.rate_source.replace(0, plain.size(), phase_test_name(false, record.results.tg->n_tokens, true, 0));
    }
    return f;
  }
  const std::string c = "c=" + std::to_string(record.server->concurrency);
  // A served run's results.tg is one sample (its output t/s, measure::served_tg): its tokens
  // are every completed request's output tokens, as the record's server part counts them
  // (records before kept one sample of n_gen per request: the count above holds for them).
  const double served_tokens = record.server->output_tokens_mean * record.server->completed;
  if (record.results.tg && record.results.tg->samples_ns.size() == 1 && std::isfinite(served_tokens) &&
      served_tokens > 0) {
    f.n_tokens = served_tokens;
    const EnergyInfo& energy = record.energy;
    const bool measured = energy.tg && std::isfinite(energy.tg->energy_j) && energy.tg->duration_s > 0;
    f.seconds = measured ? energy.tg->duration_s : record.server->duration_s;
    if (measured) f.seconds_per_token = energy.tg->duration_s / f.n_tokens;
  }
  if (record.server->output_tps > 0) {
    f.tokens_per_s = record.server->output_tps;
    f.rate_source = "output t/s as serve-bench's row reports it: " + c +
                    ", every request's output tokens over the run's wall time";
  } else if (f.seconds > 0 && f.n_tokens > 0) {  // a record without its output t/s: the tokens over their seconds
    f.tokens_per_s = f.n_tokens / f.seconds;
    f.rate_source = "serve-bench's output tokens over their seconds (" + c + ")";
  }
  return f;
}

}  // namespace rigbench::cost
