// End-to-end tests of `rigbench tune` on the shipped model: real llama.cpp on the CPU, a real
// SQLite file in a temp dir, real signals. Figures are not asserted (the machine is shared):
// the race's shape, the records and the commands are.
#include <gtest/gtest.h>
#include <signal.h>

#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "support/db_query.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::query_int;
using testing::query_text;
using testing::run_process;
using testing::run_process_signal_when;
using testing::TempDir;

std::vector<std::string> tune_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {RIGBENCH_BIN, "tune", RIGBENCH_TEST_MODEL, "-c", "256", "-n", "16"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(TuneE2E, RacesTheGivenListsStoresEveryTrialAndPrintsTheWinnersCommands) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  // 2 x 2 candidates: no screen, rounds of the full test.
  const ProcessResult r =
      run_process(tune_args({"-t", "1,2", "-fa", "on,off", "-ctk", "f16", "-ctv", "f16", "--poll", "50",
                             "--max-time", "60", "--db", db, "-o", "json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["objective"], "tg");
  EXPECT_EQ(j["metric"], "tg16 t/s");
  EXPECT_EQ(j["n_ctx"], 256);
  EXPECT_EQ(j["candidates_total"], 4);
  EXPECT_EQ(j["candidates_raced"], 4);
  EXPECT_EQ(j["varied"], (nlohmann::json{"flash_attn", "n_threads"}));  // in knobs() order
  ASSERT_TRUE(j["winner"].is_object()) << r.out;
  EXPECT_EQ(j["winner"]["rank"], 1);
  EXPECT_GE(j["winner"]["n"].get<int>(), 3);
  EXPECT_GT(j["winner"]["mean"].get<double>(), 0);
  EXPECT_LE(j["winner"]["ci95_low"].get<double>(), j["winner"]["mean"].get<double>());
  const int threads = j["winner"]["settings"]["n_threads"];
  const std::string fa = j["winner"]["settings"]["flash_attn"];
  const std::string server = j["winner"]["commands"]["llama_server"];
  EXPECT_EQ(server.rfind("llama-server -m ", 0), 0u) << server;
  EXPECT_NE(server.find(" -c 256 -np 1 -t " + std::to_string(threads)), std::string::npos) << server;
  EXPECT_NE(server.find(" -fa " + fa), std::string::npos) << server;
  EXPECT_EQ(j["winner"]["commands"]["ollama_parameters"]["num_thread"], std::to_string(threads));
  // Every candidate ran at least the first round; the statuses are the race's words.
  ASSERT_EQ(j["candidates"].size(), 4u);
  int winners = 0;
  for (const auto& c : j["candidates"]) {
    EXPECT_GE(c["n"].get<int>(), 3) << c.dump();
    EXPECT_FALSE(c["screen_only"].get<bool>());
    const std::string status = c["status"];
    EXPECT_TRUE(status == "winner" || status == "slower" || status == "halved" || status == "contender") << status;
    winners += status == "winner";
  }
  EXPECT_EQ(winners, 1);
  // Every trial stored, tagged with the run: as many records as trials, each a tg16 at n_ctx 256.
  const std::string id = j["tune_id"];
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs"), j["trials"].get<int64_t>());
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs WHERE tags LIKE '%tune:" + id + "%'"), j["trials"].get<int64_t>());
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs WHERE n_gen <> 16"), 0);
  EXPECT_EQ(query_text(db, "PRAGMA integrity_check"), "ok");
  EXPECT_NE(r.err.find("trial records stored in " + db), std::string::npos) << r.err;
}

TEST(TuneE2E, MarkdownScreensManyCandidatesAndNamesWhyEachLost) {
  // 2 threads x 2 fa x 2 poll = 8 candidates: a screen at a quarter of the tokens (16 of 64).
  const ProcessResult r = run_process(
      {RIGBENCH_BIN, "tune", RIGBENCH_TEST_MODEL, "-c", "256", "-n", "64", "-t", "1,2", "-fa", "on,off", "--poll",
       "0,50", "-ctk", "f16", "-ctv", "f16", "--max-time", "60", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tune: stories260K, tg64 t/s at n_ctx 256; 8 candidates, 8 raced;"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in the screen"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nwinner: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  llama-server -m "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  llama-bench -m "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  Ollama Modelfile: PARAMETER num_ctx 256;"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* = figures and samples (n*) of the screen round"), std::string::npos) << r.out;
}

TEST(TuneE2E, AModelThatFitsNowhereIsOneLineWithFitsNumbers) {
  // 16 M tokens of KV cache for the shipped model: far beyond this machine's RAM.
  const ProcessResult r = run_process({RIGBENCH_BIN, "tune", RIGBENCH_TEST_MODEL, "-c", "16000000", "-t", "1",
                                       "-fa", "on", "--no-db"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const std::string line = trim(r.err);
  EXPECT_EQ(line.find('\n'), std::string::npos) << r.err;
  EXPECT_EQ(line.rfind("rigbench: error: no configuration fits: model ", 0), 0u) << r.err;
  EXPECT_NE(line.find("will not fit this machine: needs "), std::string::npos) << r.err;
  EXPECT_NE(line.find("GiB usable"), std::string::npos) << r.err;
}

TEST(TuneE2E, SigintStoresTheTrialsSoFarPrintsTheBestAndExits130) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  // Ctrl-C once a trial has ended and the next one loads (its progress lines: a second "load"),
  // not after a fixed time: on a busy machine the first trial may take longer than any.
  const auto second_load = [](const std::string& err) {
    const auto first = err.find("· load");
    return first != std::string::npos && err.find("· load", first + 1) != std::string::npos;
  };
  bool ready = false;
  const ProcessResult r =
      run_process_signal_when(tune_args({"-c", "8192", "-n", "4096", "--max-time", "3600", "-t", "1,2", "-fa", "on,off",
                                         "--poll", "0,50", "-ctk", "f16", "-ctv", "f16", "--db", db, "-o", "json",
                                         "--progress"}),
                              SIGINT, second_load, ready);
  ASSERT_TRUE(ready) << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted: the best so far is printed above"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["end"], "interrupted");
  EXPECT_GE(j["trials"].get<int>(), 1);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs"), j["trials"].get<int64_t>());
  EXPECT_EQ(query_text(db, "PRAGMA integrity_check"), "ok");
  if (j["trials"].get<int>() > 1) EXPECT_TRUE(j["winner"].is_object()) << r.out;
}

TEST(TuneE2E, BadFlagsAreOneLineAndExit2) {
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--objective", "speed"}, "--objective 'speed': expected tg, pp, ttft, balanced or serve"},
           {{"--slo", "ttft_ms=500"}, "--slo is for --objective serve"},
           {{"--objective", "serve", "--slo", "ttft=5"}, "--slo"},
           {{"--objective", "serve", "-c", "256", "-np", "2", "-p", "100", "-n", "64"},
            "-c 256 over -np 2 slots leaves 128 tokens a request, fewer than -p + -n (164)"},
           {{"-c", "64", "-n", "128"}, "-c 64 is smaller than the test needs (128 tokens: -d + the objective's -p and -n)"},
           {{"-fa", "maybe"}, "-fa/--flash-attn"},
           {{"-o", "sql"}, "-o/--output 'sql': unknown format"}}) {
    std::vector<std::string> argv = {RIGBENCH_BIN, "tune", RIGBENCH_TEST_MODEL, "--no-db"};
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessResult r = run_process(argv);
    EXPECT_EQ(r.exit_code, 2) << join(args, " ") << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(trim(r.err).find('\n'), std::string::npos) << r.err;
  }
}

// --objective serve where no llama-server is: one line saying how to build it, exit 1, before
// anything runs.
TEST(TuneE2E, ServeObjectiveWithoutLlamaServerSaysHowToBuildIt) {
  TempDir dir;
  const ProcessResult r = run_process(tune_args({"--objective", "serve", "-p", "16", "--server-bin",
                                                 dir.file("llama-server"), "--no-db"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("llama-server not found at " + dir.file("llama-server") +
                       ": build it from the same sources: RIGBENCH_BUILD_PEERS=ON scripts/setup"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(trim(r.err).find('\n'), std::string::npos) << r.err;
}

// A fake llama-server (a shell script) that refuses to start: each candidate loses with its last
// log line as the reason; no candidate ran, so the answer has no winner and tune exits 1.
TEST(TuneE2E, ServeObjectiveFakeServerThatRefusesIsEachCandidatesReasonToLose) {
  TempDir dir;
  const std::string fake = dir.file("fake-llama-server");
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\necho 'loading the model'\necho \"error: the fake server refuses [$1 $2]\" >&2\nexit 1\n";
  }
  chmod(fake.c_str(), 0755);
  const ProcessResult r = run_process(tune_args({"--objective", "serve", "-p", "16", "-t", "1,2", "-fa", "on", "-ctk",
                                                 "f16", "-ctv", "f16", "--poll", "50", "-ub", "512", "--server-bin",
                                                 fake, "--no-db", "-o", "json"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["winner"].is_null());
  ASSERT_EQ(j["candidates"].size(), 2u);
  for (const auto& c : j["candidates"]) {
    EXPECT_EQ(c["status"], "failed");
    EXPECT_EQ(c["reason"], "failed: refused by llama-server: error: the fake server refuses [-m " +
                               std::string(RIGBENCH_TEST_MODEL) + "]");
  }
  EXPECT_NE(r.err.find("no candidate finished a trial"), std::string::npos) << r.err;
}

#ifdef RIGBENCH_LLAMA_SERVER
// --objective serve against llama-server built from the same sources (found beside rigbench):
// two candidates (-t 1,2), each a server of its own on 127.0.0.1 raced by serve-bench's load at
// -np 2, ranked by goodput under an SLO every request meets here (so goodput is the request rate).
TEST(TuneE2E, ServeObjectiveRacesTwoLlamaServersByGoodputAndStoresEveryLoadRun) {
  TempDir dir;
  const std::string db = dir.file("r.db");
  const std::vector<std::string> load = {"--objective", "serve", "-c", "512", "-np", "2", "-p", "32", "-t", "1,2",
                                         "-fa", "on", "-ctk", "f16", "-ctv", "f16", "--poll", "50", "-ub", "512",
                                         "--slo", "ttft_ms=600000", "--num-requests", "4", "--max-time", "20",
                                         "--db", db, "-o", "json"};
  const ProcessResult r = run_process(tune_args(load));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["objective"], "serve");
  EXPECT_EQ(j["metric"], "goodput req/s (c=2, pp32+tg16, SLO ttft_ms=600000)");
  EXPECT_EQ(j["unit"], "req/s");
  EXPECT_EQ(j["concurrency"], 2);
  EXPECT_EQ(j["num_requests"], 4);
  EXPECT_EQ(j["candidates_raced"], 2);
  ASSERT_TRUE(j["winner"].is_object()) << r.out;
  // The winner is the candidate with the better goodput of the full test, and its commands carry it.
  ASSERT_EQ(j["candidates"].size(), 2u);
  const auto& win = j["candidates"][0];
  const auto& other = j["candidates"][1];
  EXPECT_EQ(win["status"], "winner");
  EXPECT_GE(win["n"].get<int>(), 3);
  EXPECT_GE(other["n"].get<int>(), 3);
  EXPECT_GT(win["mean"].get<double>(), 0);
  EXPECT_GE(win["mean"].get<double>(), other["mean"].get<double>());
  const int threads = j["winner"]["settings"]["n_threads"];
  EXPECT_NE(std::string(j["winner"]["commands"]["llama_server"]).find(" -c 512 -np 2 -t " + std::to_string(threads)),
            std::string::npos);
  // Every load run stored, tagged with the run: a served record at concurrency 2 with the
  // candidate's threads, its goodput the sample (every request met the SLO: goodput = requests/s).
  const std::string id = j["tune_id"];
  const std::string tagged = " FROM runs WHERE tags LIKE '%tune:" + id + "%'";
  const int64_t trials = j["trials"];
  EXPECT_EQ(trials, win["n"].get<int64_t>() + other["n"].get<int64_t>());
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM runs"), trials);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*)" + tagged), trials);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*)" + tagged + " AND json_extract(record_json, '$.server.concurrency') = 2 "
                          "AND json_extract(record_json, '$.server.completed') = 4 AND n_threads IN (1, 2) AND "
                          "json_extract(record_json, '$.server.goodput_rps') = "
                          "json_extract(record_json, '$.server.request_throughput_rps')"),
            trials);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*)" + tagged + " AND n_threads = " + std::to_string(threads)),
            win["n"].get<int64_t>());

}
#endif

}  // namespace
}  // namespace rigbench
