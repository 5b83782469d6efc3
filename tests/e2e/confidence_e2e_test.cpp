// End-to-end: -r auto and -r N as the record keeps them, the bandwidth probe out of the
// measured process (peak RSS on a fresh cache), and the progress line on a pseudo-terminal
// (forkpty), cleared before every table row; a real busy loop beside a run gives it the
// machine_busy note (the quiet side is unit-tested on faked /proc trees: a shared CI host is
// not quiet enough to hold "no note" end to end).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

// Runs `args` with a private cache dir (XDG_CACHE_HOME), so the bandwidth probe runs fresh.
ProcessResult with_cache(const TempDir& cache, const std::vector<std::string>& args) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
  ProcessResult r = run_process(args);
  if (old) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
  return r;
}

// The first bench on a fresh cache probes memory bandwidth (3 arrays of 128 MiB) in a child
// process: the record's peak RSS is the 1 MiB model's run, not the probe's ~393 MiB.
TEST(ConfidenceE2E, FirstBenchOnAFreshCacheProbesOutsideTheMeasuredProcess) {
  TempDir cache;
  const ProcessResult r = with_cache(cache, {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r",
                                             "1", "-t", "1", "--no-db", "--energy", "off", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("probing memory bandwidth in a separate process"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(cache.path() / "rigbench" / "bandwidth.json"));
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  const uint64_t rss = j[0]["memory"]["peak_rss_bytes"].get<uint64_t>();
  EXPECT_GT(rss, 0u);
  EXPECT_LT(rss, 200ull << 20) << "peak RSS " << (rss >> 20) << " MiB: the probe's arrays count in it";
  EXPECT_GT(j[1]["roofline"]["bandwidth_gbps"].get<double>(), 0);  // the child's reading is the bound's
  // The second run reads the cache: no probe.
  const ProcessResult again = with_cache(cache, {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r",
                                                 "1", "-t", "1", "--no-db", "--energy", "off"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("probing"), std::string::npos) << again.err;
}

// -r auto: at least 3 repetitions, the record keeps the rule, the target, why it stopped and
// whether each interval reached it; the interval is beside each throughput.
TEST(ConfidenceE2E, AutoRepetitionsKeepTheIntervalItsTargetAndWhetherItWasReached) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench",   RIGBENCH_TEST_MODEL, "-p",  "16",         "-n",  "4",
                                       "-r",         "auto",    "--ci-target",       "30",  "--max-time", "5",   "-t",
                                       "1",          "--no-db", "--energy",          "off", "-o",         "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  for (const auto& rec : j) {
    const auto& p = rec["precision"];
    EXPECT_EQ(p["repetitions_mode"], "auto");
    EXPECT_EQ(p["ci_target_pct"], 30);
    EXPECT_EQ(p["max_time_s"], 5);
    EXPECT_EQ(p["ci_level"], 0.95);
    const auto& res = rec["results"].contains("pp") ? rec["results"]["pp"] : rec["results"]["tg"];
    EXPECT_GE(res["samples_ns"].size(), 3u);
    EXPECT_EQ(rec["params"]["repetitions"], res["samples_ns"].size());
    const double pct = res["ci95_pct"].get<double>();
    EXPECT_LT(res["ci95_low_tps"].get<double>(), res["avg_tps"].get<double>());
    EXPECT_GT(res["ci95_high_tps"].get<double>(), res["avg_tps"].get<double>());
    EXPECT_EQ(p["reached"].get<bool>(), pct <= 30) << pct;
    EXPECT_EQ(p["stopped_by"], p["reached"].get<bool>() ? "target" : "max_time");
    EXPECT_TRUE(rec["noise"].is_array());
  }
}

TEST(ConfidenceE2E, FixedRepetitionsRunExactlyNAndSayHowTightTheyAre) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r", "2",
                                       "-t", "1", "--no-db", "--energy", "off", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rec = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(rec["results"]["tg"]["samples_ns"].size(), 2u);
  EXPECT_EQ(rec["params"]["repetitions"], 2);
  EXPECT_EQ(rec["precision"]["repetitions_mode"], "fixed");
  EXPECT_EQ(rec["precision"]["stopped_by"], "count");
  EXPECT_EQ(rec["precision"]["ci_target_pct"], 2);
  EXPECT_TRUE(rec["precision"]["max_time_s"].is_null());
  const ProcessResult md = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r", "2",
                                        "-t", "1", "--no-db", "--energy", "off"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("95 % interval of the mean t/s: row 1 ±"), std::string::npos) << md.out;
}

// Runs `args` on a pseudo-terminal (stdout and stderr both), as a person at a terminal sees it.
std::string run_on_pty(const std::vector<std::string>& args) {
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;  // EIO once the child has exited
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(master);
  return out;
}

TEST(ConfidenceE2E, ProgressOnATerminalIsClearedBeforeEveryTableRow) {
  const std::string out = run_on_pty({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "3",
                                      "-t", "1", "--no-db", "--energy", "off"});
  ASSERT_NE(out.find("| model"), std::string::npos) << out;
  const std::string clear = "\r\033[K";
  ASSERT_NE(out.find(clear + "run 1/2 · stories260K · pp16"), std::string::npos) << out;
  EXPECT_NE(out.find("pp16 · pp · repetition 3/3"), std::string::npos) << out;
  EXPECT_NE(out.find("tg4 · tg · repetition 1/3"), std::string::npos) << out;
  // Every progress write is a segment after a clear; none runs into a row or a newline, and
  // the last one is cleared too.
  std::size_t at = 0;
  int progress_writes = 0;
  while ((at = out.find(clear, at)) != std::string::npos) {
    at += clear.size();
    const std::size_t next = out.find(clear, at);
    const std::string seg = out.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (seg.rfind("run ", 0) == 0) {
      ++progress_writes;
      EXPECT_EQ(seg.find('|'), std::string::npos) << "a row printed over the progress line: " << seg;
      EXPECT_EQ(seg.find('\n'), std::string::npos) << seg;
      EXPECT_NE(next, std::string::npos) << "the last progress line is never cleared";
    }
  }
  EXPECT_GT(progress_writes, 4);
  // --no-progress: none on the terminal either.
  const std::string quiet = run_on_pty({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1",
                                        "-t", "1", "--no-db", "--energy", "off", "--no-progress"});
  ASSERT_NE(quiet.find("| model"), std::string::npos) << quiet;
  EXPECT_EQ(quiet.find("run 1/2"), std::string::npos) << quiet;
}

TEST(ConfidenceE2E, NoProgressWhenStderrIsNotATerminalUnlessAsked) {
  const ProcessResult plain = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r", "1",
                                           "-t", "1", "--no-db", "--energy", "off"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("run 1/1"), std::string::npos) << plain.err;
  const ProcessResult asked = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "4", "-r", "1",
                                           "-t", "1", "--no-db", "--energy", "off", "--progress"});
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_NE(asked.err.find("rigbench: run 1/1 · stories260K · tg4 · tg · repetition 1/1"), std::string::npos)
      << asked.err;
  EXPECT_EQ(asked.err.find('\r'), std::string::npos);  // lines, not a rewritten one
}

// Real busy loops, one per CPU, beside a 1-thread run: its thread waits for a CPU about a third
// of the time it is ready (2 CPUs), and the record says "machine busy". One thread, because
// ggml's threads spin at each barrier and, beside busy loops, a run with a thread per CPU
// crawls. Each loop is a forked child that ends itself after 60 s (alarm) should the test die
// before killing it. The run is long enough to span many of the scheduler's slices (-n 512: about
// 60 ms a repetition here): at -n 32, 12 ms of repetitions could fall in one slice the busy loops
// left it, and the note was missing in about half the runs on an idle 2-CPU machine.
TEST(ConfidenceE2E, ARealBusyLoopBesideTheRunGivesTheMachineBusyNote) {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  std::vector<pid_t> burners;
  for (unsigned i = 0; i < cpus; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      alarm(60);
      for (volatile unsigned long n = 0;; n = n + 1) {
      }
    }
    burners.push_back(pid);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the loops are on the CPUs
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "512", "-r", "3",
                                       "-t", "1", "--no-db", "--energy", "off", "--no-progress", "-o", "json"});
  for (const pid_t pid : burners) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rec = nlohmann::json::parse(r.out)[0];
  std::string busy;
  for (const auto& n : rec["noise"]) {
    if (n["code"] == "machine_busy") busy = n["note"].get<std::string>();
  }
  ASSERT_FALSE(busy.empty()) << rec["noise"].dump();
  EXPECT_NE(busy.find("waited for a CPU"), std::string::npos) << busy;
}

// Time to an interval (bench/confidence) counts what llama-bench does not pay: before its run,
// bench reads a generative model's vocabulary once (llama.cpp's check that it loads), not a
// second time to ask whether it is an encoder (its header says causal). llama.cpp's log
// (--verbose) prints "vocab_only = 1" for each vocabulary-only load.
TEST(ConfidenceE2E, BenchReadsAGenerativeModelsVocabularyOnceBeforeItsRun) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "0", "-n", "1", "-r", "1",
                                       "-t", "1", "--no-db", "--energy", "off", "--verbose", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t loads = 0, checks = 0;
  for (std::size_t at = 0; (at = r.err.find("vocab_only", at)) != std::string::npos; ++at) {
    const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
    if (line.back() == '1') ++checks;
    else ++loads;
  }
  EXPECT_EQ(checks, 1u) << r.err;
  EXPECT_EQ(loads, 1u) << r.err;
}

}  // namespace
}  // namespace rigbench
