// report/serve_html: the HTML report's serve-bench section on its own (its chart spec and its
// table), and that the report places it.
#include "report/serve_html.h"

#include <gtest/gtest.h>

#include "core/results.h"
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

TEST(ServeHtml, TwoModelsPricedOnOneServerGiveTheirCostPerModelTable) {
  // Two models served by one server on one machine, stated 350 and 320 W, priced at 0.30 EUR/kWh
  // when stored: cost --per-model's table after the runs. Dense 8B: 128 tokens x 2 in 4 s =
  // 64 t/s, 350 W -> 5.46875 J/token -> 0.4557 EUR/Mtok; MoE: 128 t/s, 320 W -> 2.5 J/token ->
  // 0.2083 EUR/Mtok, cheapest first.
  const auto priced = [](const std::string& id, const std::string& model, uint64_t params, double rep_s,
                         double watts) {
    RunRecord r = serve_run(id, model, 1, 10);
    r.machine.hostname = "rtx3090";
    r.model.n_params = params;
    r.model.fingerprint = "xxh64:" + model;
    const auto ns = static_cast<int64_t>(rep_s * 1e9);
    r.results.tg = make_throughput(128, {ns, ns});
    r.energy.method = "stated";
    r.energy.idle_power_w = 100;
    r.energy.tg = PhaseEnergyInfo{2 * rep_s, watts * 2 * rep_s, watts, watts * rep_s / 128};
    CostInfo c;
    c.currency = "EUR";
    c.price_per_kwh = 0.30;
    c.gross_per_mtok = r.energy.tg->j_per_token * 0.30 / 3.6;
    r.cost = c;
    return r;
  };
  const std::vector<RunRecord> runs = {priced("a", "Dense 8B", 8'000'000'000, 2.0, 350),
                                       priced("b", "MoE 30B-A3B", 30'500'000'000, 1.0, 320)};
  html::Json charts = html::Json::array();
  const std::string h = serve_section_html(runs, charts);
  const auto table = h.find("Cost per model: http://127.0.0.1:8080 on rtx3090");
  ASSERT_NE(table, std::string::npos) << h;
  EXPECT_LT(table, h.rfind("</section>"));
  const auto moe = h.find("<td>MoE 30B-A3B", table), dense = h.find("<td>Dense 8B", table);
  ASSERT_NE(moe, std::string::npos) << h;
  ASSERT_NE(dense, std::string::npos) << h;
  EXPECT_LT(moe, dense);                                      // cheapest first
  EXPECT_NE(h.find(">0.2083<", table), std::string::npos) << h;  // EUR/Mtok of the MoE
  EXPECT_NE(h.find(">0.4557<", table), std::string::npos) << h;
  EXPECT_NE(h.find("EUR/Mtok", table), std::string::npos) << h;
  // One model only: no per-model table.
  const std::vector<RunRecord> one = {runs[0]};
  EXPECT_EQ(serve_section_html(one, charts).find("Cost per model"), std::string::npos);
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
