// summarize(): the rules that turn readings into energy per phase, on hand-made readings
// (what a meter would have reported), each with the joules the rule must give.
#include <gtest/gtest.h>

#include "fakes/drive.h"
#include "power/summary.h"

namespace rigbench::power {
namespace {

using testing::energy;
using testing::ns;
using testing::window;

DomainReading counter(double j) {
  DomainReading r;
  r.counter_j = j;
  return r;
}

DomainReading power(double integrated_j, double w) {
  DomainReading r;
  r.integrated_j = integrated_j;
  r.power_w = w;
  return r;
}

Tick tick(double t_s, std::vector<DomainReading> readings) { return {{ns(t_s), ns(t_s)}, std::move(readings)}; }

const std::vector<DomainInfo> kOneDomain = {{"rapl:package-0", "test", Method::kIntegrated, false, 0}};

TEST(PowerSummary, WindowEndsAreInterpolatedBetweenReads) {
  // Counter: 0 J at 0 s, 10 J at 1 s, 30 J at 2 s. Window 0.5 → 1.5 s:
  // E(1.5) - E(0.5) = (10 + 0.5 × 20) - (0 + 0.5 × 10) = 20 - 5 = 15 J.
  const std::vector<Tick> ticks = {tick(0, {counter(0)}), tick(1, {counter(10)}), tick(2, {counter(30)})};
  const auto r = summarize(kOneDomain, ticks, {window("pp", 0.5, 1.5)});
  EXPECT_NEAR(energy(r, "pp", 0).energy_j, 15.0, 1e-12);
  EXPECT_NEAR(energy(r, "pp", 0).duration_s, 1.0, 1e-12);
  EXPECT_NEAR(energy(r, "pp", 0).power_w, 15.0, 1e-12);
}

TEST(PowerSummary, RepeatedWindowsOfAPhaseAreSummed) {
  const std::vector<Tick> ticks = {tick(0, {counter(0)}), tick(1, {counter(10)}), tick(2, {counter(30)}),
                                   tick(3, {counter(60)})};
  // tg twice: 0→1 s (10 J) and 2→3 s (30 J); pp between them: 1→2 s (20 J).
  const auto r = summarize(kOneDomain, ticks, {window("tg", 0, 1), window("pp", 1, 2), window("tg", 2, 3)});
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].phase, "tg");
  EXPECT_EQ(r.phases[0].n_windows, 2);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 40.0, 1e-12);
  EXPECT_NEAR(energy(r, "tg", 0).duration_s, 2.0, 1e-12);
  EXPECT_NEAR(energy(r, "pp", 0).energy_j, 20.0, 1e-12);
}

TEST(PowerSummary, IdleBaselineIsTheMedianOfPowerSamples) {
  // Power samples 50, 52, 200 (a spike), 51 W inside the idle window 0-3 s; sorted 50, 51,
  // 52, 200, the median is (51 + 52)/2 = 51.5 W (the mean, 88.25 W, would carry the spike).
  const std::vector<Tick> ticks = {tick(0, {power(0, 50)}), tick(1, {power(51, 52)}), tick(2, {power(177, 200)}),
                                   tick(3, {power(302.5, 51)}), tick(4, {power(400, 150)})};
  const auto r = summarize(kOneDomain, ticks, {window(kIdlePhase, 0, 3), window("tg", 3, 4)});
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_DOUBLE_EQ(r.idle[0].power_w, 51.5);
  EXPECT_EQ(r.idle[0].n_samples, 4u);
  EXPECT_EQ(r.idle[0].method, Method::kIntegrated);
}

TEST(PowerSummary, IdleBaselineFromACounterIsTheMedianOfIntervalPowers) {
  // Interval powers 10, 12, 40, 11 W: median (11 + 12)/2 = 11.5 W.
  const std::vector<Tick> ticks = {tick(0, {counter(0)}), tick(1, {counter(10)}), tick(2, {counter(22)}),
                                   tick(3, {counter(62)}), tick(4, {counter(73)})};
  const auto r = summarize(kOneDomain, ticks, {window(kIdlePhase, 0, 4)});
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_DOUBLE_EQ(r.idle[0].power_w, 11.5);
  EXPECT_EQ(r.idle[0].method, Method::kCounter);
}

TEST(PowerSummary, AFailedReadIsBridgedByTheNextCounterValue) {
  DomainReading failed;
  failed.error = "energy_uj: input/output error";
  const std::vector<Tick> ticks = {tick(0, {counter(0)}), tick(1, {failed}), tick(2, {counter(30)})};
  const auto r = summarize(kOneDomain, ticks, {window("tg", 0, 2)});
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 30.0, 1e-12);
}

TEST(PowerSummary, AWindowBeyondTheReadsIsUnavailableNeverZero) {
  const std::vector<Tick> ticks = {tick(0, {counter(0)}), tick(1, {counter(10)})};
  const auto r = summarize(kOneDomain, ticks, {window("tg", 0.5, 2)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kUnavailable);
  EXPECT_TRUE(std::isnan(energy(r, "tg", 0).energy_j));
}

TEST(PowerSummary, ADomainThatNeverReadIsUnavailableWithItsError) {
  DomainReading failed;
  failed.error = "/sys/x/energy_uj: permission denied";
  const auto r = summarize(kOneDomain, {tick(0, {failed}), tick(1, {failed})}, {window("tg", 0, 1)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kUnavailable);
  EXPECT_EQ(energy(r, "tg", 0).note, "/sys/x/energy_uj: permission denied");
}

}  // namespace
}  // namespace rigbench::power

namespace rigbench::power {
namespace {

// Power over time from hand-made reads: a counter domain and a sampled one, then a
// whole-system figure that replaces the components.
TEST(PowerTrace, WattsBetweenSuccessiveReads) {
  std::vector<DomainInfo> domains(2);
  domains[0].name = "rapl:package-0";
  domains[1].name = "nvml:gpu0";
  auto tick = [](int64_t ms, double counter_j, double integrated_j) {
    Tick t;
    t.time.steady_ns = ms * 1'000'000;
    DomainReading a, b;
    a.counter_j = counter_j;
    b.integrated_j = integrated_j;
    t.readings = {a, b};
    return t;
  };
  // 0.5 s apart: package +10 J (20 W), GPU +50 J (100 W); then package +5 J (10 W), GPU +25 J (50 W).
  const std::vector<Tick> ticks = {tick(0, 100, 0), tick(500, 110, 50), tick(1000, 115, 75)};
  const auto trace = power_trace(domains, ticks);
  ASSERT_EQ(trace.size(), 2u);
  EXPECT_DOUBLE_EQ(trace[0].t_s, 0.25);
  EXPECT_DOUBLE_EQ(trace[0].power_w, 120.0);
  EXPECT_DOUBLE_EQ(trace[1].t_s, 0.75);
  EXPECT_DOUBLE_EQ(trace[1].power_w, 60.0);
  domains[1].whole_system = true;  // a wall meter: used alone
  const auto wall = power_trace(domains, ticks);
  EXPECT_DOUBLE_EQ(wall[0].power_w, 100.0);
  EXPECT_DOUBLE_EQ(wall[1].power_w, 50.0);
}

}  // namespace
}  // namespace rigbench::power
