// End-to-end: energy and cost in `rigbench bench` on this VM (no RAPL, no GPU).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;

std::vector<std::string> args(std::vector<std::string> extra) {
  std::vector<std::string> a = {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "64", "-n", "32", "-r", "2", "-t", "1",
                                "--no-db", "--idle-seconds", "0.3", "-o", "json"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(EnergyE2E, NoMeterIsSaidPlainlyAndSpeedIsStillReported) {
  const ProcessResult r = run_process(args({}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // One short line: what is missing, that speed is still measured, where the details are.
  const auto at = r.err.find("rigbench: energy: no meter available");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
  EXPECT_LE(line.size(), 120u) << line;
  EXPECT_NE(line.find("speed is still measured"), std::string::npos) << line;
  EXPECT_NE(line.find("rigbench hw"), std::string::npos) << line;
  EXPECT_EQ(line.find("fix"), std::string::npos) << line;  // the reasons and fixes are in `rigbench hw`
  const auto j = nlohmann::json::parse(r.out).back();  // the tg32 test's record
  EXPECT_EQ(j["energy"]["method"], "unavailable");
  EXPECT_FALSE(j["energy"]["notes"].empty());
  EXPECT_TRUE(j["cost"].is_null());
  EXPECT_GT(j["results"]["tg"]["avg_tps"].get<double>(), 0);
}

// A stated 65 W: J/token = 65 W x the tg seconds / tokens, and the gross cost per Mtok is
// (65 W / tg tokens/s) x 0.30 per kWh / 3.6 (1 kWh = 3.6e6 J; per million tokens).
TEST(EnergyE2E, StatedWattsGiveJoulesPerTokenAndCost) {
  const ProcessResult r = run_process(args({"--watts", "65", "--price", "0.30", "--currency", "EUR"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out).back();  // the tg32 test's record
  EXPECT_EQ(j["energy"]["method"], "stated");
  EXPECT_NEAR(j["energy"]["idle_power_w"].get<double>(), 65.0, 1e-6);
  const auto& tg = j["energy"]["tg"];
  EXPECT_NEAR(tg["power_w"].get<double>(), 65.0, 1e-6);
  EXPECT_NEAR(tg["j_per_token"].get<double>(), 65.0 * tg["duration_s"].get<double>() / 64.0, 1e-9);  // 2 x 32 tokens
  const double tps = j["results"]["tg"]["avg_tps"].get<double>();
  EXPECT_NEAR(j["cost"]["gross_eur_per_mtok"].get<double>(), 65.0 / tps * 0.30 / 3.6, 1e-12);
  EXPECT_NEAR(j["cost"]["marginal_eur_per_mtok"].get<double>(), 0.0, 1e-9);  // idle = active
  ASSERT_FALSE(j["energy"]["power_trace"].empty());  // power over time, read by the sampler
  // A stated figure is integrated on the wall clock, the trace's intervals are steady-clock:
  // over intervals of a few ms the two clocks differ by parts per 10^5.
  for (const auto& p : j["energy"]["power_trace"]) EXPECT_NEAR(p[1].get<double>(), 65.0, 0.01);
}

TEST(EnergyE2E, PriceWithoutEnergyIsAUsageError) {
  const ProcessResult r = run_process(args({"--energy", "off", "--price", "0.3"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--price/--tariff need --energy auto"), std::string::npos) << r.err;
}

TEST(EnergyE2E, TariffIsTheHourWeightedMean) {
  // 16 h at 0.30 and 8 h at 0.18: (16 x 0.30 + 8 x 0.18) / 24 = 0.26 per kWh.
  const ProcessResult r = run_process(args({"--watts", "100", "--tariff", "day=0.30@07-23,night=0.18"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out).back();  // the tg32 test's record
  EXPECT_NEAR(j["cost"]["price_per_kwh"].get<double>(), 0.26, 1e-12);
}

// `rigbench cost --run` prices a stored run from its own measurements: (W / tg t/s) x price / 3.6.
TEST(EnergyE2E, CostFromAStoredRun) {
  testing::TempDir dir;
  const std::string db = dir.file("r.db");
  std::vector<std::string> a = args({"--watts", "80"});
  a.erase(std::find(a.begin(), a.end(), "--no-db"));
  a.push_back("--db");
  a.push_back(db);
  const ProcessResult b = run_process(a);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto rec = nlohmann::json::parse(b.out).back();  // the tg test's record
  const ProcessResult c = run_process({RIGBENCH_BIN, "cost", "--run", rec["record_id"].get<std::string>().substr(0, 8), "--db", db,
                                       "--price", "0.25", "-o", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  const double tps = rec["results"]["tg"]["avg_tps"].get<double>();
  EXPECT_NEAR(j["electricity"]["gross_per_mtok"].get<double>(), 80.0 / tps * 0.25 / 3.6, 1e-9) << c.out;
  const ProcessResult missing = run_process({RIGBENCH_BIN, "cost", "--run", "ffffffff", "--db", db, "--price", "0.25"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("--run 'ffffffff': no such run"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace rigbench
