// cost --per-model (cost/model_costs.h): every model one machine ran, priced under one tariff
// and utilization from each run's own tg speed and stated watts, sorted; the sentence of the
// third study ("the cheapest is not the smallest") where a MoE model beats a smaller dense one.
#include "cost/model_costs.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/results.h"
#include "report/model_cost_printer.h"
#include "support/golden.h"
#include "support/sample_record.h"

namespace rigbench::cost {
namespace {

// A run of `model` (`params` parameters) on the "rtx3090" host: two tg repetitions of 128
// tokens, each `rep_s` seconds, at a stated `watts` (energy = watts x 2 rep_s), idle 100 W.
RunRecord priced_run(const std::string& id, const std::string& model, uint64_t params, double rep_s, double watts,
                     const std::string& time = "2026-11-30T10:00:00Z") {
  RunRecord r = testing::sample_record(id);
  r.machine.hostname = "rtx3090";
  r.model.name = model;
  r.model.file_type = "Q4_K_M";
  r.model.n_params = params;
  r.model.fingerprint = "xxh64:" + model;
  r.test_time = time;
  const auto ns = static_cast<int64_t>(rep_s * 1e9);
  r.results.tg = make_throughput(128, {ns, ns});
  r.energy.method = "stated";
  r.energy.idle_power_w = 100;
  r.energy.tg = PhaseEnergyInfo{2 * rep_s, watts * 2 * rep_s, watts, watts * rep_s / 128};
  return r;
}

CostInputs tariff(double utilization) {
  CostInputs in;
  in.price_per_kwh = 0.30;
  in.price_source = "--price";
  in.currency = "EUR";
  in.utilization = utilization;
  return in;
}

std::vector<RunRecord> three_models() {
  return {
      priced_run("a", "Dense 8B", 8'000'000'000, 2.0, 350),                          // 64 t/s, 5.46875 J/token
      priced_run("b", "MoE 30B-A3B", 30'500'000'000, 1.0, 320),                      // 128 t/s, 2.5 J/token
      priced_run("c", "Dense 27B", 27'000'000'000, 4.0, 350),                        // 32 t/s, 10.9375 J/token
      priced_run("d", "Dense 8B", 8'000'000'000, 3.0, 350, "2026-11-29T10:00:00Z"),  // older: not priced
  };
}

TEST(ModelCosts, SortedCheapestFirstWithIdleAtTheUtilization) {
  const auto records = three_models();
  auto c = model_costs(records, tariff(0.5));
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->machine, "rtx3090");
  ASSERT_EQ(c->models.size(), 3u);
  EXPECT_EQ(c->models[0].model, "MoE 30B-A3B Q4_K_M");
  EXPECT_EQ(c->models[1].model, "Dense 8B Q4_K_M");
  EXPECT_EQ(c->models[2].model, "Dense 27B Q4_K_M");
  // gross 2.5 J/token; at u = 0.5: 2.5 + 100 x 0.5 / (0.5 x 128) = 3.28125 J/token; x 0.30 / 3.6
  EXPECT_DOUBLE_EQ(c->models[0].figures.tokens_per_s, 128);
  EXPECT_DOUBLE_EQ(c->models[0].report.gross.j, 2.5);
  EXPECT_NEAR(c->models[0].report.at_utilization.cost_per_mtok, 3.28125 * 0.30 / 3.6, 1e-12);
  EXPECT_NEAR(c->models[0].sort_per_mtok, 0.2734375, 1e-12);
  // Dense 8B: its latest run (2.0 s a repetition), one of two stored: 5.46875 + 1.5625 = 7.03125 J/token
  EXPECT_EQ(c->models[1].record_id, "a");
  EXPECT_EQ(c->models[1].n_runs, 2);
  EXPECT_NEAR(c->models[1].sort_per_mtok, 7.03125 * 0.30 / 3.6, 1e-12);
  EXPECT_NEAR(c->models[2].sort_per_mtok, 14.0625 * 0.30 / 3.6, 1e-12);
  EXPECT_FALSE(c->cheapest_is_smallest);
  EXPECT_EQ(c->sentence,
            "The cheapest is not the smallest: MoE 30B-A3B Q4_K_M (30.5 B params) costs 0.2734 EUR/Mtok, Dense 8B "
            "Q4_K_M (8 B params) 0.5859 EUR/Mtok.");
}

// compare and the report read pooled records (store::Pooling::kRepetitions): one record that
// stands for 3 stored runs counts as 3, as the runs one by one would.
TEST(ModelCosts, APooledRecordCountsTheRunsItStandsFor) {
  auto records = three_models();
  records[0].runs = 3;  // "Dense 8B", the latest: 3 runs pooled, plus the older one
  auto c = model_costs(records, tariff(0.5));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->models.size(), 3u);
  EXPECT_EQ(c->models[1].model, "Dense 8B Q4_K_M");
  EXPECT_EQ(c->models[1].n_runs, 4);
  EXPECT_EQ(c->models[0].n_runs, 1);
}

TEST(ModelCosts, WithoutAUtilizationSortedByGross) {
  const auto records = three_models();
  CostInputs in = tariff(0.5);
  in.utilization = kNaN;
  auto c = model_costs(records, in);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->at_utilization);
  EXPECT_NEAR(c->models[0].sort_per_mtok, 2.5 * 0.30 / 3.6, 1e-12);
  EXPECT_TRUE(c->sentence.ends_with("(gross), Dense 8B Q4_K_M (8 B params) 0.4557 EUR/Mtok.")) << c->sentence;
}

TEST(ModelCosts, TheCheapestIsTheSmallestSaidSo) {
  const std::vector<RunRecord> records = {priced_run("a", "Small 1B", 1'000'000'000, 0.5, 300),
                                          priced_run("c", "Dense 27B", 27'000'000'000, 4.0, 350)};
  auto c = model_costs(records, tariff(1));
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->cheapest_is_smallest);
  EXPECT_TRUE(c->sentence.starts_with("The cheapest is the smallest: Small 1B Q4_K_M (1 B params)")) << c->sentence;
}

// A serve-bench run (faked as its record: 8 requests of 128 tokens at concurrency 4, each
// decoding at 32 t/s, the meter over the 8 s the two waves took) is priced at the server's
// aggregate rate, its row's output t/s (1024 / 8 = 128 t/s), not a request's 32 t/s: J/token =
// 2400 / 1024.
TEST(ModelCosts, ServerRunPricedAtTheAggregateRate) {
  RunRecord served = priced_run("s", "Served 8B", 8'000'000'000, 4.0, 300);
  served.results.tg = make_throughput(128, std::vector<int64_t>(8, 4'000'000'000));
  served.server = ServerRun{};
  served.server->concurrency = 4;
  served.server->output_tps = 128;
  served.energy.tg = PhaseEnergyInfo{8.0, 2400.0, 300.0, 2400.0 / 1024};
  const std::vector<RunRecord> records = {served, priced_run("c", "Dense 27B", 27'000'000'000, 4.0, 350)};
  auto c = model_costs(records, tariff(1));
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->models.size(), 2u);
  EXPECT_EQ(c->models[0].model, "Served 8B Q4_K_M");
  EXPECT_DOUBLE_EQ(c->models[0].figures.tokens_per_s, 128);
  EXPECT_DOUBLE_EQ(c->models[0].report.gross.j, 2.34375);
}

TEST(ModelCosts, SeveralMachinesAreRefused) {
  auto records = three_models();
  records.push_back(priced_run("e", "Dense 8B", 8'000'000'000, 2.0, 350));
  records.back().machine.hostname = "mac";
  auto c = model_costs(records, tariff(0.5));
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "runs of 2 machines (mac, rtx3090): choose one with --machine");
}

// A run without power is listed last, its cost "-" and the note naming the flag.
TEST(ModelCosts, PrintedTableAndJson) {
  auto records = three_models();
  records.push_back(priced_run("f", "No Power 3B", 3'000'000'000, 1.0, 0));
  records.back().energy = EnergyInfo{};
  auto c = model_costs(records, tariff(0.5));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->models.back().model, "No Power 3B Q4_K_M");
  std::ostringstream md;
  report::print_model_costs(*c, tariff(0.5), report::OutputFormat::kMarkdown, md);
  const std::string out = testing::unpadded(md.str());
  EXPECT_TRUE(out.starts_with("cost per Mtok on rtx3090: 0.3 EUR/kWh (--price), idle included at utilization 0.5"))
      << out;
  EXPECT_NE(out.find("| model | params | t/s | W | idle W | J/tok | J/tok at u=0.5 | EUR/Mtok | EUR/Mtok at u=0.5 | "
                     "power |"),
            std::string::npos)
      << out;
  EXPECT_NE(
      out.find("| MoE 30B-A3B Q4_K_M | 30.50 B | 128.00 | 320.0 | 100.0 | 2.5 | 3.281 | 0.2083 | 0.2734 | stated |"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("| No Power 3B Q4_K_M | 3.00 B | 128.00 | - | - | - | - | - | - | none |"), std::string::npos)
      << out;
  EXPECT_NE(out.find("The cheapest is not the smallest"), std::string::npos) << out;
  std::ostringstream json;
  report::print_model_costs(*c, tariff(0.5), report::OutputFormat::kJson, json);
  const auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["sorted_by"], "at_utilization_per_mtok");
  EXPECT_EQ(j["models"][0]["model"], "MoE 30B-A3B Q4_K_M");
  EXPECT_NEAR(j["models"][0]["at_utilization_per_mtok"].get<double>(), 0.2734375, 1e-12);
  EXPECT_EQ(j["models"][0]["currency"], "EUR");
}

// Runs without energy: every cost is "-", and the note says what gives one in this mode. It
// said "give --watts", which --per-model refuses (each run gives its own watts).
TEST(ModelCosts, WithoutEnergyTheNoteSaysWhatGivesItHere) {
  auto records = three_models();
  for (RunRecord& r : records) r.energy = EnergyInfo{};
  auto c = model_costs(records, tariff(kNaN));
  ASSERT_TRUE(c);
  std::ostringstream md;
  report::print_model_costs(*c, tariff(kNaN), report::OutputFormat::kMarkdown, md);
  EXPECT_EQ(md.str().find("give --watts"), std::string::npos) << md.str();
  EXPECT_NE(testing::unpadded(md.str()).find("energy per token: give runs measured with energy (bench --energy auto"),
            std::string::npos)
      << md.str();
  for (const ModelCost& m : c->models) EXPECT_FALSE(given(m.sort_per_mtok));
}
}  // namespace
}  // namespace rigbench::cost
