// serve-bench end to end: the real binary against servers on 127.0.0.1 only. A fake
// Ollama-protocol server and a fake OpenAI-protocol server (tests/fakes/fake_llm_server.cpp)
// stream tokens at set times and report set timings; the same timings give the same metrics
// through both protocols. A fault server refuses, answers 500, cuts a stream, sends malformed
// SSE and stalls; each is counted as its kind. (llama-server: serve_llama_server_e2e_test.cpp;
// recorded streams: serve_replay_e2e_test.cpp.)
// No timed assertions: counts, tokens and the server's set figures only.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "report/table.h"
#include "support/background.h"
#include "support/db_query.h"
#include "support/golden.h"
#include "support/serve_e2e.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"


namespace rigbench {
namespace {

using nlohmann::json;
using testing::Background;
using testing::ProcessResult;
using testing::free_port;
using testing::healthy;
using testing::run_process;
using testing::runs_of;
using testing::serve_bench;
using testing::url;
using testing::TempDir;

std::vector<std::string> fake(const std::string& protocol, std::vector<std::string> more = {}) {
  std::vector<std::string> argv = {RIGBENCH_FAKE_LLM_SERVER, "--protocol", protocol, "--port", "0"};
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// Lines of text (stderr has one line per error).
int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(ServeBenchFakeOllamaAndFakeOpenAi, SameSetTimingsGiveTheSameMetricsThroughBothProtocols) {
  const std::vector<std::string> timing = {"--ttft-ms", "30", "--interval-ms", "5"};
  Background ollama(fake("ollama", timing)), openai(fake("openai", timing));
  const int po = ollama.port(), pa = openai.port();
  ASSERT_GT(po, 0) << ollama.err();
  ASSERT_GT(pa, 0) << openai.err();
  const std::vector<std::string> load = {"--concurrency", "1,2",    "--num-requests", "6", "-p", "16", "-n", "12", "-o",
                                         "json",          "--no-db"};
  std::vector<std::string> a1 = {url(po)}, a2 = {url(pa)};
  a1.insert(a1.end(), load.begin(), load.end());
  a2.insert(a2.end(), load.begin(), load.end());
  const ProcessResult ro = serve_bench(a1), ra = serve_bench(a2);
  ASSERT_EQ(ro.exit_code, 0) << ro.err;
  ASSERT_EQ(ra.exit_code, 0) << ra.err;
  // One model, no price: -o json is the same object as with several priced models, its
  // model_costs null (no per-model table).
  const json whole = json::parse(ro.out, nullptr, false);
  ASSERT_TRUE(whole.is_object()) << ro.out;
  EXPECT_TRUE(whole.contains("model_costs") && whole["model_costs"].is_null()) << ro.out;
  const json jo = runs_of(ro), ja = runs_of(ra);
  ASSERT_EQ(jo.size(), 2u) << ro.out;
  ASSERT_EQ(ja.size(), 2u) << ra.out;
  EXPECT_EQ(jo[0]["api"], "ollama-generate");
  EXPECT_EQ(jo[0]["server_software"], "ollama");
  EXPECT_EQ(jo[0]["server_version"], "0.0.0-fake");
  EXPECT_EQ(jo[0]["model"], "fake:latest");
  EXPECT_EQ(ja[0]["api"], "openai-completions");
  for (std::size_t i = 0; i < 2; ++i) {
    for (const json* j : {&jo[i], &ja[i]}) {
      const json& r = *j;
      EXPECT_EQ(r["concurrency"], i == 0 ? 1 : 2);
      EXPECT_EQ(r["completed"], 6);
      EXPECT_EQ(r["failed"], 0);
      EXPECT_DOUBLE_EQ(r["output_tokens_mean"].get<double>(), 12.0);
      EXPECT_DOUBLE_EQ(r["input_tokens_mean"].get<double>(), 16.0);
      // The server's set timings: 12 tokens over 11 intervals of 5 ms.
      EXPECT_NEAR(r["server_tg_tps"].get<double>(), 1e3 * 12 / 55.0, 1e-6);
      EXPECT_NEAR(r["server_prompt_p50_ms"].get<double>(), 30.0, 1e-9);
      EXPECT_EQ(r["output_short"], 0);
      // The client's own CPU over the counted window: measured (a number, not null) and a share
      // of this machine's cores.
      ASSERT_TRUE(r["client_cpu_pct"].is_number()) << r.dump();
      EXPECT_GE(r["client_cpu_pct"].get<double>(), 0.0);
      EXPECT_LE(r["client_cpu_pct"].get<double>(), 100.0 * std::thread::hardware_concurrency());
      for (const char* k : {"ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "itl_p50_ms", "itl_p95_ms", "e2e_p90_ms"}) {
        EXPECT_TRUE(r[k].is_number()) << k;
      }
    }
    // Identical figures from the two protocols where they are the server's; the client's own
    // come from the same number of tokens.
    EXPECT_EQ(jo[i]["server_tg_tps"], ja[i]["server_tg_tps"]);
    EXPECT_EQ(jo[i]["output_tokens_mean"], ja[i]["output_tokens_mean"]);
    EXPECT_EQ(jo[i]["requests"], ja[i]["requests"]);
  }
}

TEST(ServeBenchFakeOllamaAndFakeOpenAi, ChatApisStreamTheSameTokens) {
  Background ollama(fake("ollama", {"--ttft-ms", "5", "--interval-ms", "1"}));
  Background openai(fake("openai", {"--ttft-ms", "5", "--interval-ms", "1"}));
  ASSERT_GT(ollama.port(), 0);
  ASSERT_GT(openai.port(), 0);
  const ProcessResult ro = serve_bench(
      {url(ollama.port()), "--api", "ollama-chat", "--num-requests", "3", "-n", "7", "-o", "json", "--no-db"});
  const ProcessResult ra = serve_bench(
      {url(openai.port()), "--api", "openai-chat", "--num-requests", "3", "-n", "7", "-o", "json", "--no-db"});
  ASSERT_EQ(ro.exit_code, 0) << ro.err;
  ASSERT_EQ(ra.exit_code, 0) << ra.err;
  EXPECT_EQ(runs_of(ro)[0]["output_tokens_mean"], 7.0);
  EXPECT_EQ(runs_of(ra)[0]["output_tokens_mean"], 7.0);
  EXPECT_EQ(runs_of(ra)[0]["api"], "openai-chat");
}

TEST(ServeBenchFakeOpenAi, AServerThatIgnoresTheLengthIsSaidSo) {
  Background openai(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--tokens", "5"}));
  ASSERT_GT(openai.port(), 0);
  const ProcessResult r = serve_bench({url(openai.port()), "--num-requests", "2", "-n", "9", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("did not honour the output length on 2 of 2 requests (asked 9, got 5.0"), std::string::npos)
      << r.out;
}

TEST(ServeBenchFaultServer, EachFaultIsCountedAsItsKindAndTheRunGoesOn) {
  // Request 0 is the warm-up (ok); then 500, cut, malformed, stall, ok.
  Background faults(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--faults", "ok,500,cut,malformed,stall,ok",
                                    "--stall-ms", "2500"}));
  ASSERT_GT(faults.port(), 0);
  const ProcessResult r = serve_bench(
      {url(faults.port()), "--num-requests", "5", "-n", "8", "--timeout-seconds", "1", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_EQ(run["requests"], 5);
  EXPECT_EQ(run["completed"], 1);
  EXPECT_EQ(run["failed"], 4);
  EXPECT_EQ(run["errors_http_status"], 1);
  EXPECT_EQ(run["errors_cut_mid_stream"], 1);
  EXPECT_EQ(run["errors_malformed_stream"], 1);
  EXPECT_EQ(run["errors_timeout"], 1);
  EXPECT_EQ(run["errors_refused"], 0);
}

TEST(ServeBenchFaultServer, MalformedNdjsonAndACutStreamFromOllamaToo) {
  Background faults(fake("ollama", {"--ttft-ms", "1", "--interval-ms", "1", "--faults", "ok,malformed,cut"}));
  ASSERT_GT(faults.port(), 0);
  const ProcessResult r = serve_bench({url(faults.port()), "--num-requests", "2", "-n", "8", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // every counted request failed
  const json run = runs_of(r).at(0);
  EXPECT_EQ(run["errors_malformed_stream"], 1);
  EXPECT_EQ(run["errors_cut_mid_stream"], 1);
}

TEST(ServeBenchFaultServer, AServerThatGoesAwayIsCountedAsRefused) {
  // Request 2 stops the server: it and every later one find nobody listening.
  Background faults(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--faults", "ok,ok,exit"}));
  ASSERT_GT(faults.port(), 0);
  const ProcessResult r = serve_bench({url(faults.port()), "--num-requests", "4", "-n", "4", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_EQ(run["completed"], 1);
  EXPECT_EQ(run["errors_refused"], 3);
}

// One served run has one tg t/s everywhere: the record's results.tg (its mean, max and min),
// the runs table's tg_avg_tps column, compare's cell and cost's rate are the run's output t/s
// as serve-bench printed it (a ratio of sums), also when a request's tokens came in one burst
// (a TPOT near 0; a mean of per-request 1000 / TPOT stored 71,510 t/s beside "out t/s" 1066).
TEST(ServeBenchFakeOpenAi, OneServedRunHasOneTgRateInTheRecordCompareAndCost) {
  Background server(fake("openai", {"--ttft-ms", "2", "--interval-ms", "2", "--faults", "ok,ok,burst,ok"}));
  ASSERT_GT(server.port(), 0);
  TempDir dir;
  const std::string db = dir.file("e.db");
  const ProcessResult r = serve_bench({url(server.port()), "--concurrency", "1", "--num-requests", "8", "-n", "16",
                                       "-o", "json", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  const double out_tps = run["output_tps"].get<double>();
  ASSERT_GT(out_tps, 0) << run.dump();
  const json rec = json::parse(testing::query_text(db, "SELECT record_json FROM runs"));
  // The burst request's TPOT is near 0 (its tokens came in one write).
  EXPECT_LT(rec["server"]["tpot_min_ms"].get<double>(), 0.5) << rec["server"].dump();
  const json& tg = rec["results"]["tg"];
  EXPECT_EQ(tg["n_tokens"], 16);
  EXPECT_NEAR(tg["avg_tps"].get<double>(), out_tps, out_tps * 1e-6) << tg.dump();
  EXPECT_NEAR(tg["max_tps"].get<double>(), out_tps, out_tps * 1e-6) << tg.dump();
  EXPECT_NEAR(tg["min_tps"].get<double>(), out_tps, out_tps * 1e-6) << tg.dump();
  EXPECT_NEAR(std::stod(testing::query_text(db, "SELECT tg_avg_tps FROM runs")), out_tps, out_tps * 1e-6);
  // compare's cell and cost's rate: the same figure.
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const json cj = json::parse(cmp.out, nullptr, false);
  bool seen = false;
  for (const json& row : cj.value("rows", json::array())) {
    if (row.value("test", "").rfind("tg16 @ c1", 0) != 0) continue;
    for (const json& cell : row["cells"]) {
      if (!cell.contains("mean")) continue;
      EXPECT_NEAR(cell["mean"].get<double>(), out_tps, out_tps * 1e-6) << cmp.out;
      seen = true;
    }
  }
  EXPECT_TRUE(seen) << cmp.out;
  const ProcessResult cost =
      run_process({RIGBENCH_BIN, "cost", "--db", db, "--run", rec["record_id"].get<std::string>(), "--watts", "100",
                   "--price", "0.3", "-o", "json"});
  ASSERT_EQ(cost.exit_code, 0) << cost.err;
  const json cost_j = json::parse(cost.out, nullptr, false);
  EXPECT_NEAR(cost_j["inputs"].value("tokens_per_s", 0.0), out_tps, out_tps * 1e-6) << cost.out;
}

// A server lost mid-run: 5 requests in a row refused end the run and the job, exit 1 with one
// line naming the URL, and the run is stored marked failed with its counts and its finished
// requests (before: the 390 requests left were all sent and refused, exit 0, status ok).
TEST(ServeBenchFaultServer, AServerLostMidRunStopsTheRunStoresItFailedAndExits1) {
  Background faults(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--faults", "ok,ok,ok,exit"}));
  ASSERT_GT(faults.port(), 0);
  TempDir dir;
  const std::string db = dir.file("lost.db");
  const ProcessResult r = serve_bench({url(faults.port()), "--concurrency", "1,2", "--num-requests", "400", "-n", "4",
                                       "-o", "json", "--db", db});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(url(faults.port()) + ": the server was lost (5 requests in a row refused; 2 of "),
            std::string::npos)
      << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;  // the c=2 run was never sent
  EXPECT_EQ(runs[0]["completed"], 2);
  EXPECT_LT(runs[0]["requests"].get<int>(), 20) << runs[0].dump();
  EXPECT_GE(runs[0]["errors_refused"].get<int>(), 5) << runs[0].dump();
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) FROM runs"), 1);
  EXPECT_EQ(testing::query_text(db, "SELECT status FROM runs"), "failed");
  EXPECT_EQ(testing::query_text(db, "SELECT substr(failed, 1, 47) FROM runs"),
            "server lost: 5 requests in a row refused; 2 of ");
  EXPECT_EQ(testing::query_int(db, "SELECT json_extract(record_json, '$.server.completed') FROM runs"), 2);
}

// A server that still accepts connections but answers nothing, pings included, while its
// streams stall (llama-server after SIGTERM can, until it closes its socket) is lost too:
// before, each request waited out --timeout-seconds and the run went on.
TEST(ServeBenchFaultServer, AServerThatHangsWhileItsStreamsStallIsLost) {
  Background faults(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--faults", "ok,ok,ok,freeze",
                                    "--stall-ms", "120000"}));
  ASSERT_GT(faults.port(), 0);
  const ProcessResult r = serve_bench({url(faults.port()), "--num-requests", "40", "-n", "4", "--timeout-seconds",
                                       "100", "-o", "json", "--no-db"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("the server was lost (it stopped answering (3 pings of 2 s unanswered) while 1 requests"),
            std::string::npos)
      << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  EXPECT_EQ(runs[0]["completed"], 2);  // the warm-up took the first ok
  EXPECT_EQ(runs[0]["failed"], 1);     // the stalled one: failed, not dropped
}

// --rate inf (vLLM's spelling; refused before) is the closed loop; --burstiness shapes the open
// loop's gaps and is refused without a rate; --prefix-tokens puts the job's one prefix before
// every prompt; the record says each, and the seed.
TEST(ServeBenchFakeOpenAi, RateInfBurstinessAndASharedPrefix) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0);
  const ProcessResult inf = serve_bench({url(server.port()), "--rate", "inf", "--concurrency", "2", "--num-requests",
                                         "4", "-n", "2", "-o", "json", "--no-db"});
  ASSERT_EQ(inf.exit_code, 0) << inf.err;
  ASSERT_EQ(runs_of(inf).size(), 1u) << inf.out;
  EXPECT_EQ(runs_of(inf)[0]["rate_rps"], "inf");
  EXPECT_EQ(runs_of(inf)[0]["completed"], 4);
  const ProcessResult no_rate = serve_bench({url(server.port()), "--burstiness", "0.5", "--no-db"});
  EXPECT_EQ(no_rate.exit_code, 2);
  EXPECT_NE(no_rate.err.find("--burstiness: shapes --rate's arrival gaps"), std::string::npos) << no_rate.err;
  TempDir dir;
  const ProcessResult r = serve_bench({url(server.port()), "--rate", "50", "--burstiness", "0.5", "--prefix-tokens",
                                       "6", "-p", "4", "--num-requests", "5", "-n", "2", "--seed", "11", "-o", "json",
                                       "--no-db", "--save-responses", dir.file("s.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_DOUBLE_EQ(run["burstiness"].get<double>(), 0.5);
  EXPECT_EQ(run["prefix_tokens"], 6);
  EXPECT_EQ(run["seed"], 11);
  EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), 10.0);  // the fake's /tokenize: one id a word
  std::ifstream saved(dir.file("s.jsonl"));
  std::set<std::vector<int>> prefixes;
  for (std::string line; std::getline(saved, line);) {
    const auto ids = json::parse(line)["prompt_token_ids"].get<std::vector<int>>();
    ASSERT_EQ(ids.size(), 10u);
    prefixes.insert(std::vector<int>(ids.begin(), ids.begin() + 6));
  }
  EXPECT_EQ(prefixes.size(), 1u);
}

// --prefix-share: a quarter of the 8 requests carry the 6-token prefix (10 ids), the others
// their 4 ids alone; the record says the share; without --prefix-tokens it is refused.
TEST(ServeBenchFakeOpenAi, APrefixShareOfTheRequestsCarryTheSharedPrefix) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0);
  TempDir dir;
  const ProcessResult r = serve_bench({url(server.port()), "--prefix-tokens", "6", "--prefix-share", "0.25", "-p",
                                       "4", "--no-warmup", "--num-requests", "8", "-n", "2", "--seed", "3", "-o",
                                       "json", "--no-db", "--save-responses", dir.file("s.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_DOUBLE_EQ(run["prefix_share"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), (2 * 10 + 6 * 4) / 8.0);
  std::ifstream saved(dir.file("s.jsonl"));
  std::map<std::size_t, int> by_length;
  for (std::string line; std::getline(saved, line);) ++by_length[json::parse(line)["prompt_token_ids"].size()];
  EXPECT_EQ(by_length, (std::map<std::size_t, int>{{4, 6}, {10, 2}}));
  const ProcessResult md = serve_bench({url(server.port()), "--prefix-tokens", "6", "--prefix-share", "0.5",
                                        "--num-requests", "2", "-n", "2", "--no-db"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(testing::unwrapped(md.out).find("after a shared 6-token prefix on 50% of the requests"), std::string::npos) << md.out;
  const ProcessResult alone = serve_bench({url(server.port()), "--prefix-share", "0.5", "--no-db"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--prefix-share: the share of requests carrying --prefix-tokens"), std::string::npos)
      << alone.err;
  EXPECT_EQ(count_lines(alone.err), 1) << alone.err;
  const ProcessResult above = serve_bench({url(server.port()), "--prefix-tokens", "6", "--prefix-share", "1.5"});
  EXPECT_EQ(above.exit_code, 2) << above.err;
}

// --trace: each request of the file at its time (x --trace-scale), of its lengths (the fake's
// /tokenize: one id a word, so the prompts are exact); a bad line is named by file:line, exit 2.
TEST(ServeBenchFakeOpenAi, ATraceIsReplayedWithItsLengthsAndABadLineIsNamed) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0);
  TempDir dir;
  const std::string trace = dir.file("t.jsonl");
  testing::write_file(trace,
                      "{\"arrival_s\": 10.0, \"input_tokens\": 3, \"output_tokens\": 2}\n"
                      "{\"arrival_s\": 10.1, \"input_tokens\": 9, \"output_tokens\": 4}\n"
                      "{\"arrival_s\": 10.1, \"input_tokens\": 6, \"output_tokens\": 1}\n"
                      "{\"arrival_s\": 10.2, \"input_tokens\": 2, \"output_tokens\": 5}\n");
  const ProcessResult r = serve_bench({url(server.port()), "--trace", trace, "--trace-scale", "2", "-o", "json",
                                       "--db", dir.file("r.db"), "--save-responses", dir.file("s.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_EQ(run["completed"], 4) << run.dump();
  EXPECT_EQ(run["concurrency"], 64);  // at most 64 in flight without --concurrency
  EXPECT_EQ(run["trace"], trace);
  EXPECT_DOUBLE_EQ(run["trace_scale"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(run["output_tokens_mean"].get<double>(), 3.0);
  EXPECT_EQ(run["output_short"], 0);
  std::multiset<std::size_t> lengths;
  std::ifstream saved(dir.file("s.jsonl"));
  for (std::string line; std::getline(saved, line);) lengths.insert(json::parse(line)["prompt_token_ids"].size());
  EXPECT_EQ(lengths, (std::multiset<std::size_t>{2, 3, 6, 9}));
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("r.db")});
  EXPECT_NE(cmp.out.find("tg3 @ c64 trace " + trace + " x2"), std::string::npos) << cmp.out;

  testing::write_file(dir.file("bad.jsonl"), "{\"arrival_s\": 0, \"input_tokens\": 3, \"output_tokens\": 2}\n"
                                             "{\"arrival_s\": 1, \"input_tokens\": 3}\n");
  const ProcessResult bad = serve_bench({url(server.port()), "--trace", dir.file("bad.jsonl"), "--no-db"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(dir.file("bad.jsonl") + ":2: \"output_tokens\" is not a token count"), std::string::npos)
      << bad.err;
  EXPECT_EQ(count_lines(bad.err), 1) << bad.err;
  for (const std::vector<std::string>& refused :
       {std::vector<std::string>{"--trace", trace, "--rate", "2"}, {"--trace", trace, "--turns", "2"},
        {"--trace-scale", "2"}}) {
    std::vector<std::string> args = {url(server.port()), "--no-db"};
    args.insert(args.end(), refused.begin(), refused.end());
    const ProcessResult no = serve_bench(args);
    EXPECT_EQ(no.exit_code, 2) << no.err;
    EXPECT_EQ(count_lines(no.err), 1) << no.err;
  }
}

// Multi-turn chats: each session's turn re-sends its history, so the prompts grow turn by turn:
// the fake counts a prompt's words (its usage): turn 1 the 4 new words, turn 2 those, the answer
// (3 words) and 4 more: 11, turn 3: 18; a mean of 11 over whole sessions.
TEST(ServeBenchFakeOpenAi, TurnsResendTheHistoryAndThinkTimeIsRefusedWithoutThem) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0);
  const ProcessResult r = serve_bench({url(server.port()), "--turns", "3", "--think-time", "0.05", "--concurrency",
                                       "2", "--num-requests", "6", "-p", "4", "-n", "3", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_EQ(run["completed"], 6) << run.dump();
  EXPECT_EQ(run["turns"], 3);
  EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), 11.0);
  EXPECT_TRUE(run["ttft_later_turns_p50_ms"].is_number()) << run.dump();
  const ProcessResult md = serve_bench({url(server.port()), "--turns", "2", "--num-requests", "2", "-p", "4", "-n",
                                        "2", "--no-db"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("2-turn chats (think time 0.00 s): TTFT p50"), std::string::npos) << md.out;
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--think-time", "1"}, std::vector<std::string>{"--turns", "2", "--rate", "3"}}) {
    std::vector<std::string> args = {url(server.port()), "--no-db"};
    args.insert(args.end(), bad.begin(), bad.end());
    const ProcessResult refused = serve_bench(args);
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_EQ(count_lines(refused.err), 1) << refused.err;
  }
}

TEST(ServeBenchBadInput, UnreachableWrongApiUnknownModelNoStreamOneLineExit1) {
  const int dead = free_port();
  const ProcessResult unreachable = serve_bench({url(dead), "--no-db"});
  EXPECT_EQ(unreachable.exit_code, 1);
  EXPECT_EQ(count_lines(unreachable.err), 1) << unreachable.err;
  EXPECT_NE(unreachable.err.find("rigbench: error: " + url(dead)), std::string::npos) << unreachable.err;

  Background openai(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(openai.port(), 0);
  const ProcessResult wrong_api = serve_bench({url(openai.port()), "--api", "ollama", "--no-db"});
  EXPECT_EQ(wrong_api.exit_code, 1);
  EXPECT_NE(wrong_api.err.find("does not answer the Ollama API"), std::string::npos) << wrong_api.err;
  EXPECT_EQ(count_lines(wrong_api.err), 1) << wrong_api.err;

  const ProcessResult unknown = serve_bench({url(openai.port()), "-m", "llama3", "--no-db"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no model 'llama3' on the server; it has: fake"), std::string::npos) << unknown.err;

  Background nostream(fake("openai", {"--faults", "nostream"}));
  ASSERT_GT(nostream.port(), 0);
  const ProcessResult flat = serve_bench({url(nostream.port()), "--no-db"});
  EXPECT_EQ(flat.exit_code, 1);
  EXPECT_NE(flat.err.find("the server does not stream"), std::string::npos) << flat.err;
  EXPECT_NE(flat.err.find(url(nostream.port())), std::string::npos) << flat.err;
  EXPECT_EQ(count_lines(flat.err), 2) << flat.err;  // the server line, then the error
}

TEST(ServeBenchBadInput, BadFlagsExit2) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"http://127.0.0.1:1", "--concurrency", "0"},
                                               std::vector<std::string>{"http://127.0.0.1:1", "--api", "grpc"},
                                               std::vector<std::string>{"http://127.0.0.1:1", "-o", "out.json"},
                                               std::vector<std::string>{"http://127.0.0.1:1", "--slo", "ttft=5"},
                                               std::vector<std::string>{"ftp://127.0.0.1:1"}}) {
    const ProcessResult r = serve_bench(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
  }
}

// A list with an empty item was read as the list without it (--concurrency 1,,2 ran c=1 and
// c=2), and --rate 0 quietly meant a closed loop: each is now one line naming the flag, exit 2,
// in every subcommand's list flags (bench's -p too).
TEST(ServeBenchBadInput, AnEmptyListItemAndAZeroRateAreRefused) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{RIGBENCH_BIN, "serve-bench", "http://127.0.0.1:1", "--concurrency", "1,,2"},
       "serve-bench: --concurrency '1,,2': an empty item in the list"},
      {{RIGBENCH_BIN, "serve-bench", "http://127.0.0.1:1", "--concurrency=1,"}, "--concurrency '1,': an empty item"},
      {{RIGBENCH_BIN, "serve-bench", "http://127.0.0.1:1", "-m", ",a"}, "-m ',a': an empty item"},
      {{RIGBENCH_BIN, "bench", "-m", "x.gguf", "-p", "1,,2"}, "bench: -p '1,,2': an empty item in the list"},
      {{RIGBENCH_BIN, "serve-bench", "http://127.0.0.1:1", "--rate", "0"}, "--rate"},
  };
  for (const auto& [argv, want] : cases) {
    const ProcessResult r = run_process(argv);
    EXPECT_EQ(r.exit_code, 2) << want << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
  }
  const ProcessResult rate = run_process({RIGBENCH_BIN, "serve-bench", "http://127.0.0.1:1", "--rate", "0"});
  EXPECT_NE(rate.err.find("'0' is out of range"), std::string::npos) << rate.err;
}

TEST(ServeBenchApiKey, A401SaysSoAndTheKeyIsNeverPrintedNorStored) {
  const std::string key = "sk-test-5ecret-k3y";
  Background guarded(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--api-key", key}));
  ASSERT_GT(guarded.port(), 0);
  TempDir dir;
  const std::string db = dir.file("r.db");
  const ProcessResult no_key = serve_bench({url(guarded.port()), "--db", db});
  EXPECT_EQ(no_key.exit_code, 1);
  EXPECT_NE(no_key.err.find("401"), std::string::npos) << no_key.err;
  EXPECT_NE(no_key.err.find("--api-key"), std::string::npos) << no_key.err;

  setenv("OPENAI_API_KEY", key.c_str(), 1);
  const ProcessResult with_key = serve_bench({"http://user:pa55word@127.0.0.1:" + std::to_string(guarded.port()),
                                              "--num-requests", "2", "-n", "4", "--db", db, "--wide", "--progress"});
  unsetenv("OPENAI_API_KEY");
  ASSERT_EQ(with_key.exit_code, 0) << with_key.err;
  const ProcessResult exported = run_process({RIGBENCH_BIN, "export", "--db", db, "-o", "json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  for (const std::string* text : {&with_key.out, &with_key.err, &exported.out}) {
    EXPECT_EQ(text->find(key), std::string::npos);
    EXPECT_EQ(text->find("pa55word"), std::string::npos);
  }
  EXPECT_EQ(testing::read_file(db).find(key), std::string::npos);
  EXPECT_EQ(testing::read_file(db).find("pa55word"), std::string::npos);
  EXPECT_NE(exported.out.find("\"url\": \"" + url(guarded.port()) + "\""), std::string::npos) << exported.out;
}

TEST(ServeBenchInterrupt, CtrlCKeepsAndStoresTheFinishedRequestsExit130) {
  Background slow(fake("ollama", {"--ttft-ms", "1", "--interval-ms", "40"}));
  ASSERT_GT(slow.port(), 0);
  TempDir dir;
  const std::string db = dir.file("r.db");
  bool seen = false;
  const ProcessResult r = testing::run_process_signal_when(
      {RIGBENCH_BIN, "serve-bench", url(slow.port()), "--num-requests", "40", "-n", "20", "--db", db, "--progress"},
      SIGINT, [](const std::string& err) { return err.find("2/40 requests") != std::string::npos; }, seen);
  ASSERT_TRUE(seen) << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) FROM runs"), 1);
  const ProcessResult exported = run_process({RIGBENCH_BIN, "export", "--db", db, "-o", "json"});
  const json rec = json::parse(exported.out, nullptr, false);
  ASSERT_TRUE(rec.is_array() && rec.size() == 1) << exported.out;
  EXPECT_EQ(rec[0]["interrupted"], true);
  // The md table says so under its row (a user found only stderr did).
  EXPECT_NE(r.out.find("c=1: interrupted after " + std::to_string(rec[0]["server"]["requests"].get<int>()) +
                       " requests ended"),
            std::string::npos)
      << r.out;
  EXPECT_GE(rec[0]["server"]["completed"].get<int>(), 2);
  EXPECT_LT(rec[0]["server"]["completed"].get<int>(), 40);
  EXPECT_EQ(rec[0]["server"]["failed"], 0);  // canceled requests are neither results nor failures
}

// Ctrl-C while the first requests are still streaming (none finished): no empty table, no
// "0 runs kept", nothing stored; exit 130.
TEST(ServeBenchInterrupt, CtrlCBeforeAnyRequestFinishedSaysSoAndStoresNothing) {
  Background slow(fake("ollama", {"--ttft-ms", "1", "--interval-ms", "500"}));  // 40 tokens: 20 s a request
  ASSERT_GT(slow.port(), 0);
  TempDir dir;
  const std::string db = dir.file("r.db");
  const std::string log_url = url(slow.port()) + "/fake/log";
  bool seen = false;
  const ProcessResult r = testing::run_process_signal_when(
      {RIGBENCH_BIN, "serve-bench", url(slow.port()), "--num-requests", "4", "--concurrency", "2", "--warmup", "0",
       "-n", "40", "--db", db},
      SIGINT,
      [&](const std::string&) {  // both counted requests have reached the server
        const ProcessResult log = run_process({"/usr/bin/curl", "-s", log_url});
        std::size_t n = 0;
        for (std::size_t at = 0; (at = log.out.find("POST /api/generate", at)) != std::string::npos; ++at) ++n;
        return n >= 2;
      },
      seen);
  ASSERT_TRUE(seen) << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("\nrigbench: interrupted before any request finished: nothing measured, nothing stored\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("runs kept"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");  // no empty table
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) FROM runs"), 0);
}

// --progress/--no-progress mean what they mean for bench, on serve-bench and embed too; and
// serve-bench's --help shows its defaults.
TEST(ServeBenchFlags, ProgressFlagsAsBenchHasThemAndHelpShowsDefaults) {
  for (const char* sub : {"bench", "serve-bench", "embed"}) {
    SCOPED_TRACE(sub);
    const ProcessResult help = run_process({RIGBENCH_BIN, sub, "--help"});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    EXPECT_NE(help.out.find("--progress "), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("--no-progress "), std::string::npos) << help.out;
    const std::string target = std::string(sub) == "serve-bench" ? "http://127.0.0.1:1" : RIGBENCH_TEST_MODEL;
    const ProcessResult both = run_process({RIGBENCH_BIN, sub, target, "--progress", "--no-progress", "--no-db"});
    EXPECT_EQ(both.exit_code, 2) << both.err;
    EXPECT_NE(both.err.find("--progress and --no-progress: give one, not both"), std::string::npos) << both.err;
  }
  const ProcessResult help = run_process({RIGBENCH_BIN, "serve-bench", "--help"});
  // Each number with its range (args.h int_range, range) and its default.
  for (const char* shown : {"--concurrency INT:[1, 100000]=[1]", "--warmup INT:[0, 1000]=1",
                            "-p,--n-prompt INT:[1, 16777216]=128", "-n,--n-gen INT:[1, 16777216]=128",
                            "--timeout-seconds FLOAT:[0.001, 604800]=60",
                            "--seed UINT ", "seed of the random prompts and arrivals (default: a fresh one each invocation"}) {
    EXPECT_NE(help.out.find(shown), std::string::npos) << shown << "\n" << help.out;
  }
}

// A name that does not resolve is said so (not "refused"); a URL ending in /v1 reaches the server.
TEST(ServeBenchFakeOpenAi, UnresolvableHostIsSaidSoAndAV1UrlIsAccepted) {
  const ProcessResult r = serve_bench({"http://no-such-host.invalid:8080", "--no-db"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot connect: the host name 'no-such-host.invalid' does not resolve ("), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("refused"), std::string::npos) << r.err;
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0) << server.err();
  const ProcessResult v1 =
      serve_bench({url(server.port()) + "/v1", "--num-requests", "2", "-n", "2", "--no-db", "-o", "json"});
  ASSERT_EQ(v1.exit_code, 0) << v1.err;
  EXPECT_EQ(runs_of(v1)[0]["completed"], 2);
}

// llama-server's model id is the path it was given: the record names the model as bench names
// that file, keeps the id beside it, and takes --machine as bench does.
TEST(ServeBenchFakeOpenAi, AModelServedByItsPathIsNamedByItsFileAndMachineIsTaken) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--model", "/srv/models/tiny-Q4_0.gguf"}));
  ASSERT_GT(server.port(), 0) << server.err();
  TempDir dir;
  const std::string db = dir.file("r.db");
  const ProcessResult r = serve_bench(
      {url(server.port()), "--num-requests", "2", "-n", "2", "--db", db, "--machine", "rig-serve", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ProcessResult exported = run_process({RIGBENCH_BIN, "export", "--db", db, "-o", "json"});
  const json rec = json::parse(exported.out, nullptr, false);
  ASSERT_TRUE(rec.is_array() && rec.size() == 1) << exported.out;
  EXPECT_EQ(rec[0]["model"]["name"], "tiny-Q4_0");
  EXPECT_EQ(rec[0]["server"]["model_id"], "/srv/models/tiny-Q4_0.gguf");
  EXPECT_EQ(rec[0]["machine"]["hostname"], "rig-serve");
}

TEST(ServeBenchFakeOllama, TheBuiltInPromptSuiteIsAPromptFile) {
  Background server(fake("ollama", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0) << server.err();
  const ProcessResult r = serve_bench(
      {url(server.port()), "--prompts", "builtin", "--num-requests", "3", "--warmup", "0", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  EXPECT_EQ(runs[0]["completed"], 3);
  EXPECT_EQ(runs[0]["output_short"], 0);                        // each prompt's own n_gen asked and streamed
  EXPECT_GT(runs[0]["input_tokens_mean"].get<double>(), 10.0);  // the suite's texts, not -p
}

TEST(ServeBenchFakeOpenAi, EachWorkerOpensItsConnectionBeforeTheCountedRequests) {
  // TTFT holds no TCP handshake nor thread start: every counted request goes on a connection
  // opened (GET /v1/models, or the warm-up) before the first counted request was sent.
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0) << server.err();
  const ProcessResult r = serve_bench({url(server.port()), "--concurrency", "4", "--num-requests", "12", "-n", "3",
                                       "-p", "4", "--no-db", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ProcessResult log = run_process({"/usr/bin/curl", "-s", url(server.port()) + "/fake/log"});
  std::istringstream lines(log.out);
  std::vector<std::string> method, path, port;
  for (std::string m, p, c; lines >> m >> p >> c;) {
    method.push_back(m);
    path.push_back(p);
    port.push_back(c);
  }
  // The warm-up (one POST /v1/completions, through the same client), then 4 pings, each on a
  // new connection, then the 12 counted requests, each on one of those or the warm-up's.
  std::size_t warmup = 0;
  while (warmup < path.size() && path[warmup] != "/v1/completions") ++warmup;
  ASSERT_LT(warmup + 17, path.size() + 1) << log.out;
  std::set<std::string> pinged;
  for (std::size_t i = warmup + 1; i < warmup + 5; ++i) {
    EXPECT_EQ(method[i] + " " + path[i], "GET /v1/models") << log.out;
    EXPECT_NE(port[i], port[warmup]) << log.out;
    pinged.insert(port[i]);
  }
  EXPECT_EQ(pinged.size(), 4u) << log.out;  // four connections, one per worker
  std::set<std::string> opened = pinged;
  opened.insert(port[warmup]);
  for (std::size_t i = warmup + 5; i < path.size(); ++i) {
    EXPECT_EQ(path[i], "/v1/completions") << log.out;
    EXPECT_TRUE(opened.count(port[i])) << "request " << i << " on a new connection:\n" << log.out;
  }
  EXPECT_EQ(path.size() - warmup - 5, 12u) << log.out;
}

TEST(ServeBenchFakeOpenAi, AModelListRunsEachModelOneAfterAnotherWithItsCostPerModel) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--model",
                                    "small,large-model-with-a-name-as-long-as-ollama-tags-get"}));
  ASSERT_GT(server.port(), 0) << server.err();
  const std::string large = "large-model-with-a-name-as-long-as-ollama-tags-get";
  const ProcessResult r = serve_bench({url(server.port()), "-m", "small," + large, "--concurrency", "1,2",
                                       "--num-requests", "2", "-n", "4", "-p", "8", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 4u) << r.out;
  const std::string want_model[] = {"small", "small", large, large};
  const int want_c[] = {1, 2, 1, 2};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(runs[i]["model"], want_model[i]);
    EXPECT_EQ(runs[i]["concurrency"], want_c[i]);
    EXPECT_EQ(runs[i]["completed"], 2);
  }
  // With a stated power and a price: the third study's table, one row per model (cost --per-model).
  const ProcessResult md =
      serve_bench({url(server.port()), "-m", "small," + large, "--num-requests", "2", "-n", "4", "-p", "8", "--no-db",
                   "--energy", "auto", "--watts", "100", "--idle-watts", "40", "--price", "0.30"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  // Several models: the runs' md table names them, each whole on its row (the long one was cut
  // onto continuation rows: "large-model-with", "-a-name-as-long-", ...); a long name widens it.
  const auto header = md.out.rfind('\n', md.out.find("TTFT p50 ms"));
  EXPECT_EQ(md.out.compare(header + 1, 7, "| model"), 0) << md.out;
  EXPECT_NE(md.out.find("\n| " + large + " |"), std::string::npos) << md.out;
  std::istringstream md_lines(md.out);
  for (std::string line; std::getline(md_lines, line);) {
    const auto first = line.find_first_not_of(' ', 1);
    if (!line.empty() && line[0] == '|') EXPECT_NE(line[first], '|') << "a continuation row: " << line;
  }
  EXPECT_NE(md.out.find("J/tok"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("/Mtok"), std::string::npos) << md.out;
  const auto per_model = md.out.find("cost per Mtok");
  ASSERT_NE(per_model, std::string::npos) << md.out;
  EXPECT_NE(md.out.find("small", per_model), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("large-model", per_model), std::string::npos) << md.out;
  // The same table in json ({"runs", "model_costs"}), csv (after a blank line, its own header)
  // and jsonl ({"model_cost": row}): each model's cost per Mtok is its run's own.
  const std::vector<std::string> priced = {url(server.port()), "-m", "small," + large, "--num-requests", "2", "-n",
                                           "4", "-p", "8", "--no-db", "--energy", "auto", "--watts", "100",
                                           "--idle-watts", "40", "--price", "0.30"};
  const auto with = [&](const char* format) {
    std::vector<std::string> args = priced;
    args.insert(args.end(), {"-o", format});
    return serve_bench(args);
  };
  const ProcessResult js = with("json");
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const json both = json::parse(js.out, nullptr, false);
  ASSERT_TRUE(both.is_object()) << js.out;
  ASSERT_EQ(both["runs"].size(), 2u) << js.out;
  const json& mc = both["model_costs"];
  ASSERT_TRUE(mc.is_object()) << js.out;
  EXPECT_EQ(mc["price_per_kwh"], 0.30);
  EXPECT_FALSE(mc["currency"].get<std::string>().empty());
  ASSERT_EQ(mc["models"].size(), 2u) << js.out;
  for (const json& m : mc["models"]) {
    const json* run = nullptr;
    for (const json& r : both["runs"]) {
      if (r["record_id"] == m["record_id"]) run = &r;
    }
    ASSERT_NE(run, nullptr) << m.dump();
    EXPECT_EQ(m["currency"], (*run)["currency"]);
    EXPECT_NEAR(m["active_power_w"].get<double>(), 100.0, 1e-9) << m.dump();
    EXPECT_NEAR(m["idle_power_w"].get<double>(), 40.0, 1e-9) << m.dump();
    EXPECT_NEAR(m["gross_per_mtok"].get<double>(), (*run)["cost_gross_per_mtok"].get<double>(),
                1e-9 * (*run)["cost_gross_per_mtok"].get<double>())
        << m.dump();
    for (const auto& [key, value] : m.items()) EXPECT_EQ(key.find("EUR"), std::string::npos) << key;
  }
  const ProcessResult csv = with("csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const auto blank = csv.out.find("\n\n");
  ASSERT_NE(blank, std::string::npos) << csv.out;
  EXPECT_EQ(count_lines(csv.out.substr(0, blank + 1)), 3) << csv.out;  // the runs: header + 2 rows
  const std::string costs_csv = csv.out.substr(blank + 2);
  EXPECT_EQ(costs_csv.rfind("model,n_params,tg_tps,active_power_w,idle_power_w,gross_j_per_token,gross_per_mtok", 0),
            0u)
      << costs_csv;
  EXPECT_EQ(count_lines(costs_csv), 3) << costs_csv;
  const ProcessResult jsonl = with("jsonl");
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.err;
  std::istringstream jl(jsonl.out);
  int run_lines = 0, cost_lines = 0;
  for (std::string line; std::getline(jl, line);) {
    const json one = json::parse(line, nullptr, false);
    ASSERT_TRUE(one.is_object()) << line;
    if (one.contains("model_cost")) ++cost_lines;
    else ++run_lines;
  }
  EXPECT_EQ(run_lines, 2) << jsonl.out;
  EXPECT_EQ(cost_lines, 2) << jsonl.out;
  // A model of the list that the server lacks: before any run, naming it and what it has.
  const ProcessResult bad = serve_bench({url(server.port()), "-m", "small,huge", "--no-db"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("'huge'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("small, " + large), std::string::npos) << bad.err;
  EXPECT_EQ(count_lines(bad.err), 1) << bad.err;
}

TEST(ServeBenchFakeOpenAi, PromptsAndResponsesAreKeptOnlyWithSaveResponses) {
  const std::string key = "sk-5ecret-in-the-env";
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  Background ollama(fake("ollama", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0) << server.err();
  ASSERT_GT(ollama.port(), 0) << ollama.err();
  TempDir dir;
  const std::string plain = dir.file("plain.db"), db = dir.file("saved.db"), file = dir.file("answers.jsonl");
  // By default: counts and timings only, no text anywhere.
  ASSERT_EQ(serve_bench({url(server.port()), "--num-requests", "2", "-n", "3", "-p", "4", "--db", plain}).exit_code, 0);
  const ProcessResult p = run_process({RIGBENCH_BIN, "export", "--db", plain, "-o", "json"});
  EXPECT_EQ(p.out.find(" tok1"), std::string::npos);
  EXPECT_EQ(testing::read_file(plain).find(" tok1"), std::string::npos);

  setenv("OPENAI_API_KEY", key.c_str(), 1);
  const ProcessResult r = serve_bench({url(server.port()), "--num-requests", "2", "-n", "3", "-p", "4", "--db", db,
                                       "--save-responses", file, "-o", "json"});
  unsetenv("OPENAI_API_KEY");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = testing::read_file(file);
  EXPECT_EQ(text.find(key), std::string::npos);
  EXPECT_EQ(count_lines(text), 2) << text;
  const std::string record_id =
      json::parse(run_process({RIGBENCH_BIN, "export", "--db", db, "-o", "json"}).out, nullptr, false)[0]["record_id"];
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const json one = json::parse(line, nullptr, false);
    ASSERT_TRUE(one.is_object()) << line;
    EXPECT_EQ(one["record_id"], record_id);  // the answers name the stored run they belong to
    EXPECT_EQ(one["model"], "fake");
    EXPECT_EQ(one["response"], " tok0 tok1 tok2");  // the fake's three pieces, joined
    EXPECT_EQ(one["error"], "");
    EXPECT_EQ(one["prompt_token_ids"].size(), 4u) << line;  // the fake has /tokenize: 4 token ids
  }
  // Through Ollama's protocol the prompt is text.
  const ProcessResult o = serve_bench(
      {url(ollama.port()), "--num-requests", "1", "-n", "2", "-p", "3", "--no-db", "--save-responses", file});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json one = json::parse(testing::read_file(file), nullptr, false);
  ASSERT_TRUE(one.is_object());
  EXPECT_EQ(one["response"], " tok0 tok1");
  EXPECT_TRUE(one["prompt"].is_string());
  EXPECT_EQ(count_lines(one["prompt"].get<std::string>() + "\n"), 1);
  // A folder that does not exist is made, as for every file rigbench writes; a path through a
  // file is refused before any request.
  const ProcessResult made = serve_bench({url(ollama.port()), "--num-requests", "1", "-n", "2", "-p", "3", "--no-db",
                                          "--save-responses", dir.file("new/folder/r.jsonl")});
  EXPECT_EQ(made.exit_code, 0) << made.err;
  EXPECT_EQ(count_lines(testing::read_file(dir.file("new/folder/r.jsonl"))), 1);
  testing::write_file(dir.file("plain"), "x");
  const ProcessResult bad = serve_bench({url(server.port()), "--no-db", "--save-responses", dir.file("plain/r.jsonl")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--save-responses '" + dir.file("plain/r.jsonl") + "': not a directory: " + dir.file("plain")),
            std::string::npos)
      << bad.err;
}

TEST(ServeBenchFakeOllamaAndFakeOpenAi, EmbeddingsGiveEmbedsRecordsThroughBothProtocols) {
  TempDir dir;
  const std::string queries = dir.file("q.txt");
  {
    std::ofstream q(queries);
    q << "red apple\ngreen pear tree\nblue sky\nwhat is a vector\nsmall dog runs\nhello\n";
  }
  for (const char* protocol : {"openai", "ollama"}) {
    Background server(fake(protocol, {"--ttft-ms", "2"}));
    ASSERT_GT(server.port(), 0) << server.err();
    const std::string db = dir.file(std::string(protocol) + ".db");
    const ProcessResult r = serve_bench({url(server.port()), "--embeddings", "--queries", queries, "-b", "1,4", "-r",
                                         "2", "--concurrency", "1,2", "-o", "json", "--db", db});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json recs = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(recs.is_array() && recs.size() == 2) << r.out;
    for (std::size_t i = 0; i < 2; ++i) {
      const json& rec = recs[i];
      const json& e = rec["results"]["embedding"];
      EXPECT_EQ(rec["server"]["api"], std::string(protocol) == "ollama" ? "ollama-embed" : "openai-embeddings");
      EXPECT_EQ(rec["server"]["concurrency"], i == 0 ? 1 : 2);
      EXPECT_EQ(rec["server"]["failed"], 0);
      EXPECT_EQ(e["n_queries"], 6);
      EXPECT_EQ(e["n_query_tokens"], 15);                             // the server's usage: the fake's words
      EXPECT_EQ(e["latency"]["samples_ns"].size(), 12u) << e.dump();  // 6 texts x 2 repetitions
      ASSERT_EQ(e["throughput"].size(), 2u);
      EXPECT_EQ(e["throughput"][1]["batch_size"], 4);
      EXPECT_EQ(e["throughput"][1]["samples_ns"].size(), 2u);
    }
    // md: embed's own table, the server's rows labelled "@ cN".
    const ProcessResult md =
        serve_bench({url(server.port()), "--embeddings", "--queries", queries, "-b", "2", "-r", "1", "--no-db"});
    ASSERT_EQ(md.exit_code, 0) << md.err;
    EXPECT_NE(md.out.find("latency b1"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("batch 2"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("@ c1"), std::string::npos) << md.out;
    EXPECT_EQ(run_process({RIGBENCH_BIN, "compare", "--db", db}).exit_code, 0);
  }
  Background openai(fake("openai", {"--ttft-ms", "1"}));
  ASSERT_GT(openai.port(), 0);
  const ProcessResult refused = serve_bench({url(openai.port()), "--embeddings", "--rate", "2", "--no-db"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--rate"), std::string::npos) << refused.err;
}

TEST(ServeBenchFakeOpenAi, EmbeddingsReuseOneConnectionPerWorkerOverEveryPass) {
  // Two workers, three passes of latency and of each batch size: every embeddings request goes
  // on one of two kept-alive connections (a client per pass opened a new one each time, and its
  // first sample held a TCP handshake).
  Background server(fake("openai", {"--ttft-ms", "1"}));
  ASSERT_GT(server.port(), 0) << server.err();
  TempDir dir;
  const std::string queries = dir.file("q.txt");
  {
    std::ofstream q(queries);
    q << "red apple\ngreen pear tree\nblue sky\nwhat is a vector\n";
  }
  const ProcessResult r = serve_bench({url(server.port()), "--embeddings", "--queries", queries, "-b", "1,2", "-r",
                                       "3", "--concurrency", "2", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ProcessResult log = run_process({"/usr/bin/curl", "-s", url(server.port()) + "/fake/log"});
  std::istringstream lines(log.out);
  std::set<std::string> ports;
  int posts = 0;
  for (std::string m, p, c; lines >> m >> p >> c;) {
    if (p != "/v1/embeddings") continue;
    ++posts;
    ports.insert(c);
  }
  EXPECT_EQ(posts, 1 + 12 + 1 + 12 + 1 + 6) << log.out;  // warm-ups, 4 texts x 3 passes, 2 batches x 3 passes
  EXPECT_EQ(ports.size(), 2u) << log.out;
}

TEST(ServeBenchFakeOllamaAndFakeOpenAi, EmbeddingsEnergyWithStatedWattsGivesJoulesPerTokenPerTextAndCost) {
  // A stated 50 W over the loaded window (the counted requests), a stated idle 10 W, 0.30/kWh.
  // The fakes' usage counts words: 15 in the set, embedded twice for latency (-r 2) and twice
  // in batches of 2: 60 input tokens and 24 texts.
  TempDir dir;
  const std::string queries = dir.file("q.txt");
  {
    std::ofstream q(queries);
    q << "red apple\ngreen pear tree\nblue sky\nwhat is a vector\nsmall dog runs\nhello\n";
  }
  for (const char* protocol : {"openai", "ollama"}) {
    Background server(fake(protocol, {"--ttft-ms", "2"}));
    ASSERT_GT(server.port(), 0) << server.err();
    const std::vector<std::string> args = {url(server.port()), "--embeddings", "--queries", queries, "-b", "2", "-r",
                                           "2", "--energy", "auto", "--watts", "50", "--idle-watts", "10",
                                           "--price", "0.30", "--no-db"};
    std::vector<std::string> as_json = args;
    as_json.insert(as_json.end(), {"-o", "json"});
    const ProcessResult r = serve_bench(as_json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json recs = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(recs.is_array() && recs.size() == 1) << r.out;
    const json& e = recs[0]["energy"];
    ASSERT_TRUE(e["pp"].is_object()) << e.dump();
    const json& pp = e["pp"];
    EXPECT_EQ(e["method"], "stated");
    EXPECT_EQ(e["idle_power_w"], 10.0);
    EXPECT_NEAR(pp["power_w"].get<double>(), 50.0, 1e-6) << pp.dump();
    const double joules = pp["energy_j"].get<double>();
    EXPECT_NEAR(joules, 50.0 * pp["duration_s"].get<double>(), 1e-6 * joules) << pp.dump();
    EXPECT_NEAR(pp["j_per_token"].get<double>(), joules / 60, 1e-9 * joules) << pp.dump();
    const json& cost = recs[0]["cost"];
    ASSERT_TRUE(cost.is_object()) << recs[0].dump();
    // gross: J per input token x 10^6 / 3.6e6 J per kWh x 0.30 per kWh
    EXPECT_NEAR(cost["gross_per_mtok"].get<double>(), pp["j_per_token"].get<double>() / 3.6 * 0.30,
                1e-9 * cost["gross_per_mtok"].get<double>())
        << cost.dump();
    // md: the figures under embed's table; J per text / J per input token = 60 tokens / 24 texts.
    ProcessResult md = serve_bench(args);
    ASSERT_EQ(md.exit_code, 0) << md.err;
    for (auto at = md.out.find("\n      "); at != std::string::npos; at = md.out.find("\n      ", at)) {
      md.out.replace(at, md.out.find_first_not_of(' ', at + 1) - at, " ");  // a note's wrapped lines, joined
    }
    const auto per_token = md.out.find(" J per input token, ");
    ASSERT_NE(per_token, std::string::npos) << md.out;
    const auto per_text = md.out.find(" J per text, 50.0 W loaded, 10.0 W idle (stated)");
    ASSERT_NE(per_text, std::string::npos) << md.out;
    const double j_token = std::atof(md.out.c_str() + md.out.rfind(' ', per_token - 1) + 1);
    const double j_text = std::atof(md.out.c_str() + md.out.rfind(' ', per_text - 1) + 1);
    ASSERT_GT(j_token, 0) << md.out;
    EXPECT_NEAR(j_text / j_token, 60.0 / 24, 0.01) << md.out;
    EXPECT_NE(md.out.find(" per Mtok of input at 0.300 "), std::string::npos) << md.out;
  }
}

TEST(ServeBenchFakeOpenAi, SaveResponsesKeepsTheFinishedRunsWhenALaterModelFails) {
  // Requests in order: small's warm-up and its one counted request (ok), then other's warm-up
  // answers 500: the job fails on the second model, and small's answer is still saved and its
  // run printed.
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1", "--model", "small,other", "--faults",
                                    "ok,ok,500,500"}));
  ASSERT_GT(server.port(), 0) << server.err();
  TempDir dir;
  const std::string file = dir.file("answers.jsonl");
  const ProcessResult r = serve_bench({url(server.port()), "-m", "small,other", "--num-requests", "1", "-n", "3", "-p",
                                       "4", "--no-db", "--save-responses", file, "-o", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto error = r.err.find("rigbench: error: ");
  ASSERT_NE(error, std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err.substr(error)), 1) << r.err;  // one error line, the last
  EXPECT_NE(r.err.find("warm-up request failed", error), std::string::npos) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  EXPECT_EQ(runs[0]["model"], "small");
  const std::string text = testing::read_file(file);
  ASSERT_EQ(count_lines(text), 1) << text;
  const json one = json::parse(text, nullptr, false);
  EXPECT_EQ(one["model"], "small");
  EXPECT_EQ(one["response"], " tok0 tok1 tok2");
}

TEST(ServeBenchInterrupt, CtrlCKeepsTheFinishedAnswersInSaveResponses) {
  Background slow(fake("ollama", {"--ttft-ms", "1", "--interval-ms", "40"}));
  ASSERT_GT(slow.port(), 0);
  TempDir dir;
  const std::string file = dir.file("answers.jsonl");
  bool seen = false;
  const ProcessResult r = testing::run_process_signal_when(
      {RIGBENCH_BIN, "serve-bench", url(slow.port()), "--num-requests", "40", "-n", "5", "--no-db", "--progress",
       "--save-responses", file, "-o", "json"},
      SIGINT, [](const std::string& err) { return err.find("2/40 requests") != std::string::npos; }, seen);
  ASSERT_TRUE(seen) << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  const int completed = runs[0]["completed"].get<int>();
  EXPECT_GE(completed, 2);
  const std::string text = testing::read_file(file);
  EXPECT_EQ(count_lines(text), completed) << text;  // each finished answer, none canceled
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(json::parse(line, nullptr, false)["response"], " tok0 tok1 tok2 tok3 tok4") << line;
  }
}


// serve-bench's numbers are refused in the shape every subcommand uses for a bad value (as
// bench's "-r: '0' is out of range [1, 1000000]"), before any server is asked.
TEST(ServeBenchBadInput, ABadNumberIsSaidAsEverySubcommandSaysIt) {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"http://127.0.0.1:1", "--concurrency", "4,0"}, "--concurrency: '0' is out of range [1, 100000]"},
      {{"http://127.0.0.1:1", "--num-requests", "0"}, "--num-requests: '0' is out of range [1, 1000000]"},
      {{"http://127.0.0.1:1", "-n", "1.5"}, "--n-gen: '1.5' is not an integer"},
      {{"http://127.0.0.1:1", "--timeout-seconds", "0"}, "--timeout-seconds: '0' is out of range [0.001, 604800]"},
      {{"http://127.0.0.1:1", "--embeddings", "-b", "0"}, "--batch-size: '0' is out of range [1, 1048576]"},
  };
  for (const auto& c : cases) {
    const ProcessResult r = serve_bench(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
  }
}

// "How many can it serve" where results are compared (#36): a stored capacity sweep's answer
// in compare (md under the answers, json "capacity") and in the report's answers; its runs'
// rows in natural order of their load (c2 before c16).
TEST(ServeBenchFakeOpenAi, ACapacitySweepsAnswerIsInCompareAndTheReport) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0);
  TempDir dir;
  const std::string db = dir.file("r.db");
  const ProcessResult sweep =
      serve_bench({url(server.port()), "--capacity", "concurrency", "--capacity-max", "16", "--slo", "ttft_p95_ms=2000",
                   "--num-requests", "4", "-p", "8", "-n", "4", "--machine", "rig-a", "-o", "json", "--db", db});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const json last = runs_of(sweep).back();
  const std::string answer = last["capacity"].get<std::string>();
  ASSERT_FALSE(answer.empty()) << last.dump();
  const ProcessResult md = run_process({RIGBENCH_BIN, "compare", "--db", db});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  const std::string text = testing::unwrapped(md.out);
  EXPECT_NE(text.find("Capacity (serve-bench --capacity; the latest sweep per machine, model, server and workload):\n"
                      "- rig-a · "),
            std::string::npos)
      << md.out;
  EXPECT_NE(text.find(" · S1: " + answer + "\n"), std::string::npos) << md.out;
  EXPECT_LT(md.out.find("@ c2 · S1 t/s"), md.out.find("@ c16 · S1 t/s")) << md.out;
  const ProcessResult js = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const json doc = json::parse(js.out);
  ASSERT_EQ(doc["capacity"].size(), 1u) << js.out;
  EXPECT_EQ(doc["capacity"][0]["machine"], "rig-a");
  EXPECT_EQ(doc["capacity"][0]["sweep"], "concurrency");
  EXPECT_DOUBLE_EQ(doc["capacity"][0]["capacity"].get<double>(), last["capacity_load"].get<double>());
  EXPECT_EQ(doc["capacity"][0]["answer"], answer);
  const ProcessResult html = run_process({RIGBENCH_BIN, "report", "--db", db, "--output-file", "-"});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(html.out.find("<li>Capacity of rig-a for "), std::string::npos) << html.out.substr(0, 3000);
  // The serve chart marks it (a point at the capacity on its TTFT p99 line), the table gives
  // each run's goodput and verdict.
  const std::string cap = report::shortest(last["capacity_load"].get<double>());
  EXPECT_NE(html.out.find(" · capacity " + cap + " (SLO met)\",\"data\":[{\"x\":"), std::string::npos) << cap;
  EXPECT_NE(html.out.find("\"marker\":true"), std::string::npos);
  EXPECT_NE(html.out.find("<th>good req/s</th><th>SLO</th>"), std::string::npos);
  // A sweep of another workload (chats of 2 turns) is an answer of its own, named by it.
  const ProcessResult chats =
      serve_bench({url(server.port()), "--capacity", "concurrency", "--capacity-max", "4", "--slo", "ttft_p95_ms=2000",
                   "--turns", "2", "--num-requests", "4", "-p", "8", "-n", "4", "--machine", "rig-a", "--db", db});
  ASSERT_EQ(chats.exit_code, 0) << chats.err;
  const ProcessResult both = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  const json two = json::parse(both.out)["capacity"];
  ASSERT_EQ(two.size(), 2u) << both.out;
  std::set<std::string> workloads;
  for (const json& c : two) workloads.insert(c["workload"].get<std::string>());
  EXPECT_EQ(workloads, (std::set<std::string>{"", "turns 2"})) << both.out;
  // The report's serve table gives the chats' later-turn TTFT (prompt cache on against off).
  const ProcessResult chat_html = run_process({RIGBENCH_BIN, "report", "--db", db, "--output-file", "-"});
  ASSERT_EQ(chat_html.exit_code, 0) << chat_html.err;
  EXPECT_NE(chat_html.out.find("<th>later turns TTFT p50 ms</th><th>cached tok</th>"), std::string::npos);
}

// A shared prefix and chat turns decide TTFT through the server's prompt cache: runs of another
// prefix or number of turns are rows of their own in compare, never pooled with plain runs.
TEST(ServeBenchFakeOpenAi, APrefixOrTurnsAreTheirOwnRowsInCompare) {
  Background server(fake("openai", {"--ttft-ms", "1", "--interval-ms", "1"}));
  ASSERT_GT(server.port(), 0);
  TempDir dir;
  const std::string db = dir.file("r.db");
  for (const std::vector<std::string>& workload :
       {std::vector<std::string>{}, {"--prefix-tokens", "32", "--prefix-share", "0.5"}, {"--turns", "2"}}) {
    std::vector<std::string> args = {url(server.port()), "--num-requests", "4", "-p", "8", "-n", "4", "--db", db};
    args.insert(args.end(), workload.begin(), workload.end());
    const ProcessResult r = serve_bench(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const ProcessResult js = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  std::set<std::string> tests;
  const json doc = json::parse(js.out);
  for (const json& row : doc["rows"]) {
    const std::string test = row["test"];
    if (row["metric"] == "tg_tps") tests.insert(test.substr(0, test.find(" llama.cpp")));  // less the server
  }
  EXPECT_EQ(tests, (std::set<std::string>{"tg4 @ c1", "tg4 @ c1 prefix 32 on 50 %", "tg4 @ c1 turns 2"})) << js.out;
}

}  // namespace
}  // namespace rigbench
