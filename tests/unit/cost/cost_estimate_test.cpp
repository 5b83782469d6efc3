// The cost use case (cost::estimate_cost): every figure from one set of inputs, and a note
// naming the input for each figure it cannot give. Worked by hand beside each value.
#include <gtest/gtest.h>

#include <cmath>

#include "cost/estimate.h"

namespace rigbench::cost {
namespace {

CostInputs inputs() {
  CostInputs in;
  in.tokens_per_s = 40;
  in.active_power_w = 350;
  in.idle_power_w = 100;
  in.price_per_kwh = 0.30;
  in.utilization = 0.5;
  in.has_hardware = true;
  in.hardware = {2000, 0, 0, 3 * kSecondsPerYear};
  in.api_price_per_mtok = 2.0;
  in.memory_gb = 24;
  return in;
}

TEST(CostEstimate, EveryFigureFromCommandLineFigures) {
  const CostReport r = estimate_cost(inputs());
  EXPECT_DOUBLE_EQ(r.gross.j, 8.75);                           // 350 W / 40 tokens/s
  EXPECT_NEAR(r.gross.cost_per_mtok, 0.729167, 1e-6);          // 8.75 · 0.30 / 3.6
  EXPECT_DOUBLE_EQ(r.marginal.j, 6.25);                        // (350 - 100) / 40
  EXPECT_NEAR(r.marginal.cost_per_mtok, 0.520833, 1e-6);       // 6.25 · 0.30 / 3.6
  EXPECT_DOUBLE_EQ(r.at_utilization.j, 11.25);                 // 8.75 + 100 · 0.5 / (0.5 · 40) = 8.75 + 2.5
  EXPECT_NEAR(r.at_utilization.cost_per_mtok, 0.9375, 1e-12);  // 11.25 · 0.30 / 3.6
  EXPECT_NEAR(r.hardware_per_mtok, 1.056270, 1e-6);            // 2e9 / (94,672,800 · 0.5 · 40)
  EXPECT_NEAR(r.total_per_mtok, 1.993770, 1e-6);               // 0.9375 + 1.056270
  EXPECT_NEAR(r.break_even_utilization, 0.497894, 1e-6);       // see CostFormulas.BreakEven...
  EXPECT_NEAR(r.price_per_memory_gb, 83.333333, 1e-6);         // 2000 / 24
  EXPECT_TRUE(r.notes.empty());
}

TEST(CostEstimate, WallPowerAppliesToActiveAndIdle) {
  CostInputs in = inputs();
  in.psu_efficiency = 0.8;
  in.rest_w = 30;
  const CostReport r = estimate_cost(in);
  EXPECT_DOUBLE_EQ(r.wall_active_w, 467.5);  // 350 / 0.8 + 30 = 437.5 + 30
  EXPECT_DOUBLE_EQ(r.wall_idle_w, 155.0);    // 100 / 0.8 + 30 = 125 + 30
  EXPECT_DOUBLE_EQ(r.gross.j, 467.5 / 40);
}

TEST(CostEstimate, MissingInputsLeaveFiguresOutWithTheFlagThatGivesThem) {
  CostInputs in;
  in.tokens_per_s = 40;
  in.active_power_w = 350;
  const CostReport r = estimate_cost(in);
  EXPECT_DOUBLE_EQ(r.gross.j, 8.75);
  EXPECT_TRUE(std::isnan(r.gross.cost_per_mtok));
  EXPECT_TRUE(std::isnan(r.marginal.j));
  ASSERT_EQ(r.notes.size(), 2u);
  EXPECT_NE(r.notes[0].find("--idle-watts"), std::string::npos);
  EXPECT_NE(r.notes[1].find("--price or --tariff"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::cost

namespace rigbench::cost {
namespace {

// Idle above active (the 1.7x NVML case gave 65.3 W idle, 37.45 W active): no negative
// marginal figure, but a note that says why, and the report knows it.
TEST(CostEstimate, IdleAboveActiveGivesNoMarginalFigureButANote) {
  CostInputs in = inputs();
  in.active_power_w = 37.45;
  in.idle_power_w = 65.3;
  const CostReport r = estimate_cost(in);
  EXPECT_TRUE(std::isnan(r.marginal.j));
  EXPECT_TRUE(std::isnan(r.marginal.cost_per_mtok));
  EXPECT_TRUE(r.idle_above_active);
  EXPECT_DOUBLE_EQ(r.gross.j, 37.45 / 40);
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("idle 65.3 W is above active 37.45 W") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace rigbench::cost
