// Noise notes: outliers, a slow first repetition and a high coefficient of variation in set
// samples; a busy machine from a fake /proc tree (stat and loadavg written in a temp dir,
// rewritten between the two readings); the CPU governor and thermal throttling from a fake
// sysfs tree. Each note says what to do.
#include "measure/noise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <thread>

#include "core/noise_note.h"
#include "core/results.h"
#include "fakes/fake_nvml_state.h"
#include "hw/activity.h"
#include "power/nvml_meter.h"
#include "support/temp_dir.h"

namespace rigbench::measure {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::write_file;

// A throughput result from t/s samples (n_tokens 100, durations to match).
ThroughputResult tps(const std::vector<double>& v) {
  std::vector<int64_t> ns;
  for (double x : v) ns.push_back(static_cast<int64_t>(1e9 * 100 / x));
  return make_throughput(100, ns);
}

bool has(const std::vector<NoiseNote>& notes, const std::string& code, const std::string& phase = "*") {
  for (const auto& n : notes) {
    if (n.code == code && (phase == "*" || n.phase == phase)) {
      EXPECT_FALSE(n.remedy.empty()) << code << " says what to do";
      return true;
    }
  }
  return false;
}

TEST(SampleNotes, QuietSamplesHaveNone) {
  Results r;
  r.tg = tps({100, 101, 99, 100, 100.5});
  EXPECT_TRUE(sample_notes(r).empty());
}

TEST(SampleNotes, OutlierFirstRepetitionAndHighCvAreCalledOut) {
  Results r;
  r.pp = tps({40, 100, 101, 99, 100});   // a first repetition far slower than the rest
  r.tg = tps({100, 101, 99, 100, 130});  // one outlier
  const auto notes = sample_notes(r);
  EXPECT_TRUE(has(notes, "first_repetition", "pp"));
  EXPECT_TRUE(has(notes, "outliers", "pp"));
  EXPECT_TRUE(has(notes, "outliers", "tg"));
  EXPECT_TRUE(has(notes, "high_cv", "pp"));
  EXPECT_FALSE(has(notes, "first_repetition", "tg"));
  Results spread;
  spread.tg = tps({100, 120, 80, 110, 90});  // CV 15.8 %, no outlier
  const auto s = sample_notes(spread);
  EXPECT_TRUE(has(s, "high_cv", "tg"));
  EXPECT_FALSE(has(s, "outliers"));
}

// Issue 37: the default run's pp samples 2843.2, 2843.9 and 2815.8 ms (1 % apart) were "1 of 3
// repetitions are statistical outliers": an outlier must also be far in relative terms.
TEST(SampleNotes, ThreeNearEqualSamplesHaveNoOutlier) {
  Results r;
  r.pp = make_throughput(512, {2843200000, 2843900000, 2815800000});
  EXPECT_FALSE(has(sample_notes(r), "outliers", "pp"));
  Results far;
  far.pp = make_throughput(512, {2843200000, 2843900000, 3412000000});  // the third 20 % slow
  const auto notes = sample_notes(far);
  ASSERT_TRUE(has(notes, "outliers", "pp"));
  for (const auto& n : notes) {
    if (n.code == "outliers") EXPECT_NE(n.text.find("and 5 % from the median"), std::string::npos) << n.text;
    // one of them: "is", not "are" (a newcomer read "1 of 4 repetitions are statistical outliers")
    if (n.code == "outliers") EXPECT_EQ(n.text.find("1 of 3 repetitions is a statistical outlier (repetition 3,"), 0u) << n.text;
  }
}

// The phase is a field of the note, never repeated in its text: printed through
// noise_note_text (the one place that writes it), it appears once ("tg: ...", not "tg: tg: ...").
TEST(SampleNotes, TextLeavesThePhaseToItsFieldAndIsPrintedWithItOnce) {
  Results r;
  r.pp = tps({40, 100, 101, 99, 100});
  r.tg = tps({100, 120, 80, 110, 90});
  const auto notes = sample_notes(r);
  ASSERT_FALSE(notes.empty());
  for (const NoiseNote& n : notes) {
    ASSERT_FALSE(n.phase.empty()) << n.code;
    EXPECT_FALSE(n.text.starts_with(n.phase + ":")) << n.text;
    const std::string printed = noise_note_text(n);
    EXPECT_TRUE(printed.starts_with(n.phase + ": " + n.text + "; ")) << printed;
    EXPECT_EQ(printed.find(n.phase + ": " + n.phase + ":"), std::string::npos) << printed;
  }
}

// A machine that slowed down halfway (seen on a shared VM: 42 t/s, then 37): the note names
// the halves and the change; the same values in alternation, or a steady run with one outlier,
// are not drift; fewer than 4 repetitions a half say nothing.
TEST(SampleNotes, ASpeedThatChangedHalfwayIsDriftAndAlternationOrOneOutlierIsNot) {
  auto drift_note = [](std::vector<double> v) {
    Results r;
    r.tg = tps(std::move(v));
    for (const auto& n : sample_notes(r)) {
      if (n.code == "drift") {
        EXPECT_EQ(n.phase, "tg");
        EXPECT_FALSE(n.remedy.empty());
        return n.text;
      }
    }
    return std::string("<none>");
  };
  const std::vector<double> fast = {42.1, 41.8, 42.3, 41.9, 42.0}, slow = {37.2, 36.9, 37.1, 37.3, 36.8};
  std::vector<double> stepped = {42.0};  // the first repetition is left out of both halves
  stepped.insert(stepped.end(), fast.begin(), fast.end());
  stepped.insert(stepped.end(), slow.begin(), slow.end());
  EXPECT_EQ(drift_note(stepped),
            "the speed changed during the run: repetitions 2-6 averaged 42.02 t/s, the last 5 37.06 t/s (-11.8 %, "
            "Welch p = 2e-10): the interval assumes a steady machine");
  std::vector<double> alternating = {42.0};
  for (std::size_t i = 0; i < fast.size(); ++i) alternating.insert(alternating.end(), {fast[i], slow[i]});
  EXPECT_EQ(drift_note(alternating), "<none>");
  EXPECT_EQ(drift_note({42.0, 42.1, 41.8, 42.3, 41.9, 42.0, 42.2, 41.7, 30.0, 42.1}), "<none>");  // one outlier
  EXPECT_EQ(drift_note({42.0, 42.1, 41.8, 42.3, 37.2, 36.9, 37.1}), "<none>");  // 3 a half: too few
  // 4 a half is enough; a change under kDriftPct (here 2 %, under 3 %) is not drift however clear.
  EXPECT_NE(drift_note({42.0, 42.1, 41.8, 42.3, 41.9, 37.2, 36.9, 37.1, 37.3}), "<none>");
  EXPECT_EQ(drift_note({42.0, 42.01, 42.0, 42.02, 42.01, 41.17, 41.16, 41.18, 41.17}), "<none>");
}

// The first repetition's distance from the rest reads as a percentage, or as a factor where
// a percentage would not ("-100 % off" for 0.74 against 3502 t/s under load).
TEST(SampleNotes, FirstRepetitionSaysSlowerOrFasterAndByAFactorWhenFar) {
  auto first_note = [](std::vector<double> v) {
    Results r;
    r.tg = tps(std::move(v));
    for (const auto& n : sample_notes(r)) {
      if (n.code == "first_repetition") return n.text;
    }
    return std::string("<none>");
  };
  EXPECT_EQ(first_note({70, 100, 101, 99, 100}),
            "the first repetition (70.00 t/s) is 30 % slower than the rest's median (100.00 t/s)");
  EXPECT_EQ(first_note({40, 100, 101, 99, 100}),
            "the first repetition (40.00 t/s) is 2.5x slower than the rest's median (100.00 t/s)");
  EXPECT_EQ(first_note({0.74, 3500, 3502, 3504, 3503}),
            "the first repetition (0.74 t/s) is 4733.1x slower than the rest's median (3502.50 t/s)");
  EXPECT_EQ(first_note({300, 100, 101, 99, 100}),
            "the first repetition (300.00 t/s) is 3.0x faster than the rest's median (100.00 t/s)");
}

// Warm-up explains only a slower first repetition: a faster one is never told to raise
// --warmup (nor is a fast outlier), a slower one is.
TEST(SampleNotes, OnlyASlowerFirstRepetitionIsToldToRaiseWarmup) {
  auto remedies = [](std::vector<double> v) {
    Results r;
    r.tg = tps(std::move(v));
    std::string all;
    for (const auto& n : sample_notes(r)) all += n.code + ": " + n.remedy + "\n";
    return all;
  };
  const std::string faster = remedies({300, 100, 101, 99, 100, 100, 101});
  EXPECT_NE(faster.find("first_repetition: the machine slowed after it, which more --warmup does not fix"),
            std::string::npos)
      << faster;
  EXPECT_EQ(faster.find("--warmup helps"), std::string::npos) << faster;
  EXPECT_EQ(faster.find("raise --warmup"), std::string::npos) << faster;
  const std::string slower = remedies({30, 100, 101, 99, 100, 100, 101});
  EXPECT_NE(slower.find("first_repetition: raise --warmup"), std::string::npos) << slower;
  EXPECT_NE(slower.find("outliers: re-run on a quiet machine (close other programs); a larger --warmup helps with "
                        "the slow first one"),
            std::string::npos)
      << slower;
  const std::string late = remedies({100, 101, 99, 100, 30, 100, 101});  // a slow outlier later: not warm-up
  EXPECT_EQ(late.find("--warmup"), std::string::npos) << late;
}

// /proc/stat's cpu line: user nice system idle iowait irq softirq steal, then one line per CPU
// (2 CPUs, as the kernel writes them; only their number is read).
std::string proc_stat(uint64_t user, uint64_t idle, uint64_t steal = 0) {
  return "cpu  " + std::to_string(user) + " 0 0 " + std::to_string(idle) + " 0 0 0 " + std::to_string(steal) +
         " 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\nintr 1\nctxt 5\nprocs_running 1\n";
}

TEST(FakeProcStatTree, BusyMachineFromOtherProcessesCpuTime) {
  TempDir proc;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  write_file(proc.file("loadavg"), "3.50 2.00 1.00 4/300 1234\n");
  const auto before = hw::read_cpu_times(proc.path().string());
  ASSERT_TRUE(before);
  EXPECT_EQ(before->busy, 1000u);
  EXPECT_EQ(before->idle, 5000u);
  // 2 CPUs over 10 s at 100 ticks/s = 2000 ticks: 1600 busy (this process 10 s = 1000), 400 idle.
  write_file(proc.file("stat"), proc_stat(2600, 5400));
  const auto after = hw::read_cpu_times(proc.path().string());
  const auto a = hw::cpu_activity(*before, *after, 10.0, 100);
  EXPECT_DOUBLE_EQ(a.others_pct, 30);  // (1600 - 1000) / 2000
  EXPECT_DOUBLE_EQ(a.own_pct, 50);
  EXPECT_DOUBLE_EQ(a.seconds, 20);
  EXPECT_DOUBLE_EQ(hw::read_load_average(proc.path().string()), 3.5);
  const auto notes = activity_notes(a, 3.5);
  ASSERT_TRUE(has(notes, "machine_busy"));
  EXPECT_NE(notes[0].text.find("30 %"), std::string::npos) << notes[0].text;
  EXPECT_NE(notes[0].text.find("load average 3.50"), std::string::npos) << notes[0].text;
}

TEST(FakeProcStatTree, IdleMachineHasNoNoteAndStealIsItsOwn) {
  TempDir proc;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  const auto before = hw::read_cpu_times(proc.path().string());
  // Only this process ran (1000 ticks), plus 100 ticks of steal out of 2000.
  write_file(proc.file("stat"), proc_stat(2020, 5880, 100));
  const auto a = hw::cpu_activity(*before, *hw::read_cpu_times(proc.path().string()), 10.0, 100);
  EXPECT_NEAR(a.others_pct, 1, 1e-9);
  EXPECT_NEAR(a.steal_pct, 5, 1e-9);
  const auto notes = activity_notes(a, 1.0);
  EXPECT_FALSE(has(notes, "machine_busy"));
  EXPECT_TRUE(has(notes, "steal"));
}

TEST(FakeProcStatTree, MachineWatchReadsTheTreeItIsPointedAt) {
  TempDir proc, sys;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  const MachineWatch watch({proc.path().string(), sys.path().string()});
  // Far more busy ticks than this test process can have used meanwhile.
  write_file(proc.file("stat"), proc_stat(901000, 905000));
  EXPECT_TRUE(has(watch.finish(), "machine_busy"));
  EXPECT_FALSE(has(watch.finish(), "governor"));  // no cpufreq in the tree: nothing said
}

// The quiet 2-core VM of the last stop: a stories260K run of about 30 ms spans 6 ticks of the
// two CPUs, and one tick of a kworker (or of this process, counted by the tick, not by
// getrusage) read as "other processes used 17 %". A window that short says nothing from
// /proc/stat; one of 1 s per CPU and more does.
TEST(FakeProcStatTree, AWindowOfAFewTicksSaysNothing) {
  TempDir proc;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  const auto before = hw::read_cpu_times(proc.path().string());
  ASSERT_TRUE(before);
  EXPECT_EQ(before->cpus, 2);
  write_file(proc.file("stat"), proc_stat(1005, 5001, 0));  // 6 ticks: 5 busy, this process 40 ms
  const auto a = hw::cpu_activity(*before, *hw::read_cpu_times(proc.path().string()), 0.04, 100);
  EXPECT_EQ(a.ticks_per_cpu, 3);
  EXPECT_NEAR(a.others_pct, 100.0 / 6, 1e-9);  // the figure that fired without a burner
  EXPECT_TRUE(activity_notes(a, 1.08).empty());
  // One tick of steal in 6 (17 %) is not steal either.
  write_file(proc.file("stat"), proc_stat(1004, 5001, 1));
  EXPECT_TRUE(
      activity_notes(hw::cpu_activity(*before, *hw::read_cpu_times(proc.path().string()), 0.04, 100), 1.08).empty());
  // About as much (18 %) over 2 s of both CPUs (200 ticks each) is resolved and busy.
  write_file(proc.file("stat"), proc_stat(1340, 5060));
  const auto b = hw::cpu_activity(*before, *hw::read_cpu_times(proc.path().string()), 2.67, 100);
  EXPECT_EQ(b.ticks_per_cpu, 200);
  EXPECT_NEAR(b.others_pct, 18.25, 1e-9);
  EXPECT_TRUE(has(activity_notes(b, 1.08), "machine_busy"));
}

// <proc>/self/task/<tid>/schedstat: "<ns on a CPU> <ns waiting on a run queue> <timeslices>".
void write_sched(const TempDir& proc, int tid, uint64_t run_ns, uint64_t wait_ns) {
  fs::create_directories(proc.path() / "self/task" / std::to_string(tid));
  write_file((proc.path() / "self/task" / std::to_string(tid) / "schedstat").string(),
             std::to_string(run_ns) + " " + std::to_string(wait_ns) + " 42\n");
}

TEST(FakeSchedstatTree, ThreadsWaitFromEveryThreadOfTheProcess) {
  TempDir proc;
  EXPECT_FALSE(hw::read_thread_sched(proc.path().string()));  // no schedstat: unknown, not 0
  write_sched(proc, 100, 1'000'000'000, 10'000'000);
  write_sched(proc, 101, 500'000'000, 0);
  const auto before = hw::read_thread_sched(proc.path().string());
  ASSERT_TRUE(before);
  EXPECT_EQ(before->size(), 2u);
  EXPECT_EQ(before->at(100).wait_ns, 10'000'000u);
  // 100 ran 0.6 s and waited 0.2 s; 101 is gone (not counted); 102 started in the window and
  // ran 0.6 s, waited 0.2 s: 0.4 / 1.6 = 25 %.
  fs::remove_all(proc.path() / "self/task/101");
  write_sched(proc, 100, 1'600'000'000, 210'000'000);
  write_sched(proc, 102, 600'000'000, 200'000'000);
  const auto after = hw::read_thread_sched(proc.path().string());
  EXPECT_DOUBLE_EQ(hw::run_queue_wait_pct(*before, *after), 25);
  EXPECT_TRUE(std::isnan(hw::run_queue_wait_pct(*after, *after)));  // nothing ran: unknown
}

// With schedstat the threshold is the run's threads' wait, exact however short the run: a busy
// loop on each CPU beside a run with a thread per CPU makes them wait about half the time; a
// quiet machine's kworkers a fraction of a percent.
TEST(FakeSchedstatTree, BusyWhenTheRunsThreadsWaitedForACpuNotOtherwise) {
  hw::CpuActivity a;  // a 30 ms run: /proc/stat cannot say
  a.ticks_per_cpu = 3;
  a.others_pct = 100.0 / 6;
  a.wait_pct = 0.4;
  EXPECT_TRUE(activity_notes(a, 1.08).empty());
  a.wait_pct = kBusyWaitPct;  // at the threshold: not above it
  EXPECT_TRUE(activity_notes(a, 1.08).empty());
  a.wait_pct = 48;
  auto notes = activity_notes(a, 2.5);
  ASSERT_TRUE(has(notes, "machine_busy"));
  EXPECT_NE(notes[0].text.find("waited for a CPU 48 % of the time they were ready to run"), std::string::npos)
      << notes[0].text;
  EXPECT_NE(notes[0].text.find("too short"), std::string::npos) << notes[0].text;
  EXPECT_NE(notes[0].text.find("load average 2.50"), std::string::npos) << notes[0].text;
  // A long run with a thread per CPU: it used almost all the CPUs' time, and the little the
  // others had (4 % of all) is what it left free; only its threads' wait can say busy.
  a.ticks_per_cpu = 1000;
  a.own_pct = 95;
  a.others_pct = 4;
  a.wait_pct = 1;
  EXPECT_FALSE(has(activity_notes(a, 7), "machine_busy"));
  a.wait_pct = 20;
  notes = activity_notes(a, 7);
  ASSERT_TRUE(has(notes, "machine_busy"));
  EXPECT_NE(notes[0].text.find("other processes used 4 %"), std::string::npos) << notes[0].text;
  EXPECT_EQ(notes[0].text.find("left free"), std::string::npos) << notes[0].text;
}

// Work on the CPUs a run leaves free waits for none of its threads but shares its memory
// bandwidth and caches: the review's case, a 1-thread run on 2 CPUs beside a build on the
// other one, is busy though schedstat says its thread waited for nothing. The rule: over a
// window of kMinTicksPerCpu ticks per CPU, others used more than kBusyOthersPct of all CPUs'
// time and more than kBusyOthersFreePct of what the run left free.
TEST(FakeSchedstatTree, AOneThreadRunBesideABuildOnTheOtherCpuIsBusyThoughItWaitedForNone) {
  TempDir proc;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  write_sched(proc, 7, 0, 0);
  const auto stat0 = hw::read_cpu_times(proc.path().string());
  const auto sched0 = hw::read_thread_sched(proc.path().string());
  // 10 s of 2 CPUs (2000 ticks): the run's thread 10 s on one (1000 ticks; ran 9.99 s, waited 10 ms), the
  // build 980 ticks on the other, 20 idle.
  write_file(proc.file("stat"), proc_stat(2980, 5020));
  write_sched(proc, 7, 9'990'000'000, 10'000'000);
  auto a = hw::cpu_activity(*stat0, *hw::read_cpu_times(proc.path().string()), 10.0, 100);
  a.wait_pct = hw::run_queue_wait_pct(*sched0, *hw::read_thread_sched(proc.path().string()));
  EXPECT_NEAR(a.wait_pct, 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(a.own_pct, 50);
  EXPECT_DOUBLE_EQ(a.others_pct, 49);
  auto notes = activity_notes(a, 2.0);
  ASSERT_TRUE(has(notes, "machine_busy"));
  EXPECT_NE(notes[0].text.find("other processes used 49 % of the CPUs' time (this one 50 %, load average 2.00) "
                               "during the run; they took 98 % of the CPU time this run left free, and work beside a run "
                               "shares its memory bandwidth and caches"),
            std::string::npos)
      << notes[0].text;
  // Without the build (kworkers, 10 ticks): no note.
  write_file(proc.file("stat"), proc_stat(2010, 5990));
  a = hw::cpu_activity(*stat0, *hw::read_cpu_times(proc.path().string()), 10.0, 100);
  a.wait_pct = 0.1;
  EXPECT_NEAR(a.others_pct, 0.5, 1e-9);
  EXPECT_TRUE(activity_notes(a, 0.3).empty());
  // Either side of 10 % of all (kBusyOthersAllPct: on 2 CPUs it comes before a quarter of the
  // free half, 12.5 %): 9.5 % is not busy, 10.5 % is.
  write_file(proc.file("stat"), proc_stat(2190, 5810));
  a = hw::cpu_activity(*stat0, *hw::read_cpu_times(proc.path().string()), 10.0, 100);
  a.wait_pct = 0.1;
  EXPECT_NEAR(a.others_pct, 9.5, 1e-9);
  EXPECT_FALSE(has(activity_notes(a, 1), "machine_busy"));
  write_file(proc.file("stat"), proc_stat(2210, 5790));
  a = hw::cpu_activity(*stat0, *hw::read_cpu_times(proc.path().string()), 10.0, 100);
  a.wait_pct = 0.1;
  EXPECT_TRUE(has(activity_notes(a, 1), "machine_busy"));
  // The same build over a window too short to resolve shares (3 ticks per CPU): nothing said.
  write_file(proc.file("stat"), proc_stat(1006, 5000));
  a = hw::cpu_activity(*stat0, *hw::read_cpu_times(proc.path().string()), 0.03, 100);
  a.wait_pct = 0.1;
  EXPECT_TRUE(activity_notes(a, 1).empty());
  // A 16-CPU host: a 1-thread run (6.25 %) beside a build on the other CPUs (40 % of all,
  // 43 % of the free 93.75 %) is busy; beside one busy process (one CPU: 6.25 % of all, above
  // the 5 % floor, 6.7 % of the free time, under a quarter) it is not.
  hw::CpuActivity big;
  big.ticks_per_cpu = 1000;
  big.own_pct = 6.25;
  big.wait_pct = 0.2;
  big.others_pct = 40;
  EXPECT_TRUE(has(activity_notes(big, 7), "machine_busy"));
  big.others_pct = 6.25;
  EXPECT_TRUE(activity_notes(big, 1).empty());
  // A GPU run that uses little CPU (2 %) beside a build taking 20 % of all CPUs: 20 % of the
  // free 98 % is under a quarter, but 20 % of all is above kBusyOthersAllPct: busy.
  big.own_pct = 2;
  big.others_pct = 20;
  EXPECT_TRUE(has(activity_notes(big, 4), "machine_busy"));
  big.others_pct = 9;  // under both: a daemon or two beside it
  EXPECT_TRUE(activity_notes(big, 1).empty());
  // A run that uses most of the machine (90 %): 6 % of all is above the 5 % floor and 60 % of
  // the free 10 %: busy; 4.5 % is under the floor: not.
  big.own_pct = 90;
  big.others_pct = 6;
  EXPECT_TRUE(has(activity_notes(big, 2), "machine_busy"));
  big.others_pct = 4.5;
  EXPECT_TRUE(activity_notes(big, 1).empty());
}

// The same through MachineWatch on the fake tree, with schedstat present: far more busy ticks
// than this test process used, none of them its thread's wait.
TEST(FakeSchedstatTree, MachineWatchSeesWorkBesideARunThatWaitedForNone) {
  TempDir proc, sys;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  write_sched(proc, 7, 0, 0);
  const MachineWatch watch({proc.path().string(), sys.path().string()});
  write_sched(proc, 7, 10'000'000'000, 0);
  write_file(proc.file("stat"), proc_stat(2000, 6000));  // 1000 of 2000 ticks busy, this process ~0
  const auto notes = watch.finish();
  ASSERT_TRUE(has(notes, "machine_busy"));
  EXPECT_NE(notes[0].text.find("left free"), std::string::npos) << notes[0].text;
  write_file(proc.file("stat"), proc_stat(1010, 6990));  // 10 of 2000: quiet
  EXPECT_FALSE(has(watch.finish(), "machine_busy"));
}

TEST(FakeSchedstatTree, MachineWatchReadsItsThreadsWait) {
  TempDir proc, sys;
  write_file(proc.file("stat"), proc_stat(1000, 5000));
  write_sched(proc, 7, 1'000'000'000, 0);
  const MachineWatch watch({proc.path().string(), sys.path().string()});
  // A short window (no /proc/stat verdict) in which the thread waited 1 s of 3.
  write_file(proc.file("stat"), proc_stat(1002, 5001));
  write_sched(proc, 7, 3'000'000'000, 1'000'000'000);
  EXPECT_TRUE(has(watch.finish(), "machine_busy"));
  write_sched(proc, 7, 3'000'000'000, 10'000'000);  // 10 ms of 2 s: quiet
  EXPECT_FALSE(has(watch.finish(), "machine_busy"));
  // A user's bug: `bench -t 64` on 2 CPUs was told the machine was busy (stop other programs):
  // its own threads waited for each other. More threads than CPUs: their wait is not read.
  write_sched(proc, 7, 3'000'000'000, 1'000'000'000);
  EXPECT_TRUE(has(watch.finish(2), "machine_busy"));
  EXPECT_FALSE(has(watch.finish(3), "machine_busy"));
  // The CPUs counted are those the process may use (taskset, cpusets), at most /proc/stat's.
  const int allowed = hw::allowed_cpus();
  EXPECT_GE(allowed, 1);
  EXPECT_LE(allowed, static_cast<int>(std::thread::hardware_concurrency()));
}

TEST(FakeSysfsTree, GovernorOtherThanPerformanceIsCalledOut) {
  TempDir sys;
  for (const char* cpu : {"cpu0", "cpu1"}) {
    fs::create_directories(sys.path() / "devices/system/cpu" / cpu / "cpufreq");
  }
  fs::create_directories(sys.path() / "devices/system/cpu/cpufreq");  // not a cpuN directory
  write_file((sys.path() / "devices/system/cpu/cpu0/cpufreq/scaling_governor").string(), "performance\n");
  write_file((sys.path() / "devices/system/cpu/cpu1/cpufreq/scaling_governor").string(), "performance\n");
  EXPECT_EQ(hw::cpu_governors(sys.path().string()), std::vector<std::string>{"performance"});
  EXPECT_TRUE(governor_notes(hw::cpu_governors(sys.path().string())).empty());
  write_file((sys.path() / "devices/system/cpu/cpu1/cpufreq/scaling_governor").string(), "powersave\n");
  const auto notes = governor_notes(hw::cpu_governors(sys.path().string()));
  ASSERT_TRUE(has(notes, "governor"));
  EXPECT_NE(notes[0].text.find("powersave"), std::string::npos);
  EXPECT_NE(notes[0].remedy.find("performance"), std::string::npos);
}

TEST(FakeSysfsTree, ThermalThrottlingFromCountsAndCoolingDevices) {
  TempDir sys;
  fs::create_directories(sys.path() / "devices/system/cpu/cpu0/thermal_throttle");
  const auto count = (sys.path() / "devices/system/cpu/cpu0/thermal_throttle/core_throttle_count").string();
  write_file(count, "7\n");
  const auto before = hw::read_thermal(sys.path().string());
  EXPECT_EQ(before.throttle_count, 7u);
  EXPECT_TRUE(thermal_notes(before, hw::read_thermal(sys.path().string())).empty());
  write_file(count, "9\n");
  EXPECT_TRUE(has(thermal_notes(before, hw::read_thermal(sys.path().string())), "thermal_throttle"));
  // A processor cooling device at a state above 0 (the kernel slowing the CPU), a fan not.
  for (const auto& [dev, type, state] :
       {std::tuple{"cooling_device0", "Fan", "3"}, std::tuple{"cooling_device1", "Processor", "2"}}) {
    fs::create_directories(sys.path() / "class/thermal" / dev);
    write_file((sys.path() / "class/thermal" / dev / "type").string(), std::string(type) + "\n");
    write_file((sys.path() / "class/thermal" / dev / "cur_state").string(), std::string(state) + "\n");
  }
  const auto now = hw::read_thermal(sys.path().string());
  EXPECT_EQ(now.cooling_active, std::vector<std::string>{"cooling_device1"});
}

// NVML's throttle reasons through the fake NVML library: a GPU held down by heat or a power
// cap is called out; one idle (reason bit 0x1) is not.
TEST(FakeNvmlLibrary, GpuThermalSlowdownIsThermalThrottling) {
  testing::FakeNvml nvml;
  nvml.set("count", 2);
  nvml.set("gpu0.name", "Fake GPU A");
  nvml.set("gpu0.throttle_reasons", 0x40 | 0x4);
  nvml.set("gpu1.name", "Fake GPU B");
  nvml.set("gpu1.throttle_reasons", 0x1);
  const auto gpus = power::nvml_throttled_gpus();
  ASSERT_EQ(gpus, std::vector<std::string>{"nvml:gpu0 (Fake GPU A): hw thermal slowdown, sw power cap"});
  const auto notes = thermal_notes({}, {}, gpus);
  ASSERT_TRUE(has(notes, "thermal_throttle"));
  EXPECT_NE(notes[0].text.find("Fake GPU A"), std::string::npos);
  nvml.set("gpu0.throttle_reasons", "unsupported");
  EXPECT_TRUE(power::nvml_throttled_gpus().empty());
}

// A quiet run of stories260K (-r auto, 102 repetitions) flagged its first 13 one by one.
TEST(RepetitionList, RangesAndAtMostSixItems) {
  std::vector<std::size_t> first13;
  for (std::size_t i = 0; i < 13; ++i) first13.push_back(i);
  EXPECT_EQ(repetition_list(first13), "1-13");
  const std::vector<std::size_t> mixed{0, 1, 2, 4, 9, 10};
  EXPECT_EQ(repetition_list(mixed), "1-3, 5, 10-11");
  const std::vector<std::size_t> many{2, 5, 8, 12, 15, 18, 22, 25, 28};
  EXPECT_EQ(repetition_list(many), "3, 6, 9, 13, 16, 19 and 3 more");
  EXPECT_EQ(repetition_list({}), "");
}

}  // namespace
}  // namespace rigbench::measure
