// cost::run_figures: the one definition of a run's speed and power for pricing. The speed is
// the tg row's t/s, the figure bench's table shows (the mean of the per-repetition rates); the
// energy per token stays the record's E / N, priced through the seconds per token its energy
// covers, so the two never disagree with the bench table.
#include <gtest/gtest.h>

#include <cmath>

#include "core/results.h"
#include "cost/estimate.h"
#include "cost/run_figures.h"

namespace rigbench::cost {
namespace {

// Two tg repetitions of 32 tokens: 0.1 s (320 t/s) and 0.9 s (35.6 t/s). Mean of the rates
// 177.8 t/s (the bench row); total 64 tokens in 1.0 s. 100 J over that second: 1.5625 J/token.
TEST(CostRunFigures, SpeedIsTheBenchRowsRateAndEnergyPerTokenStaysJoulesOverTokens) {
  Results results;
  results.tg = make_throughput(32, {100'000'000, 900'000'000});
  EnergyInfo energy;
  energy.method = "counter";
  energy.idle_power_w = 20;
  energy.tg = PhaseEnergyInfo{1.0, 100.0, 100.0, 100.0 / 64};
  const RunFigures f = run_figures(results, energy);
  EXPECT_DOUBLE_EQ(f.n_tokens, 64);
  EXPECT_DOUBLE_EQ(f.tokens_per_s, results.tg->tps.mean);  // what the bench table's row shows
  EXPECT_NEAR(f.tokens_per_s, (320 + 32 / 0.9) / 2, 1e-9);
  EXPECT_EQ(f.rate_source, "tg32 t/s as bench's row reports it: the mean of 2 per-repetition rates");
  EXPECT_DOUBLE_EQ(f.active_power_w, 100);
  EXPECT_DOUBLE_EQ(f.seconds_per_token, 1.0 / 64);
  CostInputs in;
  in.tokens_per_s = f.tokens_per_s;
  in.seconds_per_token = f.seconds_per_token;
  in.active_power_w = f.active_power_w;
  in.idle_power_w = f.idle_power_w;
  in.price_per_kwh = 0.30;
  in.utilization = 0.5;
  const CostReport r = estimate_cost(in);
  EXPECT_DOUBLE_EQ(r.gross.j, energy.tg->j_per_token);  // one definition: E / N
  EXPECT_NEAR(r.gross.cost_per_mtok, 1.5625 * 0.30 / 3.6, 1e-12);
  EXPECT_NEAR(r.marginal.j, (100.0 - 20.0 * 1.0) / 64, 1e-12);  // (E - P_idle T) / N
  // The idle half of the time is charged to the tokens made at the row's rate.
  EXPECT_NEAR(r.at_utilization.j, 1.5625 + 20.0 * 0.5 / (0.5 * f.tokens_per_s), 1e-12);
}

// Without tg energy the speed is still the row's, and there is no power.
TEST(CostRunFigures, WithoutEnergyTheSpeedIsTheRowsToo) {
  Results results;
  results.tg = make_throughput(32, {100'000'000, 900'000'000});
  const RunFigures f = run_figures(results, EnergyInfo{});
  EXPECT_DOUBLE_EQ(f.tokens_per_s, results.tg->tps.mean);
  EXPECT_TRUE(std::isnan(f.active_power_w));
  EXPECT_TRUE(std::isnan(f.seconds_per_token));
}

// A stored -pg run's tg is named as bench labels its row: "tg32 (pg)", not the plain tg test.
TEST(CostRunFigures, ARunOfAPgTestNamesItsTestAsBenchLabelsIt) {
  RunRecord rec;
  rec.params.n_prompt = 64;
  rec.params.n_gen = 32;
  rec.results.tg = make_throughput(32, {100'000'000, 900'000'000});
  EXPECT_EQ(run_figures(rec).rate_source,
            "tg32 (pg) t/s as bench's row reports it: the mean of 2 per-repetition rates");
  rec.params.n_prompt = 0;  // a plain tg test
  EXPECT_EQ(run_figures(rec).rate_source, "tg32 t/s as bench's row reports it: the mean of 2 per-repetition rates");
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
