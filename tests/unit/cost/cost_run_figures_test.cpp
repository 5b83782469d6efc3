// cost::run_figures: the one definition of a run's speed and power for pricing. Energy per
// token is total energy over total tokens, so the speed is total tokens over total seconds,
// never the mean of per-repetition rates.
#include <gtest/gtest.h>

#include <cmath>

#include "core/results.h"
#include "cost/estimate.h"
#include "cost/run_figures.h"

namespace rigbench::cost {
namespace {

// Two tg repetitions of 32 tokens: 0.1 s (320 t/s) and 0.9 s (35.6 t/s). Mean of the rates
// 177.8 t/s; total 64 tokens in 1.0 s = 64 t/s. 100 J over that second: 1.5625 J/token.
TEST(CostRunFigures, SpeedIsTotalTokensOverTotalSecondsSoCostMatchesJoulesPerToken) {
  Results results;
  results.tg = make_throughput(32, {100'000'000, 900'000'000});
  EnergyInfo energy;
  energy.method = "counter";
  energy.idle_power_w = 20;
  energy.tg = PhaseEnergyInfo{1.0, 100.0, 100.0, 100.0 / 64};
  const RunFigures f = run_figures(results, energy);
  EXPECT_DOUBLE_EQ(f.n_tokens, 64);
  EXPECT_DOUBLE_EQ(f.tokens_per_s, 64);
  EXPECT_DOUBLE_EQ(f.active_power_w, 100);
  EXPECT_GT(results.tg->tps.mean, 177);  // what the old pricing used: 2.8x faster than the tokens came
  CostInputs in;
  in.tokens_per_s = f.tokens_per_s;
  in.active_power_w = f.active_power_w;
  in.idle_power_w = f.idle_power_w;
  in.price_per_kwh = 0.30;
  const CostReport r = estimate_cost(in);
  EXPECT_DOUBLE_EQ(r.gross.j, energy.tg->j_per_token);  // one definition: E / N
  EXPECT_NEAR(r.gross.cost_per_mtok, 1.5625 * 0.30 / 3.6, 1e-12);
  EXPECT_NEAR(r.marginal.j, (100.0 - 20.0 * 1.0) / 64, 1e-12);  // (E - P_idle T) / N
}

// Without tg energy the speed comes from the timed samples, and there is no power.
TEST(CostRunFigures, WithoutEnergyTheSpeedComesFromTheTimedSamples) {
  Results results;
  results.tg = make_throughput(32, {100'000'000, 900'000'000});
  const RunFigures f = run_figures(results, EnergyInfo{});
  EXPECT_DOUBLE_EQ(f.tokens_per_s, 64);
  EXPECT_TRUE(std::isnan(f.active_power_w));
}

}  // namespace
}  // namespace rigbench::cost

namespace rigbench::cost {
namespace {

// An imported summary-only row keeps only its average rate: that is the speed priced.
TEST(CostRunFigures, ASummaryOnlyImportIsPricedAtItsStatedRate) {
  Results results;
  results.tg = make_summary_throughput(128, 5, 42.5, 1.5);
  const RunFigures f = run_figures(results, EnergyInfo{});
  EXPECT_DOUBLE_EQ(f.tokens_per_s, 42.5);
  EXPECT_DOUBLE_EQ(f.n_tokens, 640);
}

}  // namespace
}  // namespace rigbench::cost
