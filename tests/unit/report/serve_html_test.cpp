// report/serve_html: the HTML report's serve-bench section on its own (its chart spec and its
// table), and that the report places it.
#include "report/serve_html.h"

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

RunRecord serve_run(const std::string& id, const std::string& model, int concurrency, double ttft_p50) {
  RunRecord r = testing::sample_record(id);
  r.model.name = model;
  ServerRun s;
  s.url = "http://127.0.0.1:8080";
  s.software = "llama.cpp";
  s.api = "openai-completions";
  s.concurrency = concurrency;
  s.requests = s.completed = 8;
  s.ttft_ms.n = 8;
  s.ttft_ms.median = ttft_p50;
  s.ttft_ms.p90 = ttft_p50 + 1;
  s.ttft_ms.p99 = ttft_p50 + 2;
  s.tpot_ms.n = 8;
  s.tpot_ms.median = 5;
  r.server = s;
  return r;
}

TEST(ServeHtml, ALinePerModelAndPercentileAgainstConcurrencyAndEnergyWhereMeasured) {
  std::vector<RunRecord> runs = {serve_run("a", "small", 1, 10), serve_run("b", "small", 4, 30),
                                 serve_run("c", "large", 1, 20)};
  PhaseEnergyInfo tg;
  tg.j_per_token = 0.125;
  runs[2].energy.tg = tg;
  CostInfo cost;
  cost.gross_per_mtok = 0.5;
  cost.currency = "EUR";
  runs[2].cost = cost;
  RunRecord engine = testing::sample_record("d");  // no server: not in the section
  runs.push_back(engine);
  html::Json charts = html::Json::array();
  const std::string h = serve_section_html(runs, charts);
  ASSERT_EQ(charts.size(), 1u);
  EXPECT_EQ(charts[0]["id"], "chart-serve");
  // 2 groups (model · server · api) x 6 series (TTFT and TPOT at p50, p90, p99).
  ASSERT_EQ(charts[0]["datasets"].size(), 12u);
  const auto& small_ttft = charts[0]["datasets"][6];  // groups sorted: "large ..." then "small ..."
  EXPECT_NE(small_ttft["label"].get<std::string>().find("small"), std::string::npos);
  ASSERT_EQ(small_ttft["data"].size(), 2u);
  EXPECT_EQ(small_ttft["data"][1]["x"], 4);
  EXPECT_EQ(small_ttft["data"][1]["y"], 30.0);
  EXPECT_NE(h.find("<section id=\"serve\">"), std::string::npos);
  EXPECT_NE(h.find("0.1250"), std::string::npos) << h;      // J/tok of the run that measured it
  EXPECT_NE(h.find("0.5000 EUR"), std::string::npos) << h;  // its cost per Mtok
}

TEST(ServeHtml, NothingWithoutServerRunsAndEmbeddingRunsAreLeftToTheirSection) {
  html::Json charts = html::Json::array();
  EXPECT_EQ(serve_section_html(std::vector<RunRecord>{testing::sample_record("a")}, charts), "");
  RunRecord embed = serve_run("e", "bge", 1, 3);
  embed.results.embedding = EmbeddingResult{};
  EXPECT_EQ(serve_section_html(std::vector<RunRecord>{embed}, charts), "");
  EXPECT_TRUE(charts.empty());
}

}  // namespace
}  // namespace rigbench::report
