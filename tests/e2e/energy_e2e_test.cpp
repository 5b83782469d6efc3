// End-to-end: energy and cost in `rigbench bench` on this VM (no RAPL, no GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;

std::vector<std::string> args(std::vector<std::string> extra) {
  std::vector<std::string> a = {RIGBENCH_BIN, "bench",   RIGBENCH_TEST_MODEL, "-p",  "64", "-n",  "32", "-r", "2", "-t",
                                "1",          "--no-db", "--idle-seconds",    "0.3", "-o", "json"};
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
  const auto j = nlohmann::json::parse(r.out).back();      // the tg32 test's record
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
  (void)tps;
  // Cost is priced from the record's own J/token (total energy / total tokens): one definition.
  EXPECT_NEAR(j["cost"]["gross_per_mtok"].get<double>(), tg["j_per_token"].get<double>() * 0.30 / 3.6, 1e-12);
  EXPECT_NEAR(j["cost"]["marginal_per_mtok"].get<double>(), 0.0, 1e-9);  // idle = active
  ASSERT_FALSE(j["energy"]["power_trace"].empty());                      // power over time, read by the sampler
  // A stated figure is integrated on the wall clock, the trace's intervals are steady-clock:
  // over intervals of a few ms the two clocks differ by parts per 10^5.
  for (const auto& p : j["energy"]["power_trace"]) EXPECT_NEAR(p[1].get<double>(), 65.0, 0.01);
}

// Issue 37: bench's md with a price and a utilization was 142 columns wide (its cost/Mtok and
// total/Mtok columns, "0.0114 EUR" past its column) and its total read "-" with no reason. The
// costs are a footer line under the table, what a cost lacks a note.
TEST(EnergyE2E, BenchCostIsAFooterWithinTheTableWidthAndSaysWhatTheTotalNeeds) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--estimate-power", "65", "--price",
                                       "0.30", "--utilization", "0.25", "--no-db", "-r", "1", "-p", "16", "-n", "8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 122u) << line;  // ± is two bytes
  EXPECT_EQ(r.out.find("cost/Mtok |"), std::string::npos) << r.out;
  // the figure itself: a fraction of a cent on a quiet machine, 2.56 EUR where ctest -j made tg 2 t/s
  const std::size_t at = r.out.find("amortization): row 2 ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(r.out[at + 21]))) << r.out;
  EXPECT_NE(r.out.find(" EUR, total -"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: cost: marginal energy and energy at a utilization: give --idle-watts"), std::string::npos)
      << r.out;
  // --wide keeps the columns.
  const ProcessResult wide =
      run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--estimate-power", "65", "--price", "0.30",
                   "--utilization", "0.25", "--no-db", "-r", "1", "-p", "16", "-n", "8", "--wide"});
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_NE(wide.out.find("cost/Mtok |"), std::string::npos) << wide.out;
}

// Issue 37: --estimate-power's TDP x CPU utilization read idle 0.0 W (nothing runs at idle), so
// the cost at a utilization equalled the gross. Its idle is unknown, and the note names --idle-watts.
TEST(EnergyE2E, EstimatedPowerLeavesIdleUnknownAndNamesIdleWatts) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--estimate-power", "65", "--no-db",
                                       "-r", "1", "-p", "16", "-n", "8", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto e = nlohmann::json::parse(r.out)[0]["energy"];
  EXPECT_TRUE(!e.contains("idle_power_w") || e["idle_power_w"].is_null()) << e.dump();
  bool named = false;
  for (const auto& n : e["notes"]) named = named || n.get<std::string>().find("give --idle-watts W") != std::string::npos;
  EXPECT_TRUE(named) << e.dump();
  // Stated, it is used: no such note.
  const ProcessResult stated = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "--estimate-power", "65",
                                            "--idle-watts", "20", "--no-db", "-r", "1", "-p", "16", "-n", "8", "-o", "json"});
  ASSERT_EQ(stated.exit_code, 0) << stated.err;
  const auto s = nlohmann::json::parse(stated.out)[0]["energy"];
  EXPECT_DOUBLE_EQ(s["idle_power_w"].get<double>(), 20);
  EXPECT_EQ(s.dump().find("idle power unknown"), std::string::npos) << s.dump();
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
  const ProcessResult c = run_process({RIGBENCH_BIN, "cost", "--run", rec["record_id"].get<std::string>().substr(0, 8),
                                       "--db", db, "--price", "0.25", "-o", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  // 80 W over the tg seconds / the tg tokens: the record's J/token, priced.
  EXPECT_NEAR(j["energy"]["gross_j_per_token"].get<double>(), rec["energy"]["tg"]["j_per_token"].get<double>(), 1e-9)
      << c.out;
  EXPECT_NEAR(j["electricity"]["gross_per_mtok"].get<double>(),
              rec["energy"]["tg"]["j_per_token"].get<double>() * 0.25 / 3.6, 1e-9)
      << c.out;
  // The speed priced is the bench row's (the tg test's mean of per-repetition rates), and the
  // output says which test and which rate.
  EXPECT_DOUBLE_EQ(j["inputs"]["tokens_per_s"].get<double>(), rec["results"]["tg"]["avg_tps"].get<double>());
  EXPECT_EQ(j["inputs"]["rate_source"], "tg32 t/s as bench's row reports it: the mean of 2 per-repetition rates");
  const ProcessResult md = run_process({RIGBENCH_BIN, "cost", "--run", "latest", "--db", db, "--price", "0.25"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  char header[160];
  std::snprintf(header, sizeof header, "inputs: %g tokens/s (tg32 t/s as bench's row reports it",
                rec["results"]["tg"]["avg_tps"].get<double>());
  EXPECT_NE(md.out.find(header), std::string::npos) << md.out;
  const ProcessResult missing = run_process({RIGBENCH_BIN, "cost", "--run", "ffffffff", "--db", db, "--price", "0.25"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("--run 'ffffffff': no such run"), std::string::npos) << missing.err;
}

// A fake NVIDIA GPU for the bench process: the fake NVML library (RIGBENCH_NVML_LIBRARY)
// reads a state file written once: the energy counter runs at `counter_w` from now, moving in
// steps of `step_s` (0 = at every read), computed by the library from the clock at each read
// (so a busy machine cannot make the counter lag the reader's time), and instantaneous power
// reads `instant_w`.
class FakeGpu {
 public:
  FakeGpu(double counter_w, double instant_w, double step_s) : path_(dir_.file("nvml_state")) {
    setenv("RIGBENCH_NVML_LIBRARY", RIGBENCH_FAKE_NVML, 1);
    setenv("RIGBENCH_FAKE_NVML_STATE", path_.c_str(), 1);
    const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::ofstream out(path_);
    out << std::setprecision(17) << "init=ok\ncount=1\ngpu0.name=Fake H100\ngpu0.energy_mj=5000000\n"
        << "gpu0.energy_w=" << counter_w << "\ngpu0.energy_since_unix_s=" << now << "\ngpu0.energy_step_s=" << step_s
        << "\ngpu0.power_instant_mw=" << static_cast<unsigned long long>(instant_w * 1000) << "\n";
  }
  ~FakeGpu() {
    unsetenv("RIGBENCH_NVML_LIBRARY");
    unsetenv("RIGBENCH_FAKE_NVML_STATE");
  }

 private:
  testing::TempDir dir_;
  std::string path_;
};

bool has(const nlohmann::json& list, const char* item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Case 1 (fake NVML, stepped counter): 100 W on a counter that moves every 0.1 s, phases of a
// few ms each (-p 16 -n 32). The figure is about 100 W when a phase is shorter than the
// counter's update period (instantaneous power is used), and the record is flagged either
// way; the md table's notes show the flag.
TEST(EnergyFakeNvmlE2E, PhasesShorterThanTheCounterUpdateAreAbout100WOrFlagged) {
  FakeGpu gpu(100, 100, 0.1);
  std::vector<std::string> a = {RIGBENCH_BIN, "bench",   RIGBENCH_TEST_MODEL, "-p",  "16", "-n",  "32", "-t",
                                "1",          "--no-db", "--idle-seconds",    "0.5", "-o", "json"};
  const ProcessResult r = run_process(a);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& rec : nlohmann::json::parse(r.out)) {
    const auto& e = rec["energy"];
    const auto& flags = e["flags"];
    ASSERT_TRUE(has(flags, "below_update_period") || has(flags, "coarse")) << e.dump();
    const auto& phase = rec["results"].contains("tg") ? e["tg"] : e["pp"];
    if (has(flags, "below_update_period")) {
      EXPECT_NEAR(phase["power_w"].get<double>(), 100.0, 0.5) << e.dump();
      EXPECT_NEAR(e["idle_power_w"].get<double>(), 100.0, 0.5) << e.dump();
    }
    EXPECT_FALSE(e["notes"].empty());
  }
  a.back() = "md";
  const ProcessResult md = run_process(a);
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("energy flagged"), std::string::npos) << md.out;
}

// Case 2 (fake NVML, steady): the counter reads 37.45 W, instantaneous power 65.3 W (1.7x).
// The disagreement is flagged; idle and phases come from one source (the same watts, since
// the fake's power does not change), so the marginal cost is never negative; and
// `cost --run latest` prints no negative J/token either.
TEST(EnergyFakeNvmlE2E, CounterAndPowerDisagreeingAreFlaggedAndIdleComesFromTheSameSource) {
  FakeGpu gpu(37.45, 65.3, 0);
  testing::TempDir dir;
  const std::string db = dir.file("r.db");
  const ProcessResult r =
      run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "32", "-t", "1", "-r", "2", "--db", db,
                   "--idle-seconds", "2.5", "--price", "0.30", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rec = nlohmann::json::parse(r.out).back();  // tg32
  const auto& e = rec["energy"];
  EXPECT_TRUE(has(e["flags"], "sources_disagree")) << e.dump();
  const double tg_w = e["tg"]["power_w"].get<double>();
  const double idle_w = e["idle_power_w"].get<double>();
  const double source_w = std::fabs(tg_w - 37.45) < std::fabs(tg_w - 65.3) ? 37.45 : 65.3;
  EXPECT_NEAR(idle_w, source_w, 0.05 * source_w) << e.dump();  // the same source as tg
  const auto& cost = rec["cost"];
  ASSERT_FALSE(cost.is_null());
  EXPECT_TRUE(cost["marginal_per_mtok"].is_null() || cost["marginal_per_mtok"].get<double>() >= 0) << cost.dump();
  // One definition: the cost per Mtok is the record's J/token priced.
  EXPECT_NEAR(cost["gross_per_mtok"].get<double>(), e["tg"]["j_per_token"].get<double>() * 0.30 / 3.6, 1e-12);
  const ProcessResult c =
      run_process({RIGBENCH_BIN, "cost", "--run", "latest", "--db", db, "--price", "0.30", "-o", "json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_TRUE(j["energy"]["marginal_j_per_token"].is_null() || j["energy"]["marginal_j_per_token"].get<double>() >= 0)
      << c.out;
  EXPECT_NEAR(j["energy"]["gross_j_per_token"].get<double>(), e["tg"]["j_per_token"].get<double>(), 1e-9);
  EXPECT_TRUE(has(j["run"]["energy_flags"], "sources_disagree")) << c.out;
}

// Power logs written around now (as shared/cases/compare/power/make_power_logs.py does).
std::string power_log(const testing::TempDir& dir, const char* name, bool gap) {
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string text = "timestamp,watts\n";
  char line[64];
  if (gap) {  // 80 W, offline from 1 s before the run to 170 s after, then 2400 W
    for (int i = -30; i < -1; ++i) text += (std::snprintf(line, sizeof line, "%.3f,80.0\n", now + i), line);
    for (int i = 170; i < 200; ++i) text += (std::snprintf(line, sizeof line, "%.3f,2400.0\n", now + i), line);
  } else {  // every 10 s, 100 / 300 W alternating
    int k = 0;
    for (int i = -60; i < 300; i += 10, ++k)
      text += (std::snprintf(line, sizeof line, "%.3f,%.1f\n", now + i, k % 2 ? 300.0 : 100.0), line);
  }
  testing::write_file(dir.file(name), text);
  return dir.file(name);
}

// Case 3 (a power log file with a gap): the run falls inside 171 s without readings: its
// energy is unavailable and flagged `gap`, never 80 -> 2400 W interpolated; nothing is priced.
TEST(EnergyPowerLogFileE2E, AGapInTheLogIsUnavailableNeverInterpolated) {
  testing::TempDir dir;
  const std::string log = power_log(dir, "plog_gap.csv", true);
  const ProcessResult r = run_process(args({"--power-log", log, "--price", "0.30"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rec = nlohmann::json::parse(r.out).back();
  const auto& e = rec["energy"];
  EXPECT_TRUE(e["tg"]["energy_j"].is_null()) << e.dump();
  EXPECT_TRUE(e["idle_power_w"].is_null()) << e.dump();
  EXPECT_TRUE(has(e["flags"], "gap")) << e.dump();
  EXPECT_TRUE(rec["cost"].is_null());
}

// Case 3b (a power log file sampled every 10 s): phases shorter than 10 s are flagged coarse.
TEST(EnergyPowerLogFileE2E, ALogCoarserThanThePhasesIsFlagged) {
  testing::TempDir dir;
  const std::string log = power_log(dir, "plog_10s.csv", false);
  const ProcessResult r = run_process(args({"--power-log", log}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto e = nlohmann::json::parse(r.out).back()["energy"];
  EXPECT_TRUE(has(e["flags"], "coarse")) << e.dump();
  bool said = false;
  for (const auto& n : e["notes"])
    said = said || n.get<std::string>().find("updated every 10.000 s") != std::string::npos;
  EXPECT_TRUE(said) << e.dump();
}

// A --power-log that cannot be read or does not parse is refused before anything runs, in one
// line naming the file and what is wrong (exit 1, as a missing --prompts file): it was taken
// silently and left every run without energy, said only in the records' JSON.
TEST(EnergyPowerLogFileE2E, ABadLogIsRefusedBeforeAnythingRuns) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.file("a_dir"));
  testing::write_file(dir.file("foo.csv"), "foo,bar\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.file("missing.csv"), "no such file or directory"},
      {dir.file("a_dir"), "is a directory"},
      {dir.file("foo.csv"), "fewer than 2 samples"},
  };
  for (const auto& [log, why] : cases) {
    const ProcessResult r = run_process(args({"--power-log", log}));
    EXPECT_EQ(r.exit_code, 1) << log << ": " << r.err;
    EXPECT_EQ(r.out, "") << log;  // no run, no record
    const std::string line = "rigbench: error: power log '" + log + "': " + why;
    EXPECT_NE(r.err.find(line), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // serve-bench: the same, before the server is asked anything (none listens on port 1).
  const ProcessResult s = run_process({RIGBENCH_BIN, "serve-bench", "http://127.0.0.1:1", "--energy", "auto",
                                       "--power-log", dir.file("missing.csv"), "--no-db"});
  EXPECT_EQ(s.exit_code, 1) << s.err;
  EXPECT_NE(s.err.find("rigbench: error: power log '" + dir.file("missing.csv") + "': no such file or directory"),
            std::string::npos)
      << s.err;
  // A log without --energy auto would not be read: a usage error, as --idle-watts is.
  const ProcessResult off = run_process(args({"--energy", "off", "--power-log", dir.file("foo.csv")}));
  EXPECT_EQ(off.exit_code, 2) << off.err;
  EXPECT_NE(off.err.find("--power-log needs --energy auto"), std::string::npos) << off.err;
}

// Case 4: bench states idle watts apart from active ones (--idle-watts, the flag cost has);
// idle above active is said, flagged, and gives no negative marginal cost.
TEST(EnergyE2E, IdleWattsStatedApartAndIdleAboveActiveIsFlagged) {
  const ProcessResult ok = run_process(args({"--watts", "65", "--idle-watts", "20", "--price", "0.30"}));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const auto a = nlohmann::json::parse(ok.out).back();
  EXPECT_DOUBLE_EQ(a["energy"]["idle_power_w"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(a["energy"]["idle_s"].get<double>(), 0.0);  // no idle window ran
  EXPECT_TRUE(has(a["energy"]["flags"], "idle_stated"));
  const double n = 64;  // 2 x 32 tokens
  EXPECT_NEAR(a["cost"]["marginal_per_mtok"].get<double>(),
              (65.0 - 20.0) * a["energy"]["tg"]["duration_s"].get<double>() / n * 0.30 / 3.6, 1e-9);

  const ProcessResult bad = run_process(args({"--watts", "50", "--idle-watts", "80", "--price", "0.30"}));
  ASSERT_EQ(bad.exit_code, 0) << bad.err;
  const auto b = nlohmann::json::parse(bad.out).back();
  EXPECT_TRUE(has(b["energy"]["flags"], "idle_above_active")) << b["energy"].dump();
  EXPECT_TRUE(b["cost"]["marginal_per_mtok"].is_null()) << b["cost"].dump();

  const ProcessResult off = run_process(args({"--energy", "off", "--idle-watts", "20"}));
  EXPECT_EQ(off.exit_code, 2);
  EXPECT_NE(off.err.find("--idle-watts needs --energy auto"), std::string::npos) << off.err;

  const ProcessResult cost =
      run_process({RIGBENCH_BIN, "cost", "--tps", "40", "--watts", "50", "--idle-watts", "80", "--price", "0.3"});
  ASSERT_EQ(cost.exit_code, 0) << cost.err;
  EXPECT_NE(cost.out.find("idle 80 W is above active 50 W"), std::string::npos) << cost.out;
}

// Case 6: the record's cost keys do not change with --currency; the currency is a field.
TEST(EnergyE2E, CostKeysAreFixedAndTheCurrencyIsAField) {
  const ProcessResult r = run_process(args({"--watts", "65", "--price", "0.30", "--currency", "USD"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto cost = nlohmann::json::parse(r.out).back()["cost"];
  EXPECT_EQ(cost["currency"], "USD");
  EXPECT_TRUE(cost["gross_per_mtok"].is_number()) << cost.dump();
  EXPECT_FALSE(cost.contains("gross_usd_per_mtok"));
}

}  // namespace
}  // namespace rigbench
