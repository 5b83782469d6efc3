#include "store/record_json.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/results.h"
#include "support/sample_record.h"

namespace rigbench::store {
namespace {

TEST(RecordJson, CarriesFieldsWithUnitsInNames) {
  const Json j = to_json(testing::sample_record());
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_EQ(j["model"]["size_bytes"], 1185376);
  EXPECT_EQ(j["model"]["n_params"], 292800);
  EXPECT_EQ(j["params"]["n_prompt"], 512);
  EXPECT_DOUBLE_EQ(j["results"]["pp"]["avg_tps"].get<double>(), 768.0);
  EXPECT_DOUBLE_EQ(j["results"]["tg"]["median_tps"].get<double>(), 96.0);
  EXPECT_DOUBLE_EQ(j["results"]["ttft"]["avg_ms"].get<double>(), 750.5);
  EXPECT_EQ(j["results"]["pp"]["samples_ns"].size(), 2u);
  EXPECT_EQ(j["memory"]["buffers"][0]["context_bytes"], 163840);
  EXPECT_EQ(j["machine"]["gpus"][0]["name"], "CUDA0");
}

TEST(RecordJson, RoundTripsEveryField) {
  const RunRecord a = testing::sample_record();
  auto b = from_json(to_json(a));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(to_json(*b), to_json(a));
  EXPECT_EQ(b->model.name, a.model.name);
  EXPECT_EQ(b->results.tg->samples_ns, a.results.tg->samples_ns);
  EXPECT_DOUBLE_EQ(b->results.tg->tps.mean, 96.0);
}

// The precision and noise a bench run keeps come back from JSON; the interval is derived.
TEST(RecordJson, RoundTripKeepsPrecisionAndNoise) {
  RunRecord a = testing::sample_record();
  a.precision = {"auto", 2, 20, true, "target"};
  a.noise = {{"governor", "", "CPU frequency governor powersave", "use performance"}};
  const Json j = to_json(a);
  EXPECT_EQ(j["precision"]["ci_level"], 0.95);
  EXPECT_NEAR(j["results"]["tg"]["ci95_pct"].get<double>(), 423.5401578724898, 1e-9);
  EXPECT_EQ(j["noise"][0]["note"], "CPU frequency governor powersave");
  const auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->precision.repetitions_mode, "auto");
  EXPECT_DOUBLE_EQ(b->precision.ci_target_pct, 2);
  EXPECT_DOUBLE_EQ(b->precision.max_time_s, 20);
  EXPECT_TRUE(b->precision.reached);
  EXPECT_EQ(b->precision.stopped_by, "target");
  ASSERT_EQ(b->noise.size(), 1u);
  EXPECT_EQ(b->noise[0].code, "governor");
  EXPECT_EQ(b->noise[0].remedy, "use performance");
  // A record from before these fields: fixed, target unknown, no noise.
  Json old = j;
  old.erase("precision");
  old.erase("noise");
  const auto c = from_json(old);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->precision.repetitions_mode, "fixed");
  EXPECT_TRUE(std::isnan(c->precision.ci_target_pct));
  EXPECT_TRUE(c->noise.empty());
}

// Records of earlier builds began a phase's note with its phase ("tg: CV 9 %"), which the
// note's phase field holds: read, the text is the note alone, so printers write the phase once.
TEST(RecordJson, OldNoiseNoteTextStartingWithItsPhaseReadsWithoutIt) {
  RunRecord a = testing::sample_record();
  a.noise = {{"high_cv", "tg", "CV 9 %", "quiet the machine"}};
  Json old = to_json(a);
  EXPECT_EQ(old["noise"][0]["note"], "CV 9 %");  // written without the phase
  old["noise"][0]["note"] = "tg: CV 9 %";
  old["noise"].push_back({{"code", "outliers"}, {"phase", "pp"}, {"note", "tg: text of another phase"}, {"remedy", ""}});
  const auto b = from_json(old);
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_EQ(b->noise.size(), 2u);
  EXPECT_EQ(b->noise[0].phase, "tg");
  EXPECT_EQ(b->noise[0].text, "CV 9 %");
  EXPECT_EQ(b->noise[1].text, "tg: text of another phase");  // not its phase: kept as it is
}

TEST(RecordJson, RoundTripKeepsLoadMode) {
  RunRecord a = testing::sample_record();
  a.params.load_mode = "mmap+mlock";
  const Json j = to_json(a);
  EXPECT_EQ(j["params"]["load_mode"], "mmap+mlock");
  auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->params.load_mode, "mmap+mlock");
}

// A split run (bench --rpc) keeps the two terms of its bound; a local run writes neither.
TEST(RecordJson, SplitRunKeepsItsBoundsMemoryAndNetworkTermsLocalRunWritesNeither) {
  EXPECT_FALSE(to_json(testing::sample_record())["roofline"].contains("network_ms_per_token"));
  RunRecord a = testing::sample_record();
  a.params.rpc = "127.0.0.1:50052";
  a.roofline.tg_bound_tps = 40.0;
  a.roofline.memory_bound_tps = 8000.0;
  a.roofline.network_ms_per_token = 24.875;
  const Json j = to_json(a);
  EXPECT_EQ(j["roofline"]["memory_bound_tps"], 8000.0);
  EXPECT_EQ(j["roofline"]["network_ms_per_token"], 24.875);
  auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->roofline.memory_bound_tps, 8000.0);
  EXPECT_EQ(b->roofline.network_ms_per_token, 24.875);
}

TEST(RecordJson, RecordWithoutLoadModeReadsAuto) {
  Json j = to_json(testing::sample_record());
  j["params"]["load_mode"] = "none";
  ASSERT_EQ(from_json(j)->params.load_mode, "none");
  j["params"].erase("load_mode");  // as written before load_mode was recorded
  auto r = from_json(j);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->params.load_mode, "auto");
}

TEST(RecordJson, SyntheticRecipeAndSeedRoundTripAndOldRecordsReadRecipe1Seed42) {
  RunRecord a = testing::sample_record();
  a.model.synthetic = true;
  a.model.synthetic_values = 2;
  a.model.synthetic_seed = 7;
  Json j = to_json(a);
  EXPECT_EQ(j["model"]["synthetic_values"], 2);
  EXPECT_EQ(j["model"]["synthetic_seed"], 7);
  auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->model.synthetic_values, 2u);
  EXPECT_EQ(b->model.synthetic_seed, 7u);
  j["model"].erase("synthetic_values");  // a record from before the fields
  j["model"].erase("synthetic_seed");
  auto old = from_json(j);
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_EQ(old->model.synthetic_values, 1u);
  EXPECT_EQ(old->model.synthetic_seed, 42u);
}

TEST(RecordJson, StatisticsAreRecomputedFromSamples) {
  Json j = to_json(testing::sample_record());
  j["results"]["pp"]["avg_tps"] = 1e9;  // a figure that disagrees with the samples
  auto r = from_json(j);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->results.pp->tps.mean, 768.0);
}

TEST(RecordJson, MissingKeyIsInvalidInput) {
  Json j = to_json(testing::sample_record());
  j["params"].erase("n_gen");
  auto r = from_json(j);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().message.find("n_gen"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::store

namespace rigbench::store {
namespace {

// tg's per-token latencies and a prompt suite survive JSON, and their statistics are recomputed.
TEST(RecordJson, PerTokenLatencyAndSuiteRoundTripWithPercentiles) {
  RunRecord a = testing::sample_record();
  a.results.tg = make_throughput(4, {4'000'000, 4'000'000}, {1'000'000, 1'000'000, 1'000'000, 1'000'000, 1'000'000,
                                                             1'000'000, 1'000'000, 1'000'000});
  SuiteResult s;
  s.name = "builtin";
  s.hash = "xxh64:0123456789abcdef";
  s.runs = 1;
  PromptResult p;
  p.id = "a";
  p.category = "code";
  p.n_prompt_tokens = 12;
  p.n_gen_asked = 3;
  p.n_generated = {3};
  p.prefill_ns = {4'000'000};
  p.ttft_ns = {5'000'000};
  p.gen_ns = {20'000'000};
  p.itl_ns = {{10'000'000, 10'000'000}};
  s.prompts.push_back(p);
  a.results.suite = s;
  const Json j = to_json(a);
  EXPECT_EQ(j["results"]["tg"]["itl_samples_ns"].size(), 8u);
  EXPECT_DOUBLE_EQ(j["results"]["tg"]["itl_p99_ms"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["results"]["ttft"]["p50_ms"].get<double>(), 750.5);
  EXPECT_DOUBLE_EQ(j["results"]["pp"]["p99_tps"].get<double>(), 512 + 0.99 * 512);
  EXPECT_DOUBLE_EQ(j["results"]["suite"]["gen_p50_tps"].get<double>(), 100.0);  // 2 tokens in 20 ms
  EXPECT_DOUBLE_EQ(j["results"]["suite"]["ttft_p95_ms"].get<double>(), 5.0);
  EXPECT_EQ(j["results"]["suite"]["categories"][0]["category"], "code");
  auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(to_json(*b), j);
  EXPECT_EQ(b->results.tg->itl_ms.n, 8u);
  ASSERT_TRUE(b->results.suite);
  EXPECT_EQ(b->results.suite->prompts[0].itl_ns, p.itl_ns);
}

TEST(RecordJson, SummaryOnlyResultsHaveNullPercentiles) {
  RunRecord a = testing::sample_record();
  a.results.pp = make_summary_throughput(512, 5, 100, 3);
  const Json j = to_json(a);
  EXPECT_TRUE(j["results"]["pp"]["p95_tps"].is_null());
  EXPECT_TRUE(j["results"]["pp"]["p50_tps"].is_null());
}

}  // namespace
}  // namespace rigbench::store
