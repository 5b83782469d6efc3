// rigbench: how many repetitions a test gets. `-r N` runs exactly N, as llama-bench; `-r auto`
// repeats until the 95 % confidence interval of every measured mean tokens/s (pp, tg) is
// within ±ci_target_pct of its mean, or the time budget runs out, never fewer than
// `repetitions` (3). Pure functions, no I/O: the runner asks after each repetition.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace rigbench {

struct RepetitionRule {
  bool automatic = false;      // -r auto
  int repetitions = 5;         // -r N: exactly N; -r auto: the minimum
  double ci_target_pct = 2;    // --ci-target: the interval's half width, % of the mean
  double max_time_s = 20;      // --max-time: -r auto's budget for a test's repetitions, seconds
  int max_repetitions = 1000;  // -r auto: a cap, whatever the time
};

// The minimum of -r auto (a Student t interval needs n >= 2; 3 is the least that says
// anything about the spread).
inline constexpr int kAutoMinRepetitions = 3;

// Why the repetitions stopped. kNone: go on.
enum class StopReason { kNone, kCount, kTarget, kTime, kCap };

// The record's word for a reason: "" (kNone), "count", "target", "max_time", "cap".
const char* stop_reason_name(StopReason r);

// True when the 95 % interval of the mean of `tps` (core/significance.h mean_interval) is
// within ±target_pct of the mean. False with fewer than 2 samples.
bool interval_within(std::span<const double> tps, double target_pct);

// Decides after a repetition. `series`: the t/s samples so far of each measured test (pp and
// tg of a pp+tg test, one of them otherwise), all of the same length n; `elapsed_s`: seconds
// since the first timed repetition began. Fixed: kCount once n reaches `repetitions`. Auto:
// nothing below the minimum; then kTarget when every series' interval is within the target,
// kTime when another repetition (as long as the mean one so far) would end past max_time_s,
// kCap at max_repetitions.
StopReason stop_after(const RepetitionRule& rule, std::span<const std::vector<double>> series, double elapsed_s);

}  // namespace rigbench
