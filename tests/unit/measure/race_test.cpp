// The race's logic (measure/race.h) with a fake trial: candidates of set speeds and spreads,
// drawn from a seeded generator, each sample costing a set time (no llama.cpp, no clock).
#include "measure/race.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace rigbench::measure {
namespace {

struct FakeCandidate {
  FakeCandidate(double m, double s, std::string e = "") : mean(m), sd(s), error(std::move(e)) {}
  double mean;        // its true t/s (or ms)
  double sd;          // its spread per sample
  std::string error;  // a trial of it fails with this
};

// A trial: `repetitions` samples of N(mean, sd); 1 s per full sample, 0.25 s per screen sample.
struct FakeTrials {
  std::vector<FakeCandidate> candidates;
  std::mt19937 rng{42};
  int calls = 0;
  int interrupt_at = -1;  // the trial (0-based) that is cut by Ctrl-C
  std::vector<int> screened, measured;

  TrialFn fn() {
    return [this](int c, int repetitions, bool screen, int) {
      TrialOutcome out;
      const FakeCandidate& f = candidates[static_cast<size_t>(c)];
      (screen ? screened : measured).push_back(c);
      if (calls++ == interrupt_at) {
        out.interrupted = true;
        return out;
      }
      if (!f.error.empty()) {
        out.error = f.error;
        out.seconds = 0.5;
        return out;
      }
      std::normal_distribution<double> d(f.mean, f.sd);
      for (int i = 0; i < repetitions; ++i) out.samples.push_back(d(rng));
      out.seconds = repetitions * (screen ? 0.25 : 1.0);
      return out;
    };
  }
};

TEST(Race, TheFastestOfTwelveWinsAndTheSlowLeaveInTheScreen) {
  FakeTrials t;
  for (int i = 0; i < 12; ++i) t.candidates.push_back({10.0 + i, 0.2});  // candidate 11 is the fastest (21 t/s)
  RaceConfig config;
  const RaceResult r = race(12, config, t.fn());
  EXPECT_EQ(r.winner, 11);
  EXPECT_EQ(r.end, RaceEnd::kDecided);
  EXPECT_EQ(r.entries[11].status, RaceStatus::kWinner);
  // Every candidate had the screen; the slowest were out there, 10 t/s far below the leader.
  EXPECT_EQ(t.screened.size(), 12u);
  EXPECT_EQ(r.entries[0].status, RaceStatus::kSlower);
  EXPECT_EQ(r.entries[0].round_out, 0);
  EXPECT_LT(r.entries[0].p_value, config.alpha);
  EXPECT_NEAR(r.entries[0].gap_pct, (10.0 - 21.0) / 21.0 * 100, 3.0);
  // At most a third (4) went on to the full test.
  EXPECT_LE(t.measured.size() > 0 ? std::set<int>(t.measured.begin(), t.measured.end()).size() : 0u, 4u);
  EXPECT_GT(r.lead_pct, 0);
  EXPECT_LT(r.p_value, config.alpha);
  EXPECT_EQ(r.runner_up, 10);
  // The time: 12 x 2 screen samples at 0.25 s, then full samples at 1 s.
  double spent = 0;
  for (const auto& e : r.entries) spent += e.seconds;
  EXPECT_DOUBLE_EQ(r.seconds, spent);
  EXPECT_GE(r.seconds, 12 * 2 * 0.25 + 2 * 3);
}

TEST(Race, LowerIsBetterPicksTheSmallestTime) {
  FakeTrials t;
  t.candidates = {{120, 1}, {80, 1}, {100, 1}};
  RaceConfig config;
  config.lower_is_better = true;
  const RaceResult r = race(3, config, t.fn());
  EXPECT_EQ(r.winner, 1);
  EXPECT_TRUE(t.screened.empty());  // 3 candidates: no screen
  EXPECT_GT(r.lead_pct, 0);         // better, in the objective's sense
  EXPECT_LT(r.entries[0].gap_pct, 0);
}

TEST(Race, TwoEqualLeadersAreATie) {
  FakeTrials t;
  t.candidates = {{20, 0.02}, {20, 0.02}, {15, 0.02}};
  RaceConfig config;
  const RaceResult r = race(3, config, t.fn());
  EXPECT_EQ(r.end, RaceEnd::kTie);
  EXPECT_TRUE(r.winner == 0 || r.winner == 1);
  EXPECT_EQ(r.entries[2].status, RaceStatus::kSlower);
  EXPECT_EQ(r.rounds, 1);
}

TEST(Race, CloseAndNoisyCandidatesEndTooCloseAtTheCap) {
  FakeTrials t;
  t.candidates = {{20.0, 2.0}, {20.1, 2.0}};
  RaceConfig config;
  config.tie_pct = 0;  // no tie: only the cap can end it
  config.budget_s = 1e9;
  const RaceResult r = race(2, config, t.fn());
  EXPECT_EQ(r.end, RaceEnd::kTooClose);
  ASSERT_GE(r.winner, 0);
  EXPECT_EQ(r.entries[static_cast<size_t>(r.winner)].samples.size(), static_cast<size_t>(config.max_repetitions));
  EXPECT_GE(r.p_value, config.alpha);
}

TEST(Race, TheBudgetStopsTheRoundsAfterTheFirst) {
  FakeTrials t;
  t.candidates = {{20.0, 2.0}, {20.1, 2.0}, {20.2, 2.0}};
  RaceConfig config;
  config.tie_pct = 0;
  config.budget_s = 10;  // the first round takes 9 s (3 x 3 samples at 1 s); the next would not fit
  const RaceResult r = race(3, config, t.fn());
  EXPECT_EQ(r.end, RaceEnd::kBudget);
  EXPECT_EQ(r.rounds, 1);
  EXPECT_LE(r.seconds, config.budget_s);
  EXPECT_GE(r.winner, 0);
}

TEST(Race, AFailedCandidateLeavesAndCannotWin) {
  FakeTrials t;
  t.candidates = {{30, 0.1, "llama_decode failed"}, {20, 0.1}, {10, 0.1}};
  RaceConfig config;
  const RaceResult r = race(3, config, t.fn());
  EXPECT_EQ(r.entries[0].status, RaceStatus::kFailed);
  EXPECT_EQ(r.entries[0].error, "llama_decode failed");
  EXPECT_EQ(r.winner, 1);
  EXPECT_NE(r.runner_up, 0);
}

TEST(Race, EveryCandidateFailingLeavesNoWinner) {
  FakeTrials t;
  t.candidates = {{30, 0.1, "boom"}, {20, 0.1, "boom"}};
  const RaceResult r = race(2, RaceConfig{}, t.fn());
  EXPECT_EQ(r.winner, -1);
  EXPECT_EQ(r.end, RaceEnd::kNoneLeft);
}

TEST(Race, InterruptedInTheScreenGivesTheScreensBestSoFar) {
  FakeTrials t;
  for (int i = 0; i < 8; ++i) t.candidates.push_back({10.0 + i, 0.1});
  t.interrupt_at = 4;  // candidates 0-3 screened, the fifth trial cut
  const RaceResult r = race(8, RaceConfig{}, t.fn());
  EXPECT_EQ(r.end, RaceEnd::kInterrupted);
  EXPECT_TRUE(r.screen_only);
  EXPECT_EQ(r.winner, 3);  // the fastest of those screened
  EXPECT_EQ(t.calls, 5);   // nothing ran after the interruption
}

TEST(Race, InterruptedInARoundGivesTheBestFullMean) {
  FakeTrials t;
  t.candidates = {{12, 1}, {12.1, 1}, {11.9, 1}};  // too close for 3 samples to part them
  t.interrupt_at = 3;  // the first round done (3 trials), the second cut at its first trial
  RaceConfig config;
  config.tie_pct = 0;
  const RaceResult r = race(3, config, t.fn());
  EXPECT_EQ(r.end, RaceEnd::kInterrupted);
  EXPECT_FALSE(r.screen_only);
  ASSERT_GE(r.winner, 0);
  EXPECT_EQ(r.entries[static_cast<size_t>(r.winner)].status, RaceStatus::kWinner);
  EXPECT_EQ(r.rounds, 1);
  EXPECT_EQ(t.calls, 4);
}

TEST(Race, NoCandidatesIsNoneLeft) {
  FakeTrials t;
  const RaceResult r = race(0, RaceConfig{}, t.fn());
  EXPECT_EQ(r.end, RaceEnd::kNoneLeft);
  EXPECT_EQ(r.winner, -1);
  EXPECT_EQ(t.calls, 0);
}

TEST(RaceNames, EveryStatusAndEndHasItsWord) {
  EXPECT_STREQ(race_status_name(RaceStatus::kHalved), "halved");
  EXPECT_STREQ(race_end_name(RaceEnd::kTooClose), "too_close");
  EXPECT_STREQ(race_end_name(RaceEnd::kTie), "tie");
}

}  // namespace
}  // namespace rigbench::measure
