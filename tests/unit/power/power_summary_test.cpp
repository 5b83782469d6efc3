// summarize(): the rules that turn readings into energy per phase, on hand-made readings
// (what a meter would have reported), each with the joules the rule must give.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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

// The phase's span on the system clock: the first window's start to the last one's end,
// shifted by the reads' unix - steady offset (here the system clock is 1,700,000,000 s ahead),
// so that nvidia-smi's log of the same counter can be cut at the same instants.
TEST(PowerSummary, PhaseSpanIsOnTheSystemClockFromTheFirstStartToTheLastEnd) {
  const int64_t ahead = ns(1'700'000'000);
  auto at = [&](double t_s, double j) { return Tick{{ns(t_s), ns(t_s) + ahead}, {counter(j)}}; };
  const std::vector<Tick> ticks = {at(0, 0), at(1, 10), at(2, 30), at(3, 60)};
  const auto r = summarize(kOneDomain, ticks, {window("tg", 0.25, 1), window("pp", 1, 2), window("tg", 2, 2.75)});
  const PhaseEnergy* tg = r.phase("tg");
  ASSERT_NE(tg, nullptr);
  EXPECT_EQ(tg->first_start_unix_ns, ns(0.25) + ahead);
  EXPECT_EQ(tg->last_end_unix_ns, ns(2.75) + ahead);
  EXPECT_NEAR(tg->duration_s, 1.5, 1e-12);  // the windows alone; the span is 2.5 s
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

// Idle from a counter comes from the counter, as the phases do, and by the same arithmetic:
// energy over the idle window / its seconds (0 → 73 J over 0-4 s: 18.25 W). Interval powers
// would alternate 0 and 2P when the counter updates more slowly than the reads.
TEST(PowerSummary, IdleBaselineFromACounterIsItsEnergyOverTheWindow) {
  const std::vector<Tick> ticks = {tick(0, {counter(0)}), tick(1, {counter(10)}), tick(2, {counter(22)}),
                                   tick(3, {counter(62)}), tick(4, {counter(73)})};
  const auto r = summarize(kOneDomain, ticks, {window(kIdlePhase, 0, 4)});
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_DOUBLE_EQ(r.idle[0].power_w, 18.25);
  EXPECT_EQ(r.idle[0].method, Method::kCounter);
}

DomainReading both(double counter_j, double integrated_j, double w) {
  DomainReading r = power(integrated_j, w);
  r.counter_j = counter_j;
  return r;
}

// The 1.7x case: a counter at 37.45 W beside instantaneous power at 65.3 W. The idle baseline
// must come from the counter the phases use (37.45 W, not the power samples' 65.3 W), so the
// marginal figure is not negative, and the disagreement (> 10 %) is flagged.
TEST(PowerSummary, IdleAndPhasesFromOneSourceAndADisagreementIsFlagged) {
  std::vector<Tick> ticks;
  for (int i = 0; i <= 40; ++i) ticks.push_back(tick(0.1 * i, {both(37.45 * 0.1 * i, 65.3 * 0.1 * i, 65.3)}));
  const auto r = summarize(kOneDomain, ticks, {window(kIdlePhase, 0, 2), window("tg", 2.5, 3.5)});
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_EQ(r.methods[0], Method::kCounter);
  EXPECT_NEAR(r.idle[0].power_w, 37.45, 1e-9);
  EXPECT_NEAR(energy(r, "tg", 0).power_w, 37.45, 1e-9);
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), kFlagSourcesDisagree), r.flags.end());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("disagree by more than 10 %"), std::string::npos) << r.notes[0];
}

// Within 10 %, nothing is flagged.
TEST(PowerSummary, CounterAndPowerWithinTenPercentAreNotFlagged) {
  std::vector<Tick> ticks;
  for (int i = 0; i <= 40; ++i) ticks.push_back(tick(0.1 * i, {both(100.0 * 0.1 * i, 95.0 * 0.1 * i, 95)}));
  const auto r = summarize(kOneDomain, ticks, {window("tg", 0, 4)});
  EXPECT_TRUE(r.flags.empty());
}

// Integrated power with a gap flagged by the source (a log with no readings): a window over
// the gap is unavailable, never interpolated across, and flagged `gap`.
TEST(PowerSummary, AWindowOverAGapIsUnavailableAndFlagged) {
  DomainReading in_gap = power(80, kNaN);
  in_gap.integrated_gap = true;
  in_gap.error = "no reading for 172.0 s around this time";
  DomainReading after = power(80, 2400);
  after.integrated_gap = true;
  const std::vector<Tick> ticks = {tick(0, {power(0, 80)}), tick(1, {power(80, 80)}), tick(2, {in_gap}),
                                   tick(3, {after})};
  const auto r = summarize(kOneDomain, ticks, {window("tg", 1.5, 2.5)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kUnavailable);
  EXPECT_TRUE(std::isnan(energy(r, "tg", 0).energy_j));
  EXPECT_NE(energy(r, "tg", 0).note.find("not integrated across"), std::string::npos) << energy(r, "tg", 0).note;
  EXPECT_EQ(r.flags, std::vector<std::string>{kFlagGap});
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
