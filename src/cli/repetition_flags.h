// rigbench: -r/--repetitions (auto or N), --ci-target and --max-time, one meaning for the
// subcommands that repeat a measurement (bench: per test; embed: per phase, the latency
// passes and each batch size's passes). core/repetitions.h decides when to stop.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/repetitions.h"

namespace rigbench::cli {

// The flags as given.
struct RepetitionFlags {
  std::string repetitions = "auto";  // -r: "auto" or a count (checked: an integer in [1, 1000000])
  double ci_target_pct = 2;          // --ci-target: ± % of the mean for -r auto (checked: (0.01, 100])
  double max_time_s = 20;            // --max-time: -r auto's budget in seconds (checked: [0, 86400])
};

// Adds the three flags to `cmd`, into `repetitions`, `ci_target_pct` and `max_time_s` (bench
// keeps the last two in its plan; RepetitionFlags holds all three). `what`: what the interval
// is of, in the help ("the mean t/s", "each phase's mean"); `per`: what the budget is for
// ("test", "phase").
void add_repetition_flags(CLI::App& cmd, std::string& repetitions, double& ci_target_pct, double& max_time_s,
                          const std::string& what, const std::string& per);

// The rule the flags give: -r auto: automatic, at least kAutoMinRepetitions; -r N: exactly N.
RepetitionRule repetition_rule(const std::string& repetitions, double ci_target_pct, double max_time_s);
inline RepetitionRule repetition_rule(const RepetitionFlags& f) {
  return repetition_rule(f.repetitions, f.ci_target_pct, f.max_time_s);
}

}  // namespace rigbench::cli
