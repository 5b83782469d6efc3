// report/served_overhead: bench's in-process tg beside serve-bench's at c=1 of the same machine,
// model and output length; other served loads and other models have no pair.
#include "report/served_overhead.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "core/results.h"
#include "support/golden.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

// A serve-bench record of sample_record's machine and model: tg128 at `tps` t/s, TTFT p50 `ttft_ms`.
RunRecord served(double tps, int concurrency, double ttft_ms) {
  RunRecord r = testing::sample_record();
  r.record_id = "served" + std::to_string(concurrency) + std::to_string(static_cast<int>(tps));
  r.results = {};
  r.results.tg = ThroughputResult{};
  r.results.tg->n_tokens = 128;
  r.results.tg->samples_tps = {tps};
  r.results.tg->tps = summarize(std::vector<double>{tps});
  r.memory = {};
  ServerRun s;
  s.url = "http://127.0.0.1:8080";
  s.software = "llama.cpp";
  s.version = "b1-80fb11ac73e66d89eae2c6a91d8a77428fa733ed";
  s.api = "openai-completions";
  s.concurrency = concurrency;
  s.client_tg_tps = tps * 1.1;
  s.ttft_ms = summarize(std::vector<double>{ttft_ms});
  r.server = s;
  return r;
}

TEST(ServedOverhead, BenchAndServeBenchOfOneModelPairWithTheServersOverhead) {
  std::vector<RunRecord> records = {testing::sample_record("a"), served(72, 1, 400), served(300, 4, 900)};
  // bench's tg128: samples 64 and 128 t/s, mean 96; its TTFT of pp512: p50 750.5 ms.
  RunRecord other = served(50, 1, 10);
  other.model.fingerprint = "xxh64:ffffffffffffffff";  // another file: no pair
  other.model.n_params = 1;
  records.push_back(other);
  const RecordIdentities ids(records);
  const auto pairs = served_overheads(records, ids);
  ASSERT_EQ(pairs.size(), 1u);
  const ServedOverhead& p = pairs[0];
  EXPECT_EQ(p.test, "tg128");
  EXPECT_EQ(p.machine, "box");
  EXPECT_DOUBLE_EQ(p.in_process_tps, 96.0);
  EXPECT_DOUBLE_EQ(p.served_tps, 72.0);
  EXPECT_NEAR(p.served_client_tg_tps, 79.2, 1e-9);
  EXPECT_DOUBLE_EQ(p.overhead_pct, 25.0);
  EXPECT_NEAR(p.decode_overhead_pct, 17.5, 1e-9);  // like for like: (96 - 79.2) / 96
  EXPECT_DOUBLE_EQ(p.in_process_ttft_ms, 750.5);
  EXPECT_DOUBLE_EQ(p.served_ttft_ms, 400.0);
  EXPECT_EQ(p.server, "llama.cpp b1-80fb11ac openai-completions http://127.0.0.1:8080");
  std::ostringstream md;
  render(served_overhead_table(pairs), OutputFormat::kMarkdown, md);
  // The decode first (like for like), then the whole request.
  const std::string text = rigbench::testing::unwrapped(md.str());
  EXPECT_NE(text.find("the server's decode is 17.5 % slower than in-process; per whole request 25.0 % slower; TTFT "
                      "400.00 ms served, 750.50 ms in-process"),
            std::string::npos)
      << md.str();
  const auto json = served_overhead_json(pairs);
  ASSERT_EQ(json.size(), 1u);
  EXPECT_NEAR(json[0]["decode_overhead_pct"].get<double>(), 17.5, 1e-9);
  EXPECT_DOUBLE_EQ(json[0]["overhead_pct"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(json[0]["in_process_ttft_ms"].get<double>(), 750.5);
}

// A newcomer's compare said "the server is 82.4 % slower than in-process" against a tune trial
// at -t 1 (6146 t/s) while the plain bench of the file measured 1093 t/s: tune's trials are the
// in-process side only where no other run is there.
TEST(ServedOverhead, TuneTrialsAreNoReferenceWhereAPlainBenchRan) {
  RunRecord trial = testing::sample_record("trial");
  trial.params.n_threads = 1;
  trial.results.tg = make_throughput(128, {200'000'000, 200'000'000});  // 640 t/s
  trial.tags = {"tune:abc", "tune_round:1"};
  std::vector<RunRecord> records = {testing::sample_record("a"), trial, served(72, 1, 400)};
  const auto pairs = served_overheads(records, RecordIdentities(records));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(pairs[0].in_process_tps, 96.0);  // the plain bench, not the trial's 640
  records.erase(records.begin());                   // no plain bench: the trial it is
  const auto only = served_overheads(records, RecordIdentities(records));
  ASSERT_EQ(only.size(), 1u);
  EXPECT_DOUBLE_EQ(only[0].in_process_tps, 640.0);
}

TEST(ServedOverhead, NoInProcessRunNoPair) {
  const std::vector<RunRecord> records = {served(72, 1, 400)};
  const RecordIdentities ids(records);
  EXPECT_TRUE(served_overheads(records, ids).empty());
}

}  // namespace
}  // namespace rigbench::report
