// store: a serve-bench record (RunRecord::server) through the JSON codec and the database,
// in every view compare and report read.
#include <gtest/gtest.h>

#include "store/record_json.h"
#include "store/sqlite_store.h"
#include "support/sample_record.h"
#include "support/temp_dir.h"

namespace rigbench::store {
namespace {

RunRecord server_record() {
  RunRecord r = testing::sample_record();
  r.results.pp.reset();
  ServerRun s;
  s.url = "http://127.0.0.1:8080";
  s.software = "llama.cpp";
  s.version = "b0-fake";
  s.api = "openai-completions";
  s.concurrency = 4;
  s.requests = 10;
  s.completed = 8;
  s.failed = 2;
  s.errors = {{"http_status", 1}, {"timeout", 1}};
  s.duration_s = 2.5;
  s.ttft_ms = {8, 12.5, 1.0, 12.0, 10.0, 15.0, 14.0, 14.5, 14.9};
  s.tpot_ms = {8, 2.5, 0.1, 2.5, 2.4, 2.7, 2.6, 2.65, 2.69};
  s.request_throughput_rps = 3.2;
  s.output_tps = 51.2;
  s.slo = "ttft_ms=500";
  s.goodput_rps = 3.2;
  s.server_tg_tps = 400.5;
  s.client_tg_tps = 398.0;
  s.client_cpu_pct = 3.25;
  r.server = s;
  return r;
}

void expect_same_server(const ServerRun& a, const ServerRun& b) {
  EXPECT_EQ(a.url, b.url);
  EXPECT_EQ(a.software, b.software);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.api, b.api);
  EXPECT_EQ(a.concurrency, b.concurrency);
  EXPECT_EQ(a.completed, b.completed);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_DOUBLE_EQ(a.ttft_ms.p99, b.ttft_ms.p99);
  EXPECT_DOUBLE_EQ(a.tpot_ms.median, b.tpot_ms.median);
  EXPECT_DOUBLE_EQ(a.server_tg_tps, b.server_tg_tps);
  EXPECT_DOUBLE_EQ(a.client_cpu_pct, b.client_cpu_pct);
  EXPECT_EQ(a.slo, b.slo);
}

TEST(RecordJsonServer, RoundTripsAndIsAbsentFromEngineRecords) {
  const RunRecord r = server_record();
  const Json j = to_json(r);
  EXPECT_EQ(j["server"]["ttft_p99_ms"], 14.9);
  EXPECT_EQ(j["server"]["errors"]["timeout"], 1);
  auto back = from_json(j);
  ASSERT_TRUE(back);
  ASSERT_TRUE(back->server);
  expect_same_server(*r.server, *back->server);
  EXPECT_FALSE(to_json(testing::sample_record()).contains("server"));
}

TEST(RecordJsonServer, StoredAndLoadedInEveryView) {
  testing::TempDir dir;
  auto store = SqliteStore::open(dir.file("r.db"));
  ASSERT_TRUE(store);
  ASSERT_TRUE((*store)->save(server_record()));
  ASSERT_TRUE((*store)->save(testing::sample_record("fedcba9876543210fedcba9876543210")));
  for (RecordView view : {RecordView::kFull, RecordView::kReport, RecordView::kCompare}) {
    auto all = (*store)->load_all(view);
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 2u);
    ASSERT_TRUE((*all)[0].server);
    expect_same_server(*server_record().server, *(*all)[0].server);
    EXPECT_FALSE((*all)[1].server);
  }
}

}  // namespace
}  // namespace rigbench::store
