// cost::find_stored_run and cost::fill_from_run: `rigbench cost --run ID`'s choice of run and
// the figures it takes from it (only those the user did not give).
#include "cost/stored_run.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/results.h"

namespace rigbench::cost {
namespace {

RunRecord run(const std::string& id, bool tg) {
  RunRecord r;
  r.record_id = id;
  if (tg) r.results.tg = make_throughput(32, {100'000'000, 100'000'000});  // 320 t/s
  return r;
}

TEST(CostStoredRun, LatestIsTheLastRunThatGenerated) {
  const std::vector<RunRecord> all = {run("aa01", true), run("aa02", true), run("bb01", false)};
  auto found = find_stored_run(all, "latest", "db");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->run->record_id, "aa02");
}

// After a serve-bench capacity sweep, "latest" priced its last step: a saturated server that
// missed the SLO. It takes the last run whose t/s is a steady load's and says what it passed.
TEST(CostStoredRun, LatestPassesOverASaturatedCapacityStepAndFailedRequests) {
  std::vector<RunRecord> all = {run("aa01", true), run("aa02", true), run("aa03", true), run("aa04", true)};
  all[1].server = ServerRun{};
  all[1].server->sweep = "concurrency";
  all[1].server->slo_met = 1;
  all[2].server = ServerRun{};
  all[2].server->requests = 16;
  all[2].server->failed = 9;
  all[3].server = ServerRun{};
  all[3].server->sweep = "concurrency";
  all[3].server->slo_met = 0;
  all[3].server->slo_miss = "TTFT p95 was 3.4 s";
  auto found = find_stored_run(all, "latest", "db");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->run->record_id, "aa02");  // the step that met the SLO
  EXPECT_EQ(found->passed_over,
            "latest: passed over 2 later runs whose t/s is not a steady load's (a capacity step that missed its SLO "
            "(TTFT p95 was 3.4 s); 9 of 16 requests failed); name one with --run ID to price it");
  EXPECT_EQ(unpriceable_reason(all[2]), "9 of 16 requests failed");
  EXPECT_EQ(unpriceable_reason(all[1]), "");
  // Nothing priceable: the last run that generated, which cost then doubts.
  const std::vector<RunRecord> saturated = {all[3]};
  auto only = find_stored_run(saturated, "latest", "db");
  ASSERT_TRUE(only);
  EXPECT_EQ(only->run->record_id, "aa04");
  EXPECT_EQ(only->passed_over, "");
  EXPECT_EQ(only->doubt, "a capacity step that missed its SLO (TTFT p95 was 3.4 s)");
  EXPECT_EQ(found->doubt, "");
  // Named, a run is priced as asked.
  auto named = find_stored_run(all, "aa04", "db");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->run->record_id, "aa04");
}

TEST(CostStoredRun, APrefixNamesOneRunAndEveryFailureSaysWhy) {
  const std::vector<RunRecord> all = {run("aa01", true), run("aa02", true), run("bb01", false)};
  auto found = find_stored_run(all, "aa01", "db");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->run->record_id, "aa01");

  auto none = find_stored_run(all, "cc", "x.db");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(none.error().message, "--run 'cc': no such run in 'x.db'");

  auto several = find_stored_run(all, "aa", "db");
  ASSERT_FALSE(several);
  EXPECT_EQ(several.error().code, ErrorCode::kUsage);
  EXPECT_EQ(several.error().message, "--run 'aa': matches 2 runs");

  auto no_tg = find_stored_run(all, "bb", "db");
  ASSERT_FALSE(no_tg);
  EXPECT_EQ(no_tg.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(no_tg.error().message, "--run 'bb': the run has no tg result");
}

TEST(CostStoredRun, FillsOnlyTheFiguresNotGiven) {
  RunRecord r = run("aa01", true);
  r.energy.method = "counter";
  r.energy.idle_power_w = 20;
  r.energy.tg = PhaseEnergyInfo{0.2, 30.0, 150.0, 30.0 / 64};

  GenerationFigures none;
  fill_from_run(r, none);
  EXPECT_DOUBLE_EQ(none.tps, r.results.tg->tps.mean);
  EXPECT_NE(none.rate_source, "--tps");
  EXPECT_DOUBLE_EQ(none.watts, 150);
  EXPECT_EQ(none.power_method, "counter");
  EXPECT_DOUBLE_EQ(none.idle_watts, 20);

  GenerationFigures given;
  given.tps = 40;
  given.watts = 250;
  fill_from_run(r, given);
  EXPECT_DOUBLE_EQ(given.tps, 40);
  EXPECT_EQ(given.rate_source, "--tps");
  EXPECT_DOUBLE_EQ(given.watts, 250);
  EXPECT_EQ(given.power_method, "stated");
  EXPECT_TRUE(std::isnan(given.seconds_per_token));
  EXPECT_DOUBLE_EQ(given.idle_watts, 20);  // not given: the run's
}

}  // namespace
}  // namespace rigbench::cost
