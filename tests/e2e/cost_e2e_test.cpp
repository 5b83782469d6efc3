// End-to-end tests of `rigbench cost` on the real binary: figures given on the command line,
// the cost worked out by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/golden.h"
#include "support/subprocess.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;

TEST(CostE2E, JsonCarriesTheHandComputedCosts) {
  const ProcessResult r = run_process({RIGBENCH_BIN,
                                       "cost",
                                       "--tps",
                                       "40",
                                       "--watts",
                                       "350",
                                       "--idle-watts",
                                       "100",
                                       "--price",
                                       "0.30",
                                       "--utilization",
                                       "0.5",
                                       "--hardware-price",
                                       "2000",
                                       "--lifetime-years",
                                       "3",
                                       "--api-price",
                                       "2",
                                       "-o",
                                       "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["currency"], "EUR");
  // gross: 350 W / 40 tokens/s = 8.75 J/token; 8.75 × 0.30 / 3.6 = 0.729167 EUR/Mtok
  EXPECT_DOUBLE_EQ(j["energy"]["gross_j_per_token"].get<double>(), 8.75);
  EXPECT_NEAR(j["electricity"]["gross_per_mtok"].get<double>(), 0.729167, 1e-6);
  // at u = 0.5: 8.75 + 100 × 0.5 / (0.5 × 40) = 11.25 J/token; × 0.30 / 3.6 = 0.9375
  EXPECT_NEAR(j["electricity"]["at_utilization_per_mtok"].get<double>(), 0.9375, 1e-12);
  // hardware: 2000 × 10^6 / (3 × 31,557,600 s × 0.5 × 40) = 1.056270; total 0.9375 + 1.056270
  EXPECT_NEAR(j["hardware_per_mtok"].get<double>(), 1.056270, 1e-6);
  EXPECT_NEAR(j["total_per_mtok"].get<double>(), 1.993770, 1e-6);
  EXPECT_NEAR(j["break_even_utilization"].get<double>(), 0.497894, 1e-6);
  EXPECT_EQ(j["inputs"]["power_method"], "stated");  // watts given on the command line
  // The currency is its own field, never part of a key.
  for (const auto& [key, value] : j.items()) EXPECT_EQ(key.find("eur"), std::string::npos) << key;
}

// A break-even utilization above 1 (the API is cheaper even at full use) is "never" in every
// output: json's break_even_never agrees with the md line. 350 W, 100 W idle, 40 t/s, 0.30 per
// kWh, 2000 over 3 years: u* = 0.7365 / (1.00 - 0.5208) = 1.537.
TEST(CostE2E, BreakEvenAboveOneIsNeverInJsonAndMarkdown) {
  std::vector<std::string> args = {RIGBENCH_BIN, "cost",  "--tps",           "40",   "--watts",
                                   "350",        "--idle-watts", "100",     "--price", "0.30",
                                   "--hardware-price", "2000", "--lifetime-years", "3", "--api-price",
                                   "1.0"};
  const ProcessResult md = run_process(args);
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("break-even: never (utilization 1.54 would be needed: above 1, the API is cheaper even at "
                        "full use)"),
            std::string::npos)
      << md.out;
  args.insert(args.end(), {"-o", "json"});
  const ProcessResult js = run_process(args);
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  EXPECT_NEAR(j["break_even_utilization"].get<double>(), 1.537, 1e-3);
  EXPECT_EQ(j["break_even_never"], true);
}

// The whole md, csv and json outputs against golden files: a stray column, row or key fails.
TEST(CostE2E, GoldenOutputs) {
  const std::vector<std::string> args = {
      RIGBENCH_BIN,  "cost", "--tps",         "40",  "--watts",          "350",  "--idle-watts",     "100",
      "--price",     "0.30", "--utilization", "0.5", "--hardware-price", "2000", "--lifetime-years", "3",
      "--api-price", "2",    "--memory-gb",   "24"};
  for (const char* format : {"md", "csv", "json"}) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"-o", format});
    const ProcessResult r = run_process(a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(testing::golden_mismatch(r.out, testing::golden(std::string("cost.") + format)), "") << format;
  }
  const ProcessResult bad = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "-o", "cost.json"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("to write a file, redirect (> FILE)"), std::string::npos) << bad.err;
}

TEST(CostE2E, MarkdownWithATariffAndAnotherCurrency) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--watts", "350", "--tariff",
                                       "day=0.30@07-23,night=0.18", "--currency", "USD"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Mean price (0.30 × 16 + 0.18 × 8) / 24 = 0.26; 8.75 J/token × 0.26 / 3.6 = 0.631944
  EXPECT_NE(testing::unpadded(r.out).find("| figure | J/token | USD/Mtok |"), std::string::npos) << r.out;
  EXPECT_NE(testing::unpadded(r.out).find("| electricity, gross | 8.75 | 0.6319 |"), std::string::npos) << r.out;
  EXPECT_NE(testing::unwrapped(r.out).find("0.26 USD/kWh (hour-weighted mean of tariff day=0.30@07-23,night=0.18)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: marginal energy and energy at a utilization: give --idle-watts"), std::string::npos)
      << r.out;
}

// Issue 37: without a price the EUR/Mtok column was empty ("-"): it says a price is needed.
TEST(CostE2E, WithoutAPriceTheMoneyColumnSaysAPriceIsNeeded) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--watts", "350", "--idle-watts", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = testing::unpadded(r.out);
  EXPECT_NE(out.find("| electricity, gross | 8.75 | needs --price |"), std::string::npos) << r.out;
  EXPECT_NE(out.find("| electricity, marginal (above idle) | 6.25 | needs --price |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: electricity cost: give --price or --tariff"), std::string::npos) << r.out;
  // A figure that is missing for another reason stays "-": no watts, no J/token, no price asked.
  const ProcessResult no_watts = run_process({RIGBENCH_BIN, "cost", "--tps", "40"});
  ASSERT_EQ(no_watts.exit_code, 0) << no_watts.err;
  EXPECT_EQ(no_watts.out.find("needs --price"), std::string::npos) << no_watts.out;
  const ProcessResult js = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--watts", "350", "-o", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  EXPECT_TRUE(nlohmann::json::parse(js.out)["electricity"]["gross_per_mtok"].is_null()) << js.out;
}

TEST(CostE2E, BadFiguresExitTwoNamingTheFlag) {
  const ProcessResult u = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--utilization", "1.5"});
  EXPECT_EQ(u.exit_code, 2);
  EXPECT_NE(u.err.find("--utilization 1.5: must be in (0, 1]"), std::string::npos) << u.err;
  const ProcessResult t = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--tariff", "day=0.30@07-23"});
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("--tariff: tariff 'day=0.30@07-23': hour 0"), std::string::npos) << t.err;
  const ProcessResult both = run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--price", "0.3", "--tariff", "a=1"});
  EXPECT_EQ(both.exit_code, 2);
  const ProcessResult none = run_process({RIGBENCH_BIN, "cost"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--tps"), std::string::npos) << none.err;
}

// Every number flag of cost says what is wrong in the house shape ("--tps: 'abc' is not a
// number", as range and int_range say it), never CLI11's "Could not convert: --tps = abc".
TEST(CostE2E, ANumberFlagThatIsNotANumberSaysSoInTheHouseShape) {
  for (const char* flag :
       {"--tps", "--watts", "--idle-watts", "--price", "--psu-efficiency", "--rest-watts", "--utilization",
        "--hardware-price", "--residual-value", "--upkeep", "--lifetime-years", "--api-price", "--memory-gb"}) {
    const ProcessResult r = run_process({RIGBENCH_BIN, "cost", flag, "abc"});
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_EQ(r.err.rfind(std::string("rigbench: error: ") + flag + ": 'abc' is not a number", 0), 0u) << r.err;
  }
  // The price flags bench and serve-bench share with cost, alike.
  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--price", "abc"});
  EXPECT_EQ(bench.exit_code, 2) << bench.err;
  EXPECT_NE(bench.err.find("--price: 'abc' is not a number"), std::string::npos) << bench.err;
}
}  // namespace
}  // namespace rigbench
