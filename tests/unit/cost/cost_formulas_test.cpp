// Cost formulas (docs/energy.md) against worked examples computed by hand; the arithmetic
// is written out beside each expected value.
#include <gtest/gtest.h>

#include <cmath>

#include "cost/energy.h"
#include "cost/hardware.h"
#include "cost/tariff.h"

namespace rigbench::cost {
namespace {

// A run: E = 1200 J over T = 10 s, N = 400 output tokens (r = 40 tokens/s), idle 50 W.
TEST(CostFormulas, EnergyPerTokenGrossMarginalAndAtUtilization) {
  EXPECT_DOUBLE_EQ(gross_j_per_token(1200, 400), 3.0);              // 1200 / 400
  EXPECT_DOUBLE_EQ(marginal_j_per_token(1200, 50, 10, 400), 1.75);  // (1200 - 50·10) / 400 = 700 / 400
  // u = 0.25: 3 + 50·(1 - 0.25) / (0.25·40) = 3 + 37.5 / 10 = 6.75
  EXPECT_DOUBLE_EQ(j_per_token_at_utilization(3.0, 50, 0.25, 40), 6.75);
  // u = 1: the machine never idles, so e(1) = gross.
  EXPECT_DOUBLE_EQ(j_per_token_at_utilization(3.0, 50, 1.0, 40), 3.0);
}

TEST(CostFormulas, ElectricityCostPerMillionTokens) {
  // 3 J/token × 10^6 tokens = 3,000,000 J = 0.8333 kWh; × 0.30 EUR/kWh = 0.25 EUR.
  EXPECT_DOUBLE_EQ(electricity_cost_per_mtok(3.0, 0.30), 0.25);
  // The RTX 3090 gemma3:27b order of magnitude: 0.706 EUR/Mtok at 0.26 EUR/kWh is
  // 0.706 · 3.6 / 0.26 = 9.775 J/token.
  EXPECT_NEAR(electricity_cost_per_mtok(9.775, 0.26), 0.706, 1e-3);
}

TEST(CostFormulas, WallPowerFromComponentPower) {
  EXPECT_NEAR(wall_power_w(300, 0.9, 20), 353.3333333, 1e-6);  // 300 / 0.9 + 20 = 333.33 + 20
  EXPECT_DOUBLE_EQ(wall_power_w(300, 1.0, 0), 300.0);
}

TEST(CostFormulas, HardwareAmortizationPerMillionTokens) {
  // (2000 - 500 + 100) · 10^6 / (3 · 31,557,600 s · 0.5 · 40 tokens/s)
  //   = 1.6e9 / (94,672,800 · 20) = 1.6e9 / 1,893,456,000 = 0.845016 per Mtok
  const HardwareCost hw{2000, 500, 100, 3 * kSecondsPerYear};
  EXPECT_DOUBLE_EQ(3 * kSecondsPerYear, 94672800.0);
  EXPECT_NEAR(hardware_cost_per_mtok(hw, 0.5, 40), 0.845016, 1e-6);
}

TEST(CostFormulas, BreakEvenUtilizationAgainstAnApiPrice) {
  // 350 W generating, 100 W idle, 0.30 per kWh (π = 0.30 / 3.6e6 per J), 2000 over 3 years,
  // 40 tokens/s, API 2 per Mtok:
  //   marginal = 10^6/40 · 250 · π = 0.520833;  fixed = 10^6/40 · (100·π + 2000/94,672,800) = 0.736468
  //   u* = 0.736468 / (2 - 0.520833) = 0.497894
  const HardwareCost hw{2000, 0, 0, 3 * kSecondsPerYear};
  const double u = break_even_utilization(350, 100, 0.30, hw, 2.0, 40);
  EXPECT_NEAR(u, 0.497894, 1e-6);
  // At u*, local cost equals the API price; it is the sum of electricity at u and hardware.
  EXPECT_NEAR(local_cost_per_mtok(350, 100, 0.30, hw, u, 40), 2.0, 1e-9);
  const double electricity = electricity_cost_per_mtok(j_per_token_at_utilization(350.0 / 40, 100, u, 40), 0.30);
  EXPECT_NEAR(electricity + hardware_cost_per_mtok(hw, u, 40), 2.0, 1e-9);
  // An API at 0.50 per Mtok is below the marginal electricity (0.52): never.
  EXPECT_TRUE(std::isinf(break_even_utilization(350, 100, 0.30, hw, 0.50, 40)));
}

TEST(CostFormulas, PricePerGbOfMemory) {
  EXPECT_NEAR(price_per_memory_gb(1999, 32), 62.47, 0.005);   // RTX 5090: 1999 / 32 = 62.47
  EXPECT_NEAR(price_per_memory_gb(9499, 512), 18.55, 0.005);  // M3 Ultra 512 GB: 9499 / 512 = 18.55
}

TEST(TariffParse, DayNightIsTheHourWeightedMean) {
  auto t = parse_tariff("day=0.30@07-23,night=0.18");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->periods.size(), 2u);
  EXPECT_EQ(t->periods[0].hours, 16);  // 07 to 23
  EXPECT_EQ(t->periods[1].hours, 8);   // the rest: 23 to 07
  EXPECT_EQ(t->periods[1].start_hour, 23);
  EXPECT_EQ(t->periods[1].end_hour, 7);
  EXPECT_NEAR(t->mean_price_per_kwh, 0.26, 1e-12);  // (0.30·16 + 0.18·8) / 24 = (4.8 + 1.44) / 24
}

TEST(TariffParse, ThreePeriodsWithOneWrappingMidnight) {
  auto t = parse_tariff("peak=0.40@17-21, offpeak=0.20@21-07, standard=0.25");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->periods[1].hours, 10);  // 21 to 07: 3 + 7
  EXPECT_EQ(t->periods[2].hours, 10);  // 07 to 17
  // (0.40·4 + 0.20·10 + 0.25·10) / 24 = (1.6 + 2.0 + 2.5) / 24 = 6.1 / 24
  EXPECT_NEAR(t->mean_price_per_kwh, 6.1 / 24, 1e-12);
}

TEST(TariffParse, FlatAndWholeDayRanges) {
  EXPECT_NEAR(parse_tariff("flat=0.25")->mean_price_per_kwh, 0.25, 1e-12);
  EXPECT_NEAR(parse_tariff("all=0.21@00-24")->mean_price_per_kwh, 0.21, 1e-12);
  EXPECT_NEAR(parse_tariff("late=0.1@22-00,rest=0.34")->mean_price_per_kwh, (0.1 * 2 + 0.34 * 22) / 24, 1e-12);
}

TEST(TariffParse, ErrorsNameTheEntry) {
  auto expect_error = [](const char* spec, const char* part) {
    auto t = parse_tariff(spec);
    ASSERT_FALSE(t) << spec;
    EXPECT_EQ(t.error().code, ErrorCode::kUsage);
    EXPECT_NE(t.error().message.find(part), std::string::npos) << t.error().message;
  };
  expect_error("a=1@00-12,b=2@11-24", "entry 'b=2@11-24': hour 11 is already covered by 'a'");
  expect_error("a=1@00-12", "hour 12 (and 12 in all) has no price");
  expect_error("a=1,b=2", "entry 'b=2': a second entry without hours");
  expect_error("a=1@07-07", "cover no time");
  expect_error("a=x", "price 'x'");
  expect_error("a=1@7-25", "must be HH-HH");
  expect_error("a=1@00-24,b=2", "'b' covers no hour");
  expect_error("0.30", "expected name=price");
}

}  // namespace
}  // namespace rigbench::cost
