// External power: a wall meter's CSV log (a real file in a temp dir) and a constant stated
// with --watts. Each test holds the joules of the window it asks for.
#include "power/power_log.h"

#include <gtest/gtest.h>

#include <cmath>

#include "fakes/drive.h"
#include "power/stated.h"
#include "support/temp_dir.h"

namespace rigbench::power {
namespace {

using testing::energy;
using testing::ns;
using testing::TempDir;
using testing::window;

// Reads an after-the-fact meter at Unix times `unix_s` (steady = the same instants).
std::vector<Tick> read_at(Meter& m, const std::vector<double>& unix_s) {
  std::vector<Tick> ticks;
  for (double t : unix_s) ticks.push_back({{ns(t), ns(t)}, m.read({ns(t), ns(t)})});
  return ticks;
}

TEST(PowerLogFile, IntegratesTheLogOverTheWindowWithInterpolatedEnds) {
  TempDir dir;
  testing::write_file(dir.file("plug.csv"),
                      "timestamp,watts\n"
                      "1795961280,100\n"
                      "1795961290,200\n"
                      "2026-11-29T14:08:20Z,200\n");  // = 1795961300
  auto meter = open_power_log(dir.file("plug.csv"));
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_TRUE((*meter)->reads_after_the_fact());
  EXPECT_TRUE((*meter)->domains()[0].whole_system);
  const auto ticks = read_at(**meter, {1795961285, 1795961295});
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 1795961285, 1795961295)});
  // 85→90 s: power 150 W at 85 s (interpolated) to 200 W: (150 + 200)/2 × 5 = 875 J;
  // 90→95 s: 200 W flat: 1000 J. Total 1875 J.
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kIntegrated);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 1875.0, 1e-6);
}

TEST(PowerLogFile, AWindowOutsideTheLogIsUnavailable) {
  TempDir dir;
  testing::write_file(dir.file("plug.csv"), "10,100\n20,100\n");
  auto meter = open_power_log(dir.file("plug.csv"));
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = read_at(**meter, {15, 25});
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 15, 25)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kUnavailable);
}

// The plog_gap case (shared/cases/compare/power/make_power_logs.py): a meter logging 80 W
// every second, offline from 1 s before the run to 170 s after it, then 2400 W. A window in
// the 172 s without readings is unavailable and flagged, never the 80 -> 2400 W line
// integrated across it; so is the idle baseline inside it.
TEST(PowerLogFile, AGapOfMoreThanAFewSamplingIntervalsIsNeverIntegratedAcross) {
  TempDir dir;
  const double t0 = 1795961280;
  std::string text = "timestamp,watts\n";
  for (int i = -30; i < -1; ++i) text += std::to_string(t0 + i) + ",80.0\n";
  for (int i = 170; i < 200; ++i) text += std::to_string(t0 + i) + ",2400.0\n";
  testing::write_file(dir.file("plog_gap.csv"), text);
  auto meter = open_power_log(dir.file("plog_gap.csv"));
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_DOUBLE_EQ((*meter)->domains()[0].update_interval_s, 1.0);  // the median spacing, not the gap's mean
  std::vector<double> times;
  for (int i = 0; i <= 20; ++i) times.push_back(t0 + 0.5 * i);
  const auto ticks = read_at(**meter, times);
  const auto r = summarize((*meter)->domains(), ticks, {window(kIdlePhase, t0, t0 + 2), window("tg", t0 + 3, t0 + 8)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kUnavailable);
  EXPECT_TRUE(std::isnan(energy(r, "tg", 0).energy_j));
  EXPECT_NE(energy(r, "tg", 0).note.find("not integrated across"), std::string::npos) << energy(r, "tg", 0).note;
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_TRUE(std::isnan(r.idle[0].power_w));
  EXPECT_EQ(r.flags, std::vector<std::string>{kFlagGap});
  EXPECT_TRUE(power_trace((*meter)->domains(), ticks).empty());  // no invented watts over time either
}

// Before and after a gap, windows are measured as usual: 80 W flat for 10 s before it.
TEST(PowerLogFile, WindowsBesideAGapAreMeasured) {
  TempDir dir;
  const double t0 = 1795961280;
  std::string text;
  for (int i = -30; i < -1; ++i) text += std::to_string(t0 + i) + ",80\n";
  for (int i = 170; i < 200; ++i) text += std::to_string(t0 + i) + ",2400\n";
  testing::write_file(dir.file("plog.csv"), text);
  auto meter = open_power_log(dir.file("plog.csv"));
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = read_at(**meter, {t0 - 20, t0 - 15, t0 - 10, t0 + 171, t0 + 175});
  const auto r =
      summarize((*meter)->domains(), ticks, {window("pp", t0 - 20, t0 - 10), window("tg", t0 + 171, t0 + 175)});
  EXPECT_NEAR(energy(r, "pp", 0).energy_j, 800.0, 1e-6);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 9600.0, 1e-6);
}

// The plog_10s case: a logger sampling every 10 s (100 / 300 W alternating) against phases
// of a second: the figure is flagged as coarser than the phases, and the note says so.
TEST(PowerLogFile, ALogCoarserThanThePhasesIsFlagged) {
  TempDir dir;
  const double t0 = 1795961280;
  std::string text = "timestamp,watts\n";
  int k = 0;
  for (int i = -60; i < 300; i += 10, ++k) text += std::to_string(t0 + i) + (k % 2 == 0 ? ",100.0\n" : ",300.0\n");
  testing::write_file(dir.file("plog_10s.csv"), text);
  auto meter = open_power_log(dir.file("plog_10s.csv"));
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = read_at(**meter, {t0, t0 + 1, t0 + 2, t0 + 3});
  const auto r = summarize((*meter)->domains(), ticks, {window("pp", t0, t0 + 1), window("tg", t0 + 2, t0 + 3)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kIntegrated);
  EXPECT_EQ(r.flags, std::vector<std::string>{kFlagCoarse});
  ASSERT_EQ(r.notes.size(), 2u);  // one per phase
  EXPECT_NE(r.notes[1].find("tg: external:wall: windows as short as 1 s against a source updated every 10.000 s"),
            std::string::npos)
      << r.notes[1];
}

TEST(PowerLogFile, ParseErrorsNameTheFileAndLine) {
  auto zone = parse_power_log("2026-11-29T14:08:20,5\n2026-11-29T14:08:21Z,5\n", "p.csv");
  ASSERT_FALSE(zone);
  EXPECT_NE(zone.error().message.find("'p.csv' line 1"), std::string::npos) << zone.error().message;
  auto watts = parse_power_log("1,5\n2,five\n", "p.csv");
  ASSERT_FALSE(watts);
  EXPECT_NE(watts.error().message.find("line 2: watts 'five'"), std::string::npos) << watts.error().message;
  auto offset = parse_power_log("2026-11-29T15:08:20.5+01:00,5\n1795961301,5\n", "p.csv");
  ASSERT_TRUE(offset) << offset.error().message;
  EXPECT_EQ((*offset)[0].unix_ns, 1795961300500000000);
}

// Issue 37: a log with Unix timestamps in milliseconds read as "two samples at the same time"
// (the seconds overflowed): the message names the unit problem and the line.
TEST(PowerLogFile, MillisecondTimestampsAreNamedAsTheWrongUnit) {
  auto ms = parse_power_log("timestamp,watts\n1795961284250,50\n1795961284750,52\n", "plug.csv");
  ASSERT_FALSE(ms);
  EXPECT_EQ(ms.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(ms.error().message,
            "power log 'plug.csv' line 2: timestamp '1795961284250' is too large for Unix seconds: it looks like "
            "milliseconds since 1970; the log needs seconds (divide by 1000; fractions allowed) or ISO 8601");
  auto nanos = parse_power_log("1795961284250000000,50\n1795961284750000000,52\n", "plug.csv");
  ASSERT_FALSE(nanos);
  EXPECT_NE(nanos.error().message.find("line 1: timestamp '1795961284250000000' is too large for Unix seconds: it "
                                       "looks like nanoseconds"),
            std::string::npos)
      << nanos.error().message;
  // The same log in seconds reads.
  auto secs = parse_power_log("1795961284.25,50\n1795961284.75,52\n", "plug.csv");
  ASSERT_TRUE(secs) << secs.error().message;
  EXPECT_NEAR(static_cast<double>((*secs)[1].unix_ns), 1795961284750000000.0, 1e3);  // a double holds ~256 ns here
}

TEST(PowerLogFile, QuotedFieldsMayHoldCommas) {
  // As a spreadsheet exports it: every field quoted, a comma inside the header's names.
  auto quoted = parse_power_log(
      "\"time (UTC, ISO 8601)\",\"power (W)\"\r\n"
      "\"2026-11-29T14:08:20Z\",\"100\"\r\n"
      "# a comment, with a comma\r\n"
      "\"2026-11-29T14:08:21.25Z\",\"250.5\"\r\n",
      "p.csv");
  ASSERT_TRUE(quoted) << quoted.error().message;
  ASSERT_EQ(quoted->size(), 2u);
  EXPECT_EQ((*quoted)[0].unix_ns, 1795961300000000000);
  EXPECT_EQ((*quoted)[1].unix_ns, 1795961301250000000);
  EXPECT_DOUBLE_EQ((*quoted)[1].power_w, 250.5);
  // A decimal comma inside quotes is one field, named as such, not a third column.
  auto decimal_comma = parse_power_log("1,5\n2,\"5,5\"\n", "p.csv");
  ASSERT_FALSE(decimal_comma);
  EXPECT_NE(decimal_comma.error().message.find("line 2: watts '5,5' is not a number"), std::string::npos)
      << decimal_comma.error().message;
  auto open_quote = parse_power_log("1,5\n2,\"5\n", "p.csv");
  ASSERT_FALSE(open_quote);
  EXPECT_NE(open_quote.error().message.find("'p.csv' line 2: unterminated quote"), std::string::npos)
      << open_quote.error().message;
}

TEST(PowerConstantStated, EnergyIsWattsTimesTimeLabelledEstimated) {
  auto meter = make_constant_meter(65);
  const auto ticks = testing::drive(*meter, {0, 2.5});
  const auto r = summarize(meter->domains(), ticks, {window("tg", 0.5, 2.5), window(kIdlePhase, 0, 0.5)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kEstimated);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 130.0, 1e-9);  // 65 W × 2 s
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_DOUBLE_EQ(r.idle[0].power_w, 65.0);
}

TEST(PowerEstimateFakeProcStat, TdpTimesUtilizationIsLabelledEstimated) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "proc");
  const std::string stat = dir.file("proc/stat");
  // user nice system idle iowait irq softirq steal
  testing::write_file(stat, "cpu  100 0 0 900 0 0 0 0\ncpu0 100 0 0 900 0 0 0 0\n");
  auto meter = open_utilization_estimate(80, dir.file("proc"));
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = testing::drive(**meter, {0, 1, 2}, [&](std::size_t i) {
    // 0→1 s: 50 busy of 100 jiffies (u = 0.5); 1→2 s: 25 of 100 (u = 0.25).
    if (i == 1) testing::write_file(stat, "cpu  150 0 0 950 0 0 0 0\n");
    if (i == 2) testing::write_file(stat, "cpu  175 0 0 1025 0 0 0 0\n");
  });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 2)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kEstimated);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 80 * 0.5 * 1 + 80 * 0.25 * 1, 1e-9);  // 40 J + 20 J
  EXPECT_NE((*meter)->domains()[0].source.find("TDP 80 W x CPU utilization"), std::string::npos);
}

}  // namespace
}  // namespace rigbench::power
