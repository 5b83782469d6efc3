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
  return find_answers(*cmp, Metric::kTg, 0.05);
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
  const Answers a = find_answers(*cmp, Metric::kTg, 0.05);
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
  const Answers a = find_answers(*cmp, Metric::kTg, 0.05);
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
  const Answers a = find_answers(*cmp, Metric::kTg, 0.05);
  EXPECT_EQ(a.universal_winner, -1);
  EXPECT_EQ(a.headline,
            "No universal winner (tg128 t/s): M2 Pro leads on Phi-3 mini Q4_K_M (+16 % over RX 6600 XT, "
            "significant); RX 6600 XT leads on Llama 3.1 8B Q4_K_M (+80 % over M2 Pro, significant) and Qwen2.5 7B "
            "Q4_K_M (+65 % over M2 Pro, significant).");
  // The 70B fits neither: no ranking for it.
  EXPECT_EQ(a.rankings.size(), 3u);
}

// Differences inside the noise are named as such, and never make a reversal.
TEST(Reversals, NoiseIsNotAReversal) {
  auto rec = [](const std::string& id, const std::string& host, const std::string& model, std::vector<int64_t> tg_ns) {
    RunRecord r = testing::sample_record(id);
    r.machine.hostname = host;
    r.model.name = model;
    r.model.fingerprint = "xxh64:" + model;
    r.results.pp.reset();
    r.results.ttft.reset();
    r.results.tg = make_throughput(128, std::move(tg_ns));
    return r;
  };
  const std::vector<RunRecord> records = {
      rec("1", "a", "m1", {1'000'000'000, 1'100'000'000, 900'000'000}),
      rec("2", "b", "m1", {1'010'000'000, 1'090'000'000, 910'000'000}),
      rec("3", "a", "m2", {1'000'000'000, 1'001'000'000, 999'000'000}),
      rec("4", "b", "m2", {2'000'000'000, 2'001'000'000, 1'999'000'000}),
  };
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const Answers an = find_answers(*cmp, Metric::kTg, 0.05);
  ASSERT_EQ(an.pairs.size(), 1u);
  const PairAnswer& p = an.pairs[0];
  EXPECT_FALSE(p.reversal);
  EXPECT_EQ(cmp->columns[p.a], "a");
  EXPECT_EQ(p.sentence, "a is faster than b on m2 F32 (+100 %, significant) and m1 F32 (+0.5 %, not significant).");
  EXPECT_EQ(an.headline,
            "No universal winner (tg128 t/s): a leads on m2 F32 (+100 % over b, significant); no clear leader on "
            "m1 F32.");
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
  const Answers an = find_answers(*cmp, Metric::kTg, 0.05);
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

// compare -o md and -o json carry the answers when given; without them the output is as before.
TEST(Reversals, PrintedByCompare) {
  const auto records = first_study();
  auto cmp = compare(records, {});
  ASSERT_TRUE(cmp);
  const std::vector<Answers> answers = {find_answers(*cmp, Metric::kTg, 0.05)};
  std::ostringstream md;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kMarkdown, md, answers);
  EXPECT_TRUE(md.str().starts_with(
      "Answers (tg128 t/s; significant: Welch's t-test, two-sided, alpha 0.05):\n- RTX 2080 Ti is fastest"))
      << md.str();
  EXPECT_NE(md.str().find("\nRanking per model (tg128 t/s):\n"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("\nPairs (tg128 t/s; change = a / b - 1):\n"), std::string::npos) << md.str();
  std::ostringstream json;
  print_comparison(*cmp, {}, 0.05, OutputFormat::kJson, json, answers);
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

}  // namespace
}  // namespace rigbench::report
