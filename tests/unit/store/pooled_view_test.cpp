// The pooled view (store::Pooling::kRepetitions) that compare and report read: the runs of one
// configuration with the same figures are one record holding all their samples, and every
// figure compare, the regressions and the report draw from it is the one they draw from the
// runs one by one.
#include <gtest/gtest.h>

#include <cmath>

#include "core/results.h"
#include "cost/model_costs.h"
#include "report/comparison.h"
#include "report/regressions.h"
#include "store/record_sources.h"
#include "store/sqlite_store.h"
#include "support/sample_record.h"
#include "support/temp_dir.h"

namespace rigbench::store {
namespace {

// Relative closeness: pooled samples are summed in another order than the runs' one by one.
void expect_close(double a, double b, const std::string& what) {
  if (std::isnan(a) || std::isnan(b)) {
    EXPECT_EQ(std::isnan(a), std::isnan(b)) << what;
    return;
  }
  EXPECT_NEAR(a, b, 1e-9 * std::max(1.0, std::fabs(b))) << what << ": " << a << " vs " << b;
}

void expect_same_summary(const Summary& a, const Summary& b, const std::string& what) {
  EXPECT_EQ(a.n, b.n) << what;
  expect_close(a.mean, b.mean, what + " mean");
  expect_close(a.stddev, b.stddev, what + " sd");
  expect_close(a.median, b.median, what + " median");
  expect_close(a.min, b.min, what + " min");
  expect_close(a.max, b.max, what + " max");
  expect_close(a.p99, b.p99, what + " p99");
}

// Repetitions of two configurations over two builds, interleaved in time, some with energy
// and cost (two energy figures for one configuration), beside records that stay apart: a
// summary-only import, runs with a power trace, refused runs.
std::vector<RunRecord> repetitions() {
  std::vector<RunRecord> v;
  int k = 0;
  for (const char* commit : {"80fb11ac73e66d89eae2c6a91d8a77428fa733ed", "90fb11ac73e66d89eae2c6a91d8a77428fa733ed"}) {
    for (int rep = 0; rep < 6; ++rep) {
      for (int threads : {4, 8}) {
        RunRecord r = testing::sample_record("run" + std::to_string(100 + k));
        r.build.llama_cpp_commit = commit;
        r.params.n_threads = threads;
        // later builds slower at 8 threads: a regression to find
        const int64_t slow = commit[0] == '9' && threads == 8 ? 300'000'000 : 0;
        r.results.tg = make_throughput(128, {1'000'000'000 + 7'000'000 * rep + slow, 1'100'000'000 + slow});
        r.results.pp = make_throughput(512, {500'000'000 + 3'000'000 * rep, 510'000'000});
        r.results.ttft = make_latency({500'000'000 + 1'000'000 * rep});
        r.test_time = "2026-11-29T1" + std::to_string(5 - rep % 6) + ":00:00Z";  // not in id order
        r.memory.peak_rss_bytes = 1000 + static_cast<uint64_t>(k);
        if (threads == 4) {
          r.energy.method = "counter";
          r.energy.tg = PhaseEnergyInfo{2.0, 100.0, 50.0, rep % 2 ? 0.5 : 0.25};  // two figures parts
          r.cost = CostInfo{};
          r.cost->currency = "EUR";
          r.cost->price_per_kwh = 0.3;
          r.cost->gross_per_mtok = rep % 2 ? 0.05 : 0.025;
        }
        v.push_back(std::move(r));
        ++k;
      }
    }
  }
  for (int i = 0; i < 2; ++i) {
    RunRecord summary = testing::sample_record("summary" + std::to_string(i));
    summary.machine.hostname = "other";
    summary.results.pp.reset();
    summary.results.ttft.reset();
    summary.results.tg = make_summary_throughput(128, 5, 96.5, 1.25);
    summary.tags = {"source:llama-bench", "llama-bench:summary-only"};
    v.push_back(summary);
    RunRecord traced = testing::sample_record("traced" + std::to_string(i));
    traced.machine.hostname = "metered";
    traced.energy.method = "integrated";
    traced.energy.tg = PhaseEnergyInfo{2.0, 100.0, 50.0, 0.4};
    traced.energy.power_trace = {{0.0, 12.0}, {0.5, 48.25}};
    v.push_back(traced);
    RunRecord refused = testing::sample_record("refused" + std::to_string(i));
    refused.machine.hostname = "small";
    refused.results = {};
    refused.refused = "does not fit: 30 GiB needed, 24 GiB usable";
    v.push_back(refused);
  }
  return v;
}

class PooledView : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("pooled.db");
    auto store = SqliteStore::open(path_);
    ASSERT_TRUE(store);
    for (const RunRecord& r : repetitions()) ASSERT_TRUE((*store)->save(r));
  }
  std::vector<RunRecord> load(RecordView view, Pooling pooling) {
    auto all = load_records({path_}, {}, view, pooling);
    EXPECT_TRUE(all) << all.error().message;
    return all ? std::move(*all) : std::vector<RunRecord>{};
  }
  testing::TempDir dir_;
  std::string path_;
};

TEST_F(PooledView, RepetitionsOfAConfigurationAreOneRecordHoldingEverySample) {
  const std::vector<RunRecord> runs = load(RecordView::kCompare, Pooling::kNone);
  const std::vector<RunRecord> pooled = load(RecordView::kCompare, Pooling::kRepetitions);
  ASSERT_EQ(runs.size(), repetitions().size());
  // 2 builds x (8 threads: 1; 4 threads: 2 energy figures) = 6, the two summary-only imports
  // apart, the traced runs as one (compare shows no trace), the refused runs as one
  EXPECT_EQ(pooled.size(), 10u);
  int total = 0;
  for (const RunRecord& r : pooled) total += r.runs;
  EXPECT_EQ(total, static_cast<int>(runs.size()));
  // The first build's 8-thread runs: run101, run103, ..., run111.
  const RunRecord& p = pooled[1];
  EXPECT_EQ(p.runs, 6);
  EXPECT_EQ(p.record_id, "run101");
  EXPECT_EQ(p.test_time, "2026-11-29T15:00:00Z");        // the latest: when it was last measured
  EXPECT_EQ(p.first_test_time, "2026-11-29T10:00:00Z");  // the earliest: the span's start
  EXPECT_EQ(p.memory.peak_rss_bytes, 1011u);        // the highest
  ASSERT_TRUE(p.results.tg);
  ASSERT_EQ(p.results.tg->samples_ns.size(), 12u);
  EXPECT_EQ(p.results.tg->samples_ns[2], 1'007'000'000);  // run103's first, after run101's two
  EXPECT_EQ(p.results.tg->tps.n, 12u);
  ASSERT_TRUE(p.results.ttft);
  EXPECT_EQ(p.results.ttft->samples_ns.size(), 6u);
  for (const RunRecord& r : pooled) {
    if (r.record_id.starts_with("summary") || r.record_id.starts_with("traced") || r.record_id.starts_with("refused")) {
      EXPECT_EQ(r.runs, r.record_id.starts_with("summary") ? 1 : 2) << r.record_id;
    }
  }
  // The report shows power traces: runs with one stay apart.
  int traced = 0;
  for (const RunRecord& r : load(RecordView::kReport, Pooling::kRepetitions)) {
    if (!r.energy.power_trace.empty()) {
      ++traced;
      EXPECT_EQ(r.runs, 1);
    }
  }
  EXPECT_EQ(traced, 2);
}

TEST_F(PooledView, CompareAndRegressionsGiveWhatTheRunsOneByOneGive) {
  for (RecordView view : {RecordView::kCompare, RecordView::kReport}) {
    const std::vector<RunRecord> runs = load(view, Pooling::kNone);
    const std::vector<RunRecord> pooled = load(view, Pooling::kRepetitions);
    for (report::CompareBy by : {report::CompareBy::kMachine, report::CompareBy::kBuild}) {
      auto a = report::compare(runs, {by, ""});
      auto b = report::compare(pooled, {by, ""});
      ASSERT_TRUE(a && b);
      EXPECT_EQ(a->columns, b->columns);
      ASSERT_EQ(a->rows.size(), b->rows.size());
      for (std::size_t i = 0; i < a->rows.size(); ++i) {
        const report::Row &x = a->rows[i], &y = b->rows[i];
        const std::string what = x.model + " " + x.machine + " " + x.build + " " + x.test;
        EXPECT_EQ(x.test, y.test) << what;
        EXPECT_EQ(x.winner, y.winner) << what;
        EXPECT_EQ(x.verdict, y.verdict) << what;
        ASSERT_EQ(x.cells.size(), y.cells.size());
        for (std::size_t c = 0; c < x.cells.size(); ++c) {
          EXPECT_EQ(x.cells[c].state, y.cells[c].state) << what;
          EXPECT_EQ(x.cells[c].config, y.cells[c].config) << what;
          EXPECT_EQ(x.cells[c].n_configs, y.cells[c].n_configs) << what;
          EXPECT_EQ(x.cells[c].energy_flags, y.cells[c].energy_flags) << what;
          EXPECT_EQ(x.cells[c].summary_only, y.cells[c].summary_only) << what;
          expect_same_summary(x.cells[c].summary, y.cells[c].summary, what);
        }
      }
    }
    const auto ra = report::find_regressions(runs, 0.05);
    const auto rb = report::find_regressions(pooled, 0.05);
    ASSERT_EQ(ra.size(), rb.size());
    int slower = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
      EXPECT_EQ(ra[i].test, rb[i].test);
      EXPECT_EQ(ra[i].config, rb[i].config);
      EXPECT_EQ(ra[i].from_build, rb[i].from_build);
      EXPECT_EQ(ra[i].verdict, rb[i].verdict) << ra[i].test << " " << ra[i].config;
      expect_same_summary(ra[i].from, rb[i].from, ra[i].test);
      expect_same_summary(ra[i].to, rb[i].to, ra[i].test);
      expect_close(ra[i].p_slower, rb[i].p_slower, ra[i].test + " p");
      slower += ra[i].verdict == report::Change::kSlower;
    }
    EXPECT_GE(slower, 1);  // the 8-thread tg of the later build
  }
}

// Several databases are told apart by record_id, run by run: no pooling across them.
TEST_F(PooledView, SeveralDatabasesAreReadRunByRun) {
  auto all = load_records({path_, path_}, {}, RecordView::kCompare, Pooling::kRepetitions);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), repetitions().size());
}

// A pooled record's time is its latest run's (RunRecord::first_test_time the earliest's), so
// what picks "the latest" or "the first" run picks as from the runs one by one. Faked: runs of
// configurations A and B saved with hand-set times; A measured at 10:00 and 16:00, B at 12:00.
TEST(PooledViewTime, TheLatestAndTheFirstRunAreTheOnesTheRunsOneByOneGive) {
  testing::TempDir dir;
  const std::string path = dir.file("times.db");
  {
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store);
    const auto run = [](const std::string& id, const char* commit, const char* time, double price, int64_t tg_ns) {
      RunRecord r = testing::sample_record(id);
      r.build.llama_cpp_commit = commit;
      r.test_time = time;
      r.results.tg = make_throughput(128, {tg_ns, tg_ns + 10'000'000, tg_ns + 20'000'000});
      r.cost = CostInfo{};
      r.cost->currency = "EUR";
      r.cost->price_per_kwh = price;
      return r;
    };
    // build A (commit 8...): two repetitions, the same figures, pooled; build B (commit 9...) slower
    ASSERT_TRUE((*store)->save(run("a1", "80fb11ac73e66d89eae2c6a91d8a77428fa733ed", "2026-11-29T10:00:00Z", 0.30, 1'000'000'000)));
    ASSERT_TRUE((*store)->save(run("b1", "90fb11ac73e66d89eae2c6a91d8a77428fa733ed", "2026-11-29T12:00:00Z", 0.20, 1'500'000'000)));
    ASSERT_TRUE((*store)->save(run("a2", "80fb11ac73e66d89eae2c6a91d8a77428fa733ed", "2026-11-29T16:00:00Z", 0.30, 1'000'000'000)));
  }
  auto runs = load_records({path}, {}, RecordView::kCompare, Pooling::kNone);
  auto pooled = load_records({path}, {}, RecordView::kCompare, Pooling::kRepetitions);
  ASSERT_TRUE(runs && pooled);
  ASSERT_EQ(pooled->size(), 2u);
  const RunRecord& a = (*pooled)[0];
  EXPECT_EQ(a.runs, 2);
  EXPECT_EQ(a.record_id, "a1");
  EXPECT_EQ(a.test_time, "2026-11-29T16:00:00Z");
  EXPECT_EQ(a.first_test_time, "2026-11-29T10:00:00Z");
  EXPECT_EQ((*pooled)[1].first_test_time, "");  // one run: its test_time is both ends
  // The stored price is the latest priced run's: A's at 16:00 (0.30), not B's at 12:00.
  for (const auto* view : {&*runs, &*pooled}) {
    const auto price = cost::stored_price(*view);
    ASSERT_TRUE(price);
    EXPECT_DOUBLE_EQ(price->price_per_kwh, 0.30);
    EXPECT_EQ(price->price_source, "stored with the run of 2026-11-29T16:00:00Z");
  }
  // The regressions order builds by their first run: A (10:00) before B (12:00), so B is slower.
  for (const auto* view : {&*runs, &*pooled}) {
    const auto regressions = report::find_regressions(*view, 0.05);
    ASSERT_FALSE(regressions.empty());
    for (const auto& r : regressions) {
      if (r.test != "tg128") continue;
      EXPECT_EQ(r.verdict, report::Change::kSlower) << r.from_build << " -> " << r.to_build;
    }
  }
}

}  // namespace
}  // namespace rigbench::store
