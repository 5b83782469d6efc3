// The record's cost and energy-flag keys: fixed keys whatever the currency (the currency is
// its own field), and records stored before that (keys `gross_eur_per_mtok`, ...) still read.
#include <gtest/gtest.h>

#include <cmath>

#include "store/record_json.h"
#include "support/sample_record.h"

namespace rigbench::store {
namespace {

RunRecord priced(const std::string& currency) {
  RunRecord r = testing::sample_record();
  CostInfo c;
  c.currency = currency;
  c.price_per_kwh = 0.30;
  c.gross_per_mtok = 0.0125;
  c.marginal_per_mtok = 0.005;
  r.cost = c;
  return r;
}

TEST(RecordJsonCost, KeysDoNotChangeWithTheCurrency) {
  for (const char* currency : {"EUR", "USD"}) {
    const Json j = to_json(priced(currency));
    EXPECT_EQ(j["cost"]["currency"], currency);
    EXPECT_DOUBLE_EQ(j["cost"]["gross_per_mtok"].get<double>(), 0.0125);
    EXPECT_DOUBLE_EQ(j["cost"]["marginal_per_mtok"].get<double>(), 0.005);
    EXPECT_TRUE(j["cost"].contains("total_per_mtok"));
    for (const auto& [key, value] : j["cost"].items()) EXPECT_EQ(key.find("eur"), std::string::npos) << key;
    for (const auto& [key, value] : j["cost"].items()) EXPECT_EQ(key.find("usd"), std::string::npos) << key;
  }
}

TEST(RecordJsonCost, OlderRecordsWithTheCurrencyInTheKeysStillRead) {
  Json j = to_json(priced("USD"));
  j["cost"] = {{"currency", "USD"},
               {"price_per_kwh", 0.30},
               {"gross_usd_per_mtok", 0.0125},
               {"marginal_usd_per_mtok", -0.71},
               {"utilization", nullptr},
               {"at_utilization_usd_per_mtok", nullptr},
               {"hardware_usd_per_mtok", nullptr},
               {"total_usd_per_mtok", nullptr},
               {"notes", Json::array()}};
  auto r = from_json(j);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->cost);
  EXPECT_EQ(r->cost->currency, "USD");
  EXPECT_DOUBLE_EQ(r->cost->gross_per_mtok, 0.0125);
  EXPECT_DOUBLE_EQ(r->cost->marginal_per_mtok, -0.71);
  EXPECT_DOUBLE_EQ(to_json(*r)["cost"]["gross_per_mtok"].get<double>(), 0.0125);  // written back in the fixed keys
}

TEST(RecordJsonCost, EnergyFlagsRoundTripAndOldRecordsHaveNone) {
  RunRecord a = testing::sample_record();
  a.energy.flags = {"below_update_period", "sources_disagree"};
  const Json j = to_json(a);
  EXPECT_EQ(j["energy"]["flags"], Json({"below_update_period", "sources_disagree"}));
  auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->energy.flags, a.energy.flags);
  Json old = j;
  old["energy"].erase("flags");
  auto c = from_json(old);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->energy.flags.empty());
}

// The tg phase's span on the system clock (what bench/device_check cuts nvidia-smi's counter
// log at) round-trips; a record of an earlier build, without it, reads as unknown (NaN).
TEST(RecordJsonCost, PhaseSpanRoundTripsAndOldRecordsHaveNone) {
  RunRecord a = testing::sample_record();
  PhaseEnergyInfo tg;
  tg.duration_s = 1.5;
  tg.energy_j = 150;
  tg.start_unix_s = 1764662400.25;
  tg.end_unix_s = 1764662402.75;
  a.energy.tg = tg;
  const Json j = to_json(a);
  EXPECT_DOUBLE_EQ(j["energy"]["tg"]["start_unix_s"].get<double>(), 1764662400.25);
  auto b = from_json(j);
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_TRUE(b->energy.tg);
  EXPECT_DOUBLE_EQ(b->energy.tg->start_unix_s, 1764662400.25);
  EXPECT_DOUBLE_EQ(b->energy.tg->end_unix_s, 1764662402.75);
  Json old = j;
  old["energy"]["tg"].erase("start_unix_s");
  old["energy"]["tg"].erase("end_unix_s");
  auto c = from_json(old);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(std::isnan(c->energy.tg->start_unix_s));
  EXPECT_TRUE(std::isnan(c->energy.tg->end_unix_s));
}

}  // namespace
}  // namespace rigbench::store
