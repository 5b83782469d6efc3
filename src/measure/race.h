// rigbench: racing configurations against each other (`rigbench tune`). Pure logic, no I/O:
// the caller measures (a TrialFn), the race decides who is measured next and who is out.
//
// The race, in rounds (docs/tune.md):
//   screen  with more than `screen_min_candidates` candidates, every candidate gets
//           `screen_repetitions` samples of a shorter test (TrialFn's `screen` = true: the caller
//           runs a quarter of the tokens); a candidate leaves when Welch's one-sided test says
//           it is slower than the screen's leader (p < alpha; the best of the others stays
//           even then, so that the winner's lead is measured on the full test), then all but
//           the best `screen_keep` fraction (by mean) leave ("halved"). Screen samples never mix with
//           the full test's.
//   rounds  the candidates left are brought to `repetitions` samples of the full test, then
//           twice as many each round; after each round a candidate leaves when Welch's test
//           says it is slower than the leader (p < alpha), and when more than two remain the
//           slower half by mean leaves (successive halving). The race ends when one is left,
//           when every survivor is equivalent to the leader (the 95 % interval of their
//           difference lies within ±tie_pct of the leader's mean: "a tie", either will do),
//           when the survivors have `max_repetitions` samples (too close to call: the best
//           mean wins, the p-value says how sure), when the next round would overrun
//           `budget_s` (the first full round always runs, so that there is an answer), or
//           when the caller cancels.
// "Slower" is in the objective's sense: lower t/s, or higher ms when lower_is_better.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/significance.h"

namespace rigbench::measure {

struct RaceConfig {
  bool lower_is_better = false;   // the samples are times (TTFT ms): the smallest mean leads
  double alpha = kDefaultAlpha;   // Welch's one-sided test level for "slower than the leader"
  int screen_min_candidates = 5;  // a screen round only when more candidates than this
  int screen_repetitions = 2;     // samples per candidate in the screen (>= 2: Welch needs a variance)
  double screen_keep = 1.0 / 3;   // the screen keeps this fraction of the candidates (by mean), at least 2
  int repetitions = 3;            // samples per candidate after the first full round (>= 2)
  int max_repetitions = 24;       // the race ends when the survivors have this many samples
  double tie_pct = 1;             // survivors whose difference from the leader is known (95 %) to be within
                                  // ± this % of the leader's mean are a tie: the race ends
  double full_to_screen_cost = 4; // a full sample costs this many screen samples (for the budget of the
                                  // first rounds, before a full sample's time is known)
  double budget_s = 300;          // seconds of trials in all (TrialOutcome::seconds summed)
};

// What one trial returned: `samples` new values of the objective (t/s or ms), in the trial's
// order; the wall time it took, seconds. A failed trial (the run did not start or broke) has
// `error` set and takes its candidate out of the race; an interrupted one ends the race, its
// samples kept.
struct TrialOutcome {
  std::vector<double> samples;
  double seconds = 0;
  std::string error;         // "" = ok
  bool interrupted = false;  // the caller was cancelled (Ctrl-C) during the trial
};

// Measures `repetitions` more samples of candidate `candidate` (an index into the race's
// candidates), of the shorter test when `screen`; `round` is 0 for the screen, 1.. after.
using TrialFn = std::function<TrialOutcome(int candidate, int repetitions, bool screen, int round)>;

enum class RaceStatus {
  kWinner,    // the best mean of the last round
  kContender, // still in the race when it ended (budget, cancel, or too close to call), not the winner
  kSlower,    // Welch's test: slower than the leader, p < alpha
  kHalved,    // dropped as the slower part by mean (screen or successive halving); p says how sure
  kFailed,    // its trial failed (TrialOutcome::error)
};

// "winner", "contender", "slower", "halved", "failed".
const char* race_status_name(RaceStatus s);

struct RaceEntry {
  RaceStatus status = RaceStatus::kContender;
  std::vector<double> samples;         // the full test's samples, in order
  std::vector<double> screen_samples;  // the screen's samples (empty when there was no screen)
  int round_out = 0;                   // the round it left in (0 = screen); the last round for winner/contender
  // Against the leader of the round it left (or, for the winner, against the runner-up):
  // Welch's one-sided p-value that it is slower (winner: that the runner-up is slower); NaN
  // when either side has fewer than 2 samples.
  double p_value = std::numeric_limits<double>::quiet_NaN();
  double gap_pct = std::numeric_limits<double>::quiet_NaN();  // its mean vs that leader's, % (negative = slower)
  double seconds = 0;                  // trial wall time spent on it, s
  std::string error;                   // kFailed: the trial's error
};

// Why the race ended.
// kDecided: one left; kTie: the survivors are within ±tie_pct of each other (95 %);
// kTooClose: max_repetitions reached without either; kBudget: the next round would overrun
// budget_s; kInterrupted: cancelled; kNoneLeft: every candidate failed.
enum class RaceEnd { kDecided, kTie, kTooClose, kBudget, kInterrupted, kNoneLeft };

// "decided", "tie", "too_close", "budget", "interrupted", "none_left".
const char* race_end_name(RaceEnd e);

struct RaceResult {
  std::vector<RaceEntry> entries;  // one per candidate, in the candidates' order
  int winner = -1;                 // index of the winner; -1 when every candidate failed (or none ran)
  int runner_up = -1;              // the best other candidate by the full test's mean (-1 when none)
  // The winner against the runner-up: its lead, % of the runner-up's mean in the objective's
  // direction (positive = better), and Welch's one-sided p that the runner-up is not slower.
  double lead_pct = std::numeric_limits<double>::quiet_NaN();
  double p_value = std::numeric_limits<double>::quiet_NaN();
  RaceEnd end = RaceEnd::kNoneLeft;
  bool screen_only = false;  // interrupted in the screen: the winner is the screen's leader, by its screen_samples
  int rounds = 0;        // full rounds run (the screen not counted)
  double seconds = 0;    // trial wall time in all, s
};

// Races `n_candidates` candidates with `trial`, within `config` (see the header's comment).
// `config` is used as given (the caller checks its ranges).
RaceResult race(int n_candidates, const RaceConfig& config, const TrialFn& trial);

// The mean of `v` (NaN when empty).
double mean_of(const std::vector<double>& v);

}  // namespace rigbench::measure
