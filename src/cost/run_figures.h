// rigbench: the figures one run gives the cost formulas, defined once for `bench --price`
// (measure/energy.h price_run) and `rigbench cost --run`. Pure: no I/O.
//
// Two figures, each with one definition:
//   - the speed r is the tg row's tokens/s, the figure bench's table shows for the run: the
//     mean of the per-repetition rates (llama-bench's avg_ts). It prices what depends on time:
//     the idle hours at a utilization and the hardware's life (tokens made per second busy).
//   - the energy per token is total energy over total tokens, e = E / N (energy adds up over
//     time, tokens over repetitions), the record's tg J/token. It is priced through the seconds
//     per token the energy covers, T / N (seconds_per_token), not through 1 / r: the energy
//     window also holds the untimed work between repetitions, and the mean of rates is higher
//     than N / T whenever the repetitions' speeds vary, so P / r would not be E / N.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::cost {

struct RunFigures {
  double n_tokens = 0;                  // N: tg tokens over every repetition (n_gen x samples)
  double seconds = 0;                   // T: seconds of tg the energy covers (else the timed samples')
  double tokens_per_s = kUnmeasured;    // r: the tg row's t/s (mean of per-repetition rates); NaN without tg
  double seconds_per_token = kUnmeasured;  // T / N of the tg energy; NaN when tg energy is unavailable
  // Where r comes from, for the cost's header and json (inputs.rate_source): "tg128 t/s as
  // bench's row reports it: the mean of 3 per-repetition rates"; serve-bench's "output t/s
  // as serve-bench's row reports it: c=4, ...".
  std::string rate_source;
  double active_power_w = kUnmeasured;  // E / T over tg; NaN when tg energy is unavailable
  double idle_power_w = kUnmeasured;    // the run's idle baseline (measured, or stated with --idle-watts)
  std::string power_method;             // the record's energy.method
};

// The figures of a run from its tg result and energy. NaN where the run lacks them. A
// summary-only tg result (no samples) gives its stated average rate as r, as its row does.
RunFigures run_figures(const Results& results, const EnergyInfo& energy);

// The figures of a stored run: as above, except that a serve-bench run (record.server) is
// priced at its row's output t/s (every request's output tokens over the run's wall time: the
// server's throughput at that load), not at one request's decode rate.
RunFigures run_figures(const RunRecord& record);

}  // namespace rigbench::cost
