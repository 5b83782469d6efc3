// rigbench: the figures one run gives the cost formulas, defined once for `bench --price`
// (measure/energy.h price_run) and `rigbench cost --run`. Pure: no I/O.
//
// Energy per token is total energy over total tokens, e = E / N, because energy adds up over
// time and tokens add up over repetitions; the speed the formulas use is therefore the rate at
// which those tokens were made, r = N / T (total tg tokens over the seconds their energy was
// measured), never the mean of per-repetition rates (llama-bench's avg_ts), which weighs a
// short fast repetition as much as a long slow one and is higher whenever speeds vary.
// With P = E / T, gross cost per token P / r is then exactly E / N, the record's tg J/token.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::cost {

struct RunFigures {
  double n_tokens = 0;                  // N: tg tokens over every repetition (n_gen x samples)
  double seconds = 0;                   // T: seconds of tg the energy covers (else the timed samples')
  double tokens_per_s = kUnmeasured;    // r = N / T; NaN without a tg result
  double active_power_w = kUnmeasured;  // E / T over tg; NaN when tg energy is unavailable
  double idle_power_w = kUnmeasured;    // the run's idle baseline (measured, or stated with --idle-watts)
  std::string power_method;             // the record's energy.method
};

// The figures of a run from its tg result and energy. NaN where the run lacks them. A
// summary-only tg result (no samples) gives its stated average rate as r.
RunFigures run_figures(const Results& results, const EnergyInfo& energy);

}  // namespace rigbench::cost
