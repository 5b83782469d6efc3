// compare's answers (report/reversals.h) on the first study's table ("no universal winner",
// reference.md section 1), written as importable rigbench records in
// tests/data/answers/first_study.jsonl: tg128 t/s of M2 Pro 19.1 / 12.4 / 11.6, RTX 2080 Ti
// 59.9 / 43.0 / 40.1, RX 6600 XT 16.4 / 20.4 / 20.9 for Phi-3 mini, Qwen2.5 7B, Llama 3.1 8B,
// five repetitions each within +-1 % of the published figure; Llama 3.1 70B Q3_K_S ran on the
// 2080 Ti host only (1.3 t/s), refused for memory on the other two.
#include "report/reversals.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/results.h"
#include "report/compare_printers.h"
#include "report/html_report.h"
#include "cost/estimate.h"
#include "store/import.h"
#include "support/golden.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

std::vector<RunRecord> first_study() {
  auto batch = store::read_import_file(std::string(RIGBENCH_TEST_DATA) + "/answers/first_study.jsonl");
  EXPECT_TRUE(batch) << (batch ? "" : batch.error().message);
  return batch ? batch->records : std::vector<RunRecord>{};
}

Answers first_study_answers() {
  const auto records = first_study();
  auto cmp = compare(records, {});
  EXPECT_TRUE(cmp);
  return find_answers(*cmp, Metric::kTg);
}

const PairAnswer* find_pair(const Comparison& cmp, const Answers& a, const std::string& x, const std::string& y) {
  for (const PairAnswer& p : a.pairs) {
    if (cmp.columns[p.a] == x && cmp.columns[p.b] == y) return &p;
  }
  return nullptr;
}

TEST(Reversals, FirstStudyRxBeatsTheMacOnLlamaAndLosesOnPhi) {
  const auto records = first_study();
  ASSERT_EQ(records.size(), 12u);
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers a = find_answers(*cmp, Metric::kTg);
  // RX 6600 XT is ahead on two models, so it is the pair's first side.
  const PairAnswer* p = find_pair(*cmp, a, "RX 6600 XT", "M2 Pro");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->reversal);
  EXPECT_EQ(p->a_ahead, 2);
  EXPECT_EQ(p->b_ahead, 1);
  ASSERT_EQ(p->items.size(), 3u);  // the 70B fits neither: not an item of this pair
  EXPECT_EQ(p->items[0].item, "Llama 3.1 8B Q4_K_M");
  EXPECT_NEAR(p->items[0].change, 20.9 / 11.6 - 1, 1e-4);  // +80 %
  EXPECT_TRUE(p->items[0].significant);
  EXPECT_LT(p->items[0].p, 1e-6);
  EXPECT_EQ(p->items[2].item, "Phi-3 mini Q4_K_M");
  EXPECT_NEAR(p->items[2].change, 16.4 / 19.1 - 1, 1e-4);  // -14 %
  EXPECT_TRUE(p->items[2].significant);
  EXPECT_EQ(p->sentence,
            "RX 6600 XT is faster than M2 Pro on Llama 3.1 8B Q4_K_M (+80 %, significant) and Qwen2.5 7B Q4_K_M "
            "(+65 %, significant), and slower on Phi-3 mini Q4_K_M (\u221214 %, significant): no universal winner "
            "between them.");
}

TEST(Reversals, FirstStudyHeadlineNamesTheOneMachineThatLeadsEverywhere) {
  const Answers a = first_study_answers();
  // The 2080 Ti leads every model and alone runs the 70B: across all three machines there is a
  // universal winner; the reversal is between the other two.
  EXPECT_EQ(a.headline,
            "RTX 2080 Ti is fastest on every model (tg128 t/s): Llama 3.1 70B Q3_K_S (the only one that fits), "
            "Llama 3.1 8B Q4_K_M (+92 % over RX 6600 XT, significant), Phi-3 mini Q4_K_M (+214 % over M2 Pro, "
            "significant) and Qwen2.5 7B Q4_K_M (+111 % over RX 6600 XT, significant).");
  ASSERT_EQ(a.sentences.size(), 4u);
  EXPECT_EQ(a.sentences[0], a.headline);
  EXPECT_TRUE(a.sentences[1].starts_with("RX 6600 XT is faster than M2 Pro")) << a.sentences[1];
  EXPECT_EQ(a.sentences[2],
            "RTX 2080 Ti is faster than M2 Pro on every model both ran: Qwen2.5 7B Q4_K_M (+247 %, significant), "
            "Llama 3.1 8B Q4_K_M (+246 %, significant) and Phi-3 mini Q4_K_M (+214 %, significant); only RTX 2080 Ti "
            "fits Llama 3.1 70B Q3_K_S.");
  EXPECT_EQ(a.sentences[3],
            "RTX 2080 Ti is faster than RX 6600 XT on every model both ran: Phi-3 mini Q4_K_M (+265 %, significant), "
            "Qwen2.5 7B Q4_K_M (+111 %, significant) and Llama 3.1 8B Q4_K_M (+92 %, significant); only RTX 2080 Ti "
            "fits Llama 3.1 70B Q3_K_S.");
}

TEST(Reversals, FirstStudyRankingPerModel) {
  const auto records = first_study();
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers a = find_answers(*cmp, Metric::kTg);
  ASSERT_EQ(a.rankings.size(), 4u);
  const Table t = rankings_table(*cmp, a);
  const std::string md = testing::unpadded(markdown_table(t));
  EXPECT_NE(md.find("| Llama 3.1 8B Q4_K_M | RTX 2080 Ti 40.10 > RX 6600 XT 20.90 > M2 Pro 11.60 | RTX 2080 Ti | "
                    "<0.0001 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| Llama 3.1 70B Q3_K_S | RTX 2080 Ti 1.30 > M2 Pro does not fit > RX 6600 XT does not fit | "
                    "RTX 2080 Ti | - |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| Phi-3 mini Q4_K_M | RTX 2080 Ti 59.90 > M2 Pro 19.10 > RX 6600 XT 16.40 | RTX 2080 Ti |"),
            std::string::npos)
      << md;
}

// Without the 2080 Ti, the headline says there is no universal winner and names each leader.
TEST(Reversals, WithoutTheWinnerNoUniversalWinner) {
  std::vector<RunRecord> records;
  for (const RunRecord& r : first_study()) {
    if (r.machine.hostname != "RTX 2080 Ti") records.push_back(r);
  }
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers a = find_answers(*cmp, Metric::kTg);
  EXPECT_EQ(a.universal_winner, -1);
  EXPECT_EQ(a.headline,
            "No universal winner (tg128 t/s): M2 Pro leads on Phi-3 mini Q4_K_M (+16 % over RX 6600 XT, "
            "significant); RX 6600 XT leads on Llama 3.1 8B Q4_K_M (+80 % over M2 Pro, significant) and Qwen2.5 7B "
            "Q4_K_M (+65 % over M2 Pro, significant).");
  // The 70B fits neither: no ranking for it.
  EXPECT_EQ(a.rankings.size(), 3u);
}

// A tg128 record of `model` on `host` (its own file) with these tg samples, nothing else measured.
RunRecord tg_record(const std::string& id, const std::string& host, const std::string& model,
                    std::vector<int64_t> tg_ns) {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = host;
  r.model.name = model;
  r.model.fingerprint = "xxh64:" + model;
  r.params.n_prompt = 0;  // a tg test
  r.results.pp.reset();
  r.results.ttft.reset();
  r.results.tg = make_throughput(128, std::move(tg_ns));
  return r;
}

// Two machines, one clearly ahead on every model: "rig-b is fastest on every model ..." was
// followed by "rig-b is faster than rig-a on every model ...": said once.
TEST(Reversals, TwoColumnsWithAUniversalWinnerSayItOnce) {
  const std::vector<RunRecord> records = {
      tg_record("1", "rig-a", "m1", {2'000'000'000, 2'001'000'000, 1'999'000'000}),
      tg_record("2", "rig-b", "m1", {1'000'000'000, 1'001'000'000, 999'000'000}),
      tg_record("3", "rig-a", "m2", {2'000'000'000, 2'001'000'000, 1'999'000'000}),
      tg_record("4", "rig-b", "m2", {1'000'000'000, 1'001'000'000, 999'000'000}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers an = find_answers(*cmp, Metric::kTg);
  EXPECT_TRUE(an.headline.starts_with("rig-b is fastest on every model")) << an.headline;
  EXPECT_EQ(an.sentences, (std::vector<std::string>{an.headline}));
  ASSERT_EQ(an.pairs.size(), 1u);  // the pair is still there for the pairs table and json
  EXPECT_TRUE(an.pairs[0].sentence.starts_with("rig-b is faster than rig-a on every model both ran"))
      << an.pairs[0].sentence;
}

// Differences inside the noise are named as such, and never make a reversal.
TEST(Reversals, NoiseIsNotAReversal) {
  const auto rec = tg_record;
  const std::vector<RunRecord> records = {
      rec("1", "a", "m1", {1'000'000'000, 1'100'000'000, 900'000'000}),
      rec("2", "b", "m1", {1'010'000'000, 1'090'000'000, 910'000'000}),
      rec("3", "a", "m2", {1'000'000'000, 1'001'000'000, 999'000'000}),
      rec("4", "b", "m2", {2'000'000'000, 2'001'000'000, 1'999'000'000}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers an = find_answers(*cmp, Metric::kTg);
  ASSERT_EQ(an.pairs.size(), 1u);
  const PairAnswer& p = an.pairs[0];
  EXPECT_FALSE(p.reversal);
  EXPECT_EQ(cmp->columns[p.a], "a");
  // A difference the test does not hold up is never called faster.
  EXPECT_EQ(p.sentence,
            "a is faster than b on m2 F32 (+100 %, significant); no clear difference on m1 F32 (a +0.5 %, not "
            "significant).");
  EXPECT_EQ(an.headline,
            "No universal winner (tg128 t/s): a leads on m2 F32 (+100 % over b, significant); no clear leader on "
            "m1 F32 (a +0.5 % over b, not significant).");
}

// The same -t 2 run on one VM stored as two machines read "b leads (+15 %, significant)" while its
// cells carried [noise: outliers, steal]; a model no machine could run was left out of the answers;
// "(synthetic v2, seed 42)" was repeated in every item.
TEST(Reversals, NoisyRunsAreSaidWhatFitsNowhereIsAnAnswerAndTheSyntheticLabelIsSaidOnce) {
  auto rec = [](const std::string& id, const std::string& host, const std::string& model, std::vector<int64_t> tg_ns) {
    RunRecord r = testing::sample_record(id);
    r.machine.hostname = host;
    r.model.name = model;
    r.model.fingerprint = "xxh64:" + model;
    r.model.synthetic = true;
    r.model.synthetic_values = 2;
    r.model.synthetic_seed = 42;
    r.params.n_prompt = 0;
    r.results.pp.reset();
    r.results.ttft.reset();
    r.results.tg = make_throughput(128, std::move(tg_ns));
    return r;
  };
  std::vector<RunRecord> records = {
      rec("1", "a", "m1", {1'000'000'000, 1'001'000'000, 999'000'000}),
      rec("2", "b", "m1", {2'000'000'000, 2'001'000'000, 1'999'000'000}),
      rec("3", "a", "big", {}),
      rec("4", "b", "big", {}),
  };
  records[0].noise = {NoiseNote{"steal", "tg", "another VM took 12 % of the CPU", "run on a quiet host"}};
  for (std::size_t i : {2u, 3u}) {
    records[i].results.tg.reset();
    records[i].params.n_gen = 128;
    records[i].refused = "needs 40 GiB, 8 GiB usable";
  }
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Answers an = find_answers(*cmp, Metric::kTg);
  EXPECT_EQ(an.items_note, "synthetic v2, seed 42");
  ASSERT_EQ(an.pairs.size(), 1u);
  ASSERT_FALSE(an.pairs[0].items.empty());
  EXPECT_EQ(an.pairs[0].items[0].noise, (std::vector<std::string>{"steal"}));
  EXPECT_NE(an.pairs[0].sentence.find("m1 F32 (+100 %, significant; noisy runs: steal)"), std::string::npos)
      << an.pairs[0].sentence;
  EXPECT_EQ(an.pairs[0].sentence.find("synthetic"), std::string::npos) << an.pairs[0].sentence;
  EXPECT_EQ(an.fits_nowhere, (std::vector<std::string>{"big F32 does not fit on a or b (no run of it fits)."}));
  std::ostringstream md;
  print_answer_sentences({an}, md);
  EXPECT_NE(md.str().find("Answers (tg128 t/s; models: synthetic v2, seed 42; significant:"), std::string::npos)
      << md.str();
}

// A new user's database of a real model and a synthetic one: "(synthetic v2, seed 42)" was in
// every answer and ranking row, as only an all-synthetic set said it once. The synthetic items say
// "(synthetic)" (the compare table's note says what that is).
TEST(Reversals, BesideARealModelTheSyntheticRecipeIsSaidOnceAndItsItemsSaySynthetic) {
  auto rec = [](const std::string& id, const std::string& host, const std::string& model, bool synthetic,
                std::vector<int64_t> tg_ns) {
    RunRecord r = testing::sample_record(id);
    r.machine.hostname = host;
    r.model.name = model;
    r.model.fingerprint = "xxh64:" + model;
    r.model.synthetic = synthetic;
    r.model.synthetic_values = synthetic ? 2 : 0;
    r.model.synthetic_seed = synthetic ? 42 : 0;
    r.params.n_prompt = 0;
    r.results.pp.reset();
    r.results.ttft.reset();
    r.results.tg = make_throughput(128, std::move(tg_ns));
    return r;
  };
  const std::vector<RunRecord> records = {
      rec("1", "a", "real", false, {1'000'000'000, 1'001'000'000, 999'000'000}),
      rec("2", "b", "real", false, {2'000'000'000, 2'001'000'000, 1'999'000'000}),
      rec("3", "a", "synth", true, {1'000'000'000, 1'001'000'000, 999'000'000}),
      rec("4", "b", "synth", true, {2'000'000'000, 2'001'000'000, 1'999'000'000}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp) << cmp.error().message;
  const Answers an = find_answers(*cmp, Metric::kTg);
  EXPECT_EQ(an.items_note, "");
  ASSERT_EQ(an.pairs.size(), 1u);
  EXPECT_EQ(an.pairs[0].sentence.find("seed 42"), std::string::npos) << an.pairs[0].sentence;
  EXPECT_NE(an.pairs[0].sentence.find("synth F32 (synthetic)"), std::string::npos) << an.pairs[0].sentence;
  for (const RankingAnswer& r : an.rankings) EXPECT_EQ(r.item.find("seed 42"), std::string::npos) << r.item;
  std::ostringstream md;
  print_answer_sentences({an}, md);
  EXPECT_EQ(md.str().find("seed 42"), std::string::npos) << md.str();

  // By model (across sizes) the models are the columns: "synth F32 (synthetic)" there too, never
  // its recipe after every machine.
  CompareOptions by_model;
  by_model.by = CompareBy::kModel;
  by_model.across_sizes = true;
  auto models = compare(records, by_model);
  ASSERT_TRUE(models) << models.error().message;
  const Answers bm = find_answers(*models, Metric::kTg);
  std::ostringstream bm_md;
  print_answer_sentences({bm}, bm_md);
  EXPECT_FALSE(bm.sentences.empty());
  EXPECT_EQ(bm_md.str().find("seed 42"), std::string::npos) << bm_md.str();
  EXPECT_NE(bm_md.str().find("synth F32 (synthetic)"), std::string::npos) << bm_md.str();
}

// The same -t 2 run on one shared VM stored as two machines: b +15 % with p < 0.0001 on three
// tight repetitions a side, while a's run carries a steal note. The within-run spread does not
// see what moved the whole run, so the table and the answers call the lead inconclusive
// (one rule: test_cells); outliers alone (Welch's test sees them) or a lead beyond 1.25x do not.
TEST(Reversals, ALeadOnARunDisturbedByStealIsInconclusiveInTheTableAndTheAnswers) {
  const auto rec = tg_record;
  auto records_with = [&](const std::string& code, double b_speedup) {
    const auto b_ns = [&](int64_t ns) { return static_cast<int64_t>(static_cast<double>(ns) / b_speedup); };
    std::vector<RunRecord> records = {
        rec("1", "rig-a", "m1", {1'000'000'000, 1'001'000'000, 999'000'000}),
        rec("2", "rig-b", "m1", {b_ns(1'000'000'000), b_ns(1'001'000'000), b_ns(999'000'000)}),
    };
    records[0].noise = {NoiseNote{code, code == "outliers" ? "tg" : "", "seen", "re-run on a quiet machine"}};
    return records;
  };
  {
    const auto records = records_with("steal", 1.15);
    auto cmp = compare(records, {});
    ASSERT_TRUE(cmp) << cmp.error().message;
    const auto tg =
        std::find_if(cmp->rows.begin(), cmp->rows.end(), [](const Row& r) { return r.metric == Metric::kTg; });
    ASSERT_NE(tg, cmp->rows.end());
    EXPECT_LT(tg->p, 1e-4);  // the test alone would call it
    EXPECT_EQ(tg->winner, -1);
    EXPECT_EQ(tg->verdict, "inconclusive: noisy runs");
    std::ostringstream md;
    print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
    EXPECT_NE(md.str().find("inconclusive: noisy runs: the test separates the two best"), std::string::npos)
        << md.str();
    const Answers an = find_answers(*cmp, Metric::kTg);
    ASSERT_EQ(an.pairs.size(), 1u);
    EXPECT_FALSE(an.pairs[0].items[0].significant);
    EXPECT_TRUE(an.pairs[0].items[0].inconclusive);
    EXPECT_EQ(an.pairs[0].b_ahead + an.pairs[0].a_ahead, 0);
    EXPECT_EQ(an.pairs[0].sentence,
              "rig-a and rig-b show no clear difference on m1 F32 (rig-a \u221213 %, inconclusive; noisy runs: "
              "steal).");
    EXPECT_EQ(an.headline,
              "No clear leader (tg128 t/s): the lead over the runner-up is within noise on m1 F32 (rig-b +15 % over "
              "rig-a, inconclusive; noisy runs: steal).");
    const auto j = answers_json(*cmp, an);
    EXPECT_EQ(j["pairs"][0]["items"][0]["inconclusive"], true);
  }
  for (const auto& [code, speedup] : std::vector<std::pair<std::string, double>>{{"outliers", 1.15}, {"steal", 1.3}}) {
    const auto records = records_with(code, speedup);
    auto cmp = compare(records, {});
    ASSERT_TRUE(cmp) << cmp.error().message;
    const auto tg =
        std::find_if(cmp->rows.begin(), cmp->rows.end(), [](const Row& r) { return r.metric == Metric::kTg; });
    ASSERT_NE(tg, cmp->rows.end());
    ASSERT_GE(tg->winner, 0) << code << " " << speedup;
    EXPECT_EQ(cmp->columns[tg->winner], "rig-b") << code << " " << speedup;
    EXPECT_EQ(tg->verdict, "") << code;
    const Answers an = find_answers(*cmp, Metric::kTg);
    EXPECT_TRUE(an.pairs[0].items[0].significant) << code;
    EXPECT_TRUE(an.headline.starts_with("rig-b is fastest on every model")) << an.headline;
  }
}

// Three columns where the top two are within noise and the third is far behind: the headline
// says the lead over the runner-up is within noise (not "the differences"), so it agrees with
// the pair lines below it, one of which is significant.
TEST(Reversals, HeadlineWithoutALeaderAgreesWithASignificantPairBelowIt) {
  auto rec = [](const std::string& id, const std::string& host, std::vector<int64_t> tg_ns) {
    RunRecord r = testing::sample_record(id);
    r.machine.hostname = host;
    r.model.name = "m1";
    r.results.pp.reset();
    std::vector<int64_t> ttft_ns;
    for (int64_t ns : tg_ns) ttft_ns.push_back(ns / 10);
    r.results.tg = make_throughput(128, std::move(tg_ns));
    r.results.ttft = make_latency(std::move(ttft_ns));
    return r;
  };
  const std::vector<RunRecord> records = {
      rec("1", "a", {1'000'000'000, 1'100'000'000, 900'000'000}),
      rec("2", "b", {1'010'000'000, 1'090'000'000, 910'000'000}),
      rec("3", "c", {3'000'000'000, 3'001'000'000, 2'999'000'000}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  for (const Metric m : {Metric::kTg, Metric::kTtft}) {
    const Answers an = find_answers(*cmp, m);
    ASSERT_FALSE(an.sentences.empty());
    EXPECT_EQ(an.headline.find("the differences are within noise"), std::string::npos) << an.headline;
    EXPECT_TRUE(an.headline.starts_with("No clear leader (")) << an.headline;
    EXPECT_NE(an.headline.find("the lead over the runner-up is within noise on "), std::string::npos) << an.headline;
    EXPECT_NE(an.headline.find(", not significant)."), std::string::npos) << an.headline;
    bool significant_pair = false;
    for (const PairAnswer& p : an.pairs) significant_pair |= p.sentence.find(", significant)") != std::string::npos;
    EXPECT_TRUE(significant_pair);  // a and b are each significantly ahead of c
  }
  EXPECT_EQ(find_answers(*cmp, Metric::kTg).headline,
            "No clear leader (tg128 (pg) t/s): the lead over the runner-up is within noise on "
            "m1 F32 (a +0.5 % over b, not significant).");  // TTFT and tg of one run: a -pg test
}

// old2023.json beside old2024_9312.csv (shared/cases/compare): a csv summary of unknown n
// cannot be tested, so the headline says untested, not "within noise" (it was never tested).
TEST(Reversals, AnUntestedDifferenceIsNotCalledNoise) {
  RunRecord samples = testing::sample_record("2023");
  samples.build.llama_cpp_commit = "1f0bccb0";
  samples.results.pp.reset();
  samples.results.ttft.reset();
  samples.results.tg = make_throughput(128, {2'970'000'000, 2'940'000'000, 2'990'000'000});  // ~43 t/s
  RunRecord summary = testing::sample_record("2024");
  summary.build.llama_cpp_commit = "506122d0";
  summary.results.pp.reset();
  summary.results.ttft.reset();
  summary.results.tg = make_summary_throughput(128, 0, 158.16, 0.20);  // csv without -r N
  const std::vector<RunRecord> records = {samples, summary};
  auto cmp = compare(records, {CompareBy::kBuild, ""});
  ASSERT_TRUE(cmp);
  const Answers an = find_answers(*cmp, Metric::kTg);
  EXPECT_EQ(an.headline.find("within noise"), std::string::npos) << an.headline;
  EXPECT_NE(an.headline.find("untested"), std::string::npos) << an.headline;
}

TEST(Reversals, ChangeText) {
  EXPECT_EQ(change_text(0.8017), "+80 %");
  EXPECT_EQ(change_text(-0.1414), "\u221214 %");
  EXPECT_EQ(change_text(0.004), "+0.4 %");
  EXPECT_EQ(change_text(0.0), "±0 %");
  EXPECT_EQ(change_text(std::nan("")), "");
}

// --by backend: the first study's Metal, CUDA and Vulkan machines compared as backends (each
// machine's build lists one offload backend and ran -ngl 99): the same reversal, named by backend.
TEST(Reversals, FirstStudyByBackend) {
  const auto records = first_study();
  auto cmp = compare(records, {CompareBy::kBackend});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->columns, (std::vector<std::string>{"CUDA", "Metal", "Vulkan"}));
  const Answers a = find_answers(*cmp, Metric::kTg);
  const PairAnswer* p = find_pair(*cmp, a, "Vulkan", "Metal");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->sentence,
            "Vulkan is faster than Metal on Llama 3.1 8B Q4_K_M (+80 %, significant) and Qwen2.5 7B Q4_K_M (+65 %, "
            "significant), and slower on Phi-3 mini Q4_K_M (\u221214 %, significant): no universal winner between "
            "them.");
  EXPECT_TRUE(a.headline.starts_with("CUDA is fastest on every model (tg128 t/s): Llama 3.1 70B Q3_K_S (the only one "
                                     "that fits)"))
      << a.headline;
}

TEST(Reversals, BackendIdentity) {
  RunRecord r = testing::sample_record();
  r.devices_used = {"Vulkan0", "Vulkan1"};
  EXPECT_EQ(backend_identity(r).label, "Vulkan");
  r.devices_used = {"CUDA0", "CPU"};
  EXPECT_EQ(backend_identity(r).label, "CUDA+CPU");
  r.devices_used = {"CPU"};
  EXPECT_EQ(backend_identity(r).label, "CPU");
  // Without the devices (an import): the build's offload backends, unless -ngl 0.
  r.devices_used.clear();
  r.machine.backends = {"CPU", "BLAS", "Metal"};
  r.params.n_gpu_layers = 99;
  EXPECT_EQ(backend_identity(r).label, "Metal");
  r.params.n_gpu_layers = 0;
  EXPECT_EQ(backend_identity(r).label, "CPU");
  r.machine.backends = {"CPU", "BLAS"};
  r.params.n_gpu_layers = 99;
  EXPECT_EQ(backend_identity(r).label, "CPU");
  r.machine.backends.clear();
  EXPECT_EQ(backend_identity(r).label, "unknown backend");
  EXPECT_FALSE(parse_compare_by("backends"));
  EXPECT_EQ(parse_compare_by("backend").value(), CompareBy::kBackend);
}

// One machine, one model, its layers on the CPU (-ngl 0) and on Vulkan (-ngl 99): --by backend
// puts the two side by side; the rows name the model only.
TEST(Reversals, CpuAndVulkanOnOneMachineFakedAsRecords) {
  auto rec = [](const std::string& id, int ngl, std::vector<std::string> devices, std::vector<int64_t> tg_ns) {
    RunRecord r = testing::sample_record(id);
    r.machine.backends = {"CPU", "Vulkan"};
    r.params.n_gpu_layers = ngl;
    r.devices_used = std::move(devices);
    r.results.pp.reset();
    r.results.ttft.reset();
    r.results.tg = make_throughput(128, std::move(tg_ns));
    return r;
  };
  const std::vector<RunRecord> records = {
      rec("1", 0, {"CPU"}, {4'000'000'000, 4'040'000'000, 3'960'000'000}),     // 32 t/s
      rec("2", 99, {"Vulkan0"}, {1'000'000'000, 1'010'000'000, 990'000'000}),  // 128 t/s
  };
  auto cmp = compare(records, {CompareBy::kBackend});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->columns, (std::vector<std::string>{"CPU", "Vulkan"}));
  ASSERT_EQ(cmp->rows.size(), 2u);  // tg and memory
  EXPECT_EQ(cmp->rows[0].metric, Metric::kTg);
  EXPECT_EQ(cmp->rows[0].winner, 1);
  const Answers a = find_answers(*cmp, Metric::kTg);
  ASSERT_EQ(a.pairs.size(), 1u);
  EXPECT_EQ(a.pairs[0].sentence, "Vulkan is faster than CPU on Model, \"quoted\" | piped F32 (+300 %, significant).");
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md);
  EXPECT_NE(md.str().find("Compared by backend; baseline: CPU."), std::string::npos) << md.str();
}

// Lower is better for TTFT, J per token and cost per Mtok: the one with the lower mean is ahead,
// and the sentences say so in the metric's words.
std::vector<RunRecord> two_machines_two_models() {
  // a: m1 TTFT 100 ms, m2 400 ms; b: m1 200 ms, m2 250 ms (three repetitions, +-1 %); J per
  // token and cost per Mtok in the same proportions, two runs a cell at -1 % and +1 %.
  auto rec = [](const std::string& id, const std::string& host, const std::string& model, double ttft_ms,
                double j_per_token, double cost) {
    RunRecord r = testing::sample_record(id);
    r.machine.hostname = host;
    r.model.name = model;
    r.model.fingerprint = "xxh64:" + model;
    r.results.pp.reset();
    const auto ns = [](double ms) { return static_cast<int64_t>(ms * 1e6); };
    r.results.ttft = make_latency({ns(ttft_ms * 0.99), ns(ttft_ms), ns(ttft_ms * 1.01)});
    r.energy.method = "counter";
    r.energy.tg = PhaseEnergyInfo{};
    r.energy.tg->duration_s = 2;
    r.energy.tg->energy_j = j_per_token * 256;
    r.energy.tg->j_per_token = j_per_token;
    r.cost = CostInfo{};
    r.cost->currency = "EUR";
    r.cost->price_per_kwh = 0.30;
    r.cost->gross_per_mtok = cost;
    return r;
  };
  std::vector<RunRecord> out;
  int id = 0;
  // Two runs per cell, so that energy and cost (one value per run) can be tested.
  for (int run = 0; run < 2; ++run) {
    const double d = run == 0 ? 0.99 : 1.01;
    out.push_back(rec(std::to_string(++id), "a", "m1", 100, 1.0 * d, 0.10 * d));
    out.push_back(rec(std::to_string(++id), "a", "m2", 400, 4.0 * d, 0.40 * d));
    out.push_back(rec(std::to_string(++id), "b", "m1", 200, 2.0 * d, 0.20 * d));
    out.push_back(rec(std::to_string(++id), "b", "m2", 250, 2.5 * d, 0.25 * d));
  }
  return out;
}

TEST(Reversals, TtftLowerIsBetter) {
  const auto records = two_machines_two_models();
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers a = find_answers(*cmp, Metric::kTtft);
  EXPECT_EQ(a.unit_test, "TTFT pp512 (pg) ms");  // TTFT and tg of one run: a -pg test
  ASSERT_EQ(a.pairs.size(), 1u);
  const PairAnswer& p = a.pairs[0];
  EXPECT_TRUE(p.reversal);
  EXPECT_EQ(p.sentence,
            "a has a shorter TTFT than b on m1 F32 (\u221250 %, significant), and a longer one on m2 F32 (+60 %, "
            "significant): no universal winner between them.");
  EXPECT_EQ(
      a.headline,
      "No universal winner (TTFT pp512 (pg) ms): a leads on m1 F32 (\u221250 % vs b, significant); b leads on m2 F32 "
      "(\u221238 % vs a, significant).");
  const std::string md = testing::unpadded(markdown_table(rankings_table(*cmp, a)));
  EXPECT_NE(md.find("| m1 F32 | a 100.0 < b 200.0 | a |"), std::string::npos) << md;
  const auto j = answers_json(*cmp, a);
  EXPECT_DOUBLE_EQ(j["pairs"][0]["items"][0]["a_ms"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(j["pairs"][0]["items"][0]["b_ms"].get<double>(), 200);
  EXPECT_DOUBLE_EQ(j["rankings"][0]["order"][0]["mean_ms"].get<double>(), 100);
}

TEST(Reversals, EnergyAndCostLowerIsBetter) {
  const auto records = two_machines_two_models();
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers e = find_answers(*cmp, Metric::kTgEnergy);
  ASSERT_EQ(e.pairs.size(), 1u);
  EXPECT_EQ(e.pairs[0].sentence,
            "a uses less energy per token than b on m1 F32 (\u221250 %, significant), and more on m2 F32 (+60 %, "
            "significant): no universal winner between them.");
  EXPECT_NEAR(answers_json(*cmp, e)["pairs"][0]["items"][0]["a_j_per_token"].get<double>(), 1.0, 1e-12);
  const Answers c = find_answers(*cmp, Metric::kCost);
  EXPECT_EQ(c.unit_test, "tg128 (pg) in EUR per Mtok");
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_EQ(c.pairs[0].sentence,
            "a costs less per Mtok than b on m1 F32 (\u221250 %, significant), and more on m2 F32 (+60 %, "
            "significant): no universal winner between them.");
  // One run a side: one value each, untested.
  std::vector<RunRecord> one(records.begin(), records.begin() + 4);
  auto cmp1 = compare(one, {});
  ASSERT_TRUE(cmp1);
  const Answers u = find_answers(*cmp1, Metric::kCost);
  ASSERT_EQ(u.pairs.size(), 1u);
  EXPECT_FALSE(u.pairs[0].reversal);
  EXPECT_EQ(u.pairs[0].sentence,
            "a costs less per Mtok than b on m1 F32 (\u221250 %, untested), and more on m2 F32 (+60 %, untested).");
  // Memory is not an answer: less is not better.
  EXPECT_TRUE(find_answers(*cmp, Metric::kMemory).sentences.empty());
}

// compare -o md and -o json carry the answers when given; without them the output is as before.
TEST(Reversals, PrintedByCompare) {
  const auto records = first_study();
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const std::vector<Answers> answers = {find_answers(*cmp, Metric::kTg)};
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md, CompareExtras{answers});
  EXPECT_TRUE(md.str().starts_with(
      "Answers (tg128 t/s; significant: Welch's t-test, two-sided, alpha 0.05):\n- RTX 2080 Ti is fastest"))
      << md.str();
  EXPECT_NE(md.str().find("\nRanking per model (tg128 t/s):\n"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("\nPairs (tg128 t/s; change = a / b - 1):\n"), std::string::npos) << md.str();
  std::ostringstream json;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, json, CompareExtras{answers});
  const auto j = nlohmann::json::parse(json.str());
  ASSERT_EQ(j["answers"].size(), 1u);
  EXPECT_EQ(j["answers"][0]["universal_winner"], "RTX 2080 Ti");
  EXPECT_EQ(j["answers"][0]["pairs"].size(), 3u);
  std::ostringstream plain;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, plain);
  EXPECT_FALSE(nlohmann::json::parse(plain.str()).contains("answers"));
}

// The HTML report opens with the sentences, each linked to the table it comes from.
TEST(Reversals, HtmlReportOpensWithTheAnswers) {
  const ReportAssets assets{"{{title}}{{generated}}{{body}}{{data}}{{chart_js}}{{glue_js}}", "", ""};
  auto html = render_html_report(first_study(), assets, {});
  ASSERT_TRUE(html) << html.error().message;
  const std::size_t answers = html->find("<section id=\"answers\"><h2>Answers</h2>");
  ASSERT_NE(answers, std::string::npos);
  EXPECT_LT(answers, html->find("<section id=\"machines\">"));
  EXPECT_NE(html->find("<li>RX 6600 XT is faster than M2 Pro on Llama 3.1 8B Q4_K_M (+80 %, significant) and Qwen2.5 "
                       "7B Q4_K_M (+65 %, significant), and slower on Phi-3 mini Q4_K_M (\u221214 %, significant): no "
                       "universal winner between them. (<a href=\"#answers-pairs-tg\">pairs</a>)</li>"),
            std::string::npos)
      << *html;
  EXPECT_NE(html->find("(<a href=\"#answers-ranking-tg\">ranking</a>, <a href=\"#tg\">tg table</a>)</li>"),
            std::string::npos);
  // Every link has its target.
  for (const char* id : {"answers-pairs-tg", "answers-ranking-tg"}) {
    EXPECT_NE(html->find(std::string("<table id=\"") + id + "\">"), std::string::npos) << id;
  }
  EXPECT_NE(html->find("<section id=\"tg\">"), std::string::npos);
}

// The report's answers state the cheapest model per Mtok on each machine, at the price the
// machine's latest priced run was stored with (or report --price), linked to its cost table.
TEST(Reversals, HtmlReportStatesTheCheapestModelAtTheStoredPrice) {
  auto batch = store::read_import_file(std::string(RIGBENCH_TEST_DATA) + "/answers/cost_three_models.jsonl");
  ASSERT_TRUE(batch);
  std::vector<RunRecord> records = batch->records;
  const ReportAssets assets{"{{title}}{{generated}}{{body}}{{data}}{{chart_js}}{{glue_js}}", "", ""};
  // No price stored: a note says how to get the answer.
  auto unpriced = render_html_report(records, assets, {});
  ASSERT_TRUE(unpriced) << unpriced.error().message;
  EXPECT_NE(unpriced->find("Cost per model on rtx3090: its runs give power but no price; give `rigbench report "
                           "--price P` (per kWh)"),
            std::string::npos)
      << *unpriced;
  // Priced: the latest priced run's price and utilization (an older run stored 0.10 without one).
  for (RunRecord& r : records) {
    r.cost = CostInfo{};
    r.cost->currency = "EUR";
    r.cost->price_per_kwh = 0.30;
    r.cost->utilization = 0.5;
  }
  records[0].test_time = "2020-01-01T00:00:00Z";
  records[0].cost->price_per_kwh = 0.10;
  records[0].cost->utilization = kUnmeasured;
  auto html = render_html_report(records, assets, {});
  ASSERT_TRUE(html) << html.error().message;
  // (2.5 J + 100 W x 0.5 / (0.5 x 128 t/s)) x 0.30 / 3.6 = 0.2734; Dense 8B: (5.46875 + 1.5625) x 0.30 / 3.6.
  EXPECT_NE(html->find("<li>On rtx3090 at 0.3 EUR/kWh, utilization 0.5, the cheapest is not the smallest: MoE "
                       "30B-A3B Q4_K_M (30.5 B params) costs 0.2734 EUR/Mtok, Dense 8B Q4_K_M (8 B params) 0.5859 "
                       "EUR/Mtok. (<a href=\"#answers-cost-0\">cost per model</a>)</li>"),
            std::string::npos)
      << *html;
  EXPECT_NE(html->find("<table id=\"answers-cost-0\">"), std::string::npos);
  // report --price overrides the stored price.
  HtmlReportOptions options;
  cost::CostInputs price;
  price.price_per_kwh = 0.60;
  price.currency = "EUR";
  price.price_source = "--price";
  options.answers.price = price;
  auto given = render_html_report(records, assets, options);
  ASSERT_TRUE(given);
  EXPECT_NE(given->find("<li>On rtx3090 at 0.6 EUR/kWh, the cheapest is not the smallest: MoE 30B-A3B Q4_K_M (30.5 B "
                        "params) costs 0.4167 EUR/Mtok (gross)"),
            std::string::npos)
      << *given;
}

// A model whose ranking the caller could not make gets a note saying why; one with a ranking
// gets its sentence, linked to its table.
TEST(Reversals, HtmlReportStatesWhatToBuy) {
  const ReportAssets assets{"{{title}}{{generated}}{{body}}{{data}}{{chart_js}}{{glue_js}}", "", ""};
  HtmlReportOptions options;
  options.answers.buy.push_back({"Phi-3 mini Q4_K_M", std::nullopt, "its file (/models/phi.gguf) is not on this machine"});
  FitRankingReport rep;
  rep.model = "Qwen2.5 7B Q4_K_M";
  rep.ranking.n_ctx = 8192;
  fit::BuyOption o;
  o.device = "RTX 3060 12GB";
  o.kind = "gpu";
  o.n_ctx = 8192;
  o.tg_bound_tps = 61.04;
  o.total_memory_bytes = 12ull << 30;
  o.usable_memory_bytes = 10ull << 30;
  o.price_usd = 329;
  o.usd_per_gib_total = 329.0 / 12;
  o.usd_per_gib_usable = 32.9;
  rep.ranking.ranked.push_back(o);
  options.answers.buy.push_back({"Qwen2.5 7B Q4_K_M", rep, ""});
  auto html = render_html_report(first_study(), assets, options);
  ASSERT_TRUE(html) << html.error().message;
  EXPECT_NE(html->find("<li>Phi-3 mini Q4_K_M: its file (/models/phi.gguf) is not on this machine</li></ul>"),
            std::string::npos);
  EXPECT_NE(html->find("<li>For Qwen2.5 7B Q4_K_M at n_ctx 8192, the cheapest catalog option that fits is RTX 3060 "
                       "12GB, $329 (tg bound 61.0 t/s); it is also the lowest price per usable GiB, $32.90 ($27.42 per "
                       "installed GiB). (<a href=\"#answers-buy-0\">what to buy</a>)</li>"),
            std::string::npos)
      << *html;
  EXPECT_NE(html->find("<table id=\"answers-buy-0\">"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::report
