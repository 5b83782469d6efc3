// serve-bench end to end against llama-server, built from the same llama.cpp sources
// (RIGBENCH_BUILD_PEERS=ON; left out otherwise), on 127.0.0.1: a concurrency sweep 1,2,4 on the
// shipped model (--parallel 4), each step's own prompts, embeddings of a synthetic bge-small,
// a synthetic model served (its
// random tokens once made answers that were not UTF-8, which llama-server's output parser
// refuses), a server stopped with SIGTERM mid-run (lost, as a SIGKILLed one), and a capacity
// sweep on the shipped model. Counts, kinds and the sweep's own consistency: no timed assertions.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/background.h"
#include "support/db_query.h"
#include "support/serve_e2e.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

#ifdef RIGBENCH_LLAMA_SERVER
namespace rigbench {
namespace {

using nlohmann::json;
using testing::Background;
using testing::free_port;
using testing::healthy;
using testing::ProcessResult;
using testing::run_process;
using testing::runs_of;
using testing::serve_bench;
using testing::TempDir;
using testing::url;

std::vector<std::string> llama_server(const std::string& model, int port, std::vector<std::string> more) {
  std::vector<std::string> argv = {RIGBENCH_LLAMA_SERVER, "-m", model, "--host", "127.0.0.1", "--port",
                                   std::to_string(port), "-t", "1", "--no-webui"};
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// `rigbench synth --preset PRESET --quant QUANT --output-file PATH`.
ProcessResult synthetic(const std::string& preset, const std::string& quant, const std::string& path) {
  return run_process({RIGBENCH_BIN, "synth", "--preset", preset, "--quant", quant, "--output-file", path});
}

TEST(ServeBenchLlamaServer, ConcurrencySweep124AgainstTheShippedModel) {
  const int port = free_port();
  Background server(llama_server(RIGBENCH_TEST_MODEL, port, {"--parallel", "4", "-c", "1024"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  TempDir dir;
  const std::string db = dir.file("r.db");
  const ProcessResult r = serve_bench(
      {url(port), "--concurrency", "1,2,4", "--num-requests", "8", "-p", "32", "-n", "16", "-o", "json", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 3u) << r.out;
  for (std::size_t i = 0; i < 3; ++i) {
    const json& run = runs[i];
    const int want_c[] = {1, 2, 4};
    EXPECT_EQ(run["concurrency"], want_c[i]);
    EXPECT_EQ(run["server_software"], "llama.cpp");
    EXPECT_EQ(run["completed"], 8) << run.dump() << "\n" << r.err;  // r.err names each error kind
    EXPECT_EQ(run["failed"], 0);
    EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), 32.0);   // token ids, cut by /tokenize
    EXPECT_DOUBLE_EQ(run["output_tokens_mean"].get<double>(), 16.0);  // ignore_eos honoured
    EXPECT_TRUE(run["server_tg_tps"].is_number());
    for (const char* k :
         {"ttft_p50_ms", "ttft_p90_ms", "ttft_p95_ms", "ttft_p99_ms", "tpot_p99_ms", "itl_p99_ms", "e2e_p99_ms"}) {
      EXPECT_TRUE(run[k].is_number()) << k;
    }
  }
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) FROM runs"), 3);
  // compare keeps the three concurrencies apart.
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", db});
  EXPECT_EQ(cmp.exit_code, 0) << cmp.err;
  // The server is named once, in a legend under the table; the rows carry its tag.
  EXPECT_NE(cmp.out.find("@ c4 · S1"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("@ c1 · S1"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("S1: the server llama.cpp b"), std::string::npos) << cmp.out;
  EXPECT_EQ(cmp.out.find("S2: "), std::string::npos) << cmp.out;
  // llama-server states its build as "b<N>-<40-digit commit>": its rows show the commit as
  // every other place does, 8 digits (a new user saw all 40 there); the record keeps it whole.
  const std::string commit = runs[0]["server_version"].get<std::string>();
  ASSERT_NE(commit.find("-80fb11ac73e6"), std::string::npos) << commit;
  EXPECT_EQ(cmp.out.find("80fb11ac7"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find(commit.substr(0, commit.find('-')) + "-80fb11ac openai-completions"), std::string::npos)
      << cmp.out;
}

// The prompts --save-responses kept, by concurrency: each prompt's token ids.
std::map<int, std::vector<std::vector<int>>> saved_prompts(const std::string& path) {
  std::map<int, std::vector<std::vector<int>>> by_c;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("prompt_token_ids"))
      by_c[j["concurrency"].get<int>()].push_back(j["prompt_token_ids"].get<std::vector<int>>());
  }
  return by_c;
}

// Each concurrency step sends prompts of its own, and so does each invocation unless --seed
// fixes them: a step that re-sent the last one's prompts was answered from llama-server's
// prompt cache (TTFT p50 26.41 ms at c=1, 3.75 ms at c=2, all 16 prompts the same). No c=2
// prompt starts with 8 tokens any c=1 prompt starts with (the prefix the cache would reuse).
TEST(ServeBenchLlamaServer, EachStepAndEachInvocationSendsPromptsOfItsOwn) {
  const int port = free_port();
  Background server(llama_server(RIGBENCH_TEST_MODEL, port, {"--parallel", "2", "-c", "1024"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  TempDir dir;
  const auto run = [&](const std::string& file, std::vector<std::string> more) {
    std::vector<std::string> args = {url(port), "--concurrency", "1,2", "--num-requests", "8", "-p", "32", "-n", "4",
                                     "--no-db", "-o", "json", "--save-responses", dir.file(file)};
    args.insert(args.end(), more.begin(), more.end());
    const ProcessResult r = serve_bench(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return saved_prompts(dir.file(file));
  };
  const auto prefix = [](const std::vector<int>& p) { return std::vector<int>(p.begin(), p.begin() + 8); };
  const auto a = run("a.jsonl", {});
  ASSERT_EQ(a.at(1).size(), 8u);
  ASSERT_EQ(a.at(2).size(), 8u);
  std::set<std::vector<int>> c1;
  for (const auto& p : a.at(1)) {
    ASSERT_EQ(p.size(), 32u);
    c1.insert(prefix(p));
  }
  EXPECT_EQ(c1.size(), 8u);  // no prompt of a step repeats another's start
  for (const auto& p : a.at(2)) EXPECT_EQ(c1.count(prefix(p)), 0u) << "a c=2 prompt starts as a c=1 prompt does";
  // A second invocation: prompts of its own.
  const auto b = run("b.jsonl", {});
  for (const auto& p : b.at(1)) EXPECT_EQ(c1.count(prefix(p)), 0u) << "the second invocation re-sent a prompt";
  // --seed fixes them: the same seed, the same prompts.
  // (as sets: at c=2 the requests end, and are saved, in either order)
  const auto sorted = [](std::map<int, std::vector<std::vector<int>>> m) {
    for (auto& [c, ps] : m) std::sort(ps.begin(), ps.end());
    return m;
  };
  const auto s1 = sorted(run("s1.jsonl", {"--seed", "7"}));
  const auto s2 = sorted(run("s2.jsonl", {"--seed", "7"}));
  ASSERT_EQ(s1.size(), 2u);
  EXPECT_EQ(s1, s2);
}

TEST(ServeBenchLlamaServer, EmbeddingsOfASyntheticBgeSmallThroughV1Embeddings) {
  TempDir dir;
  const std::string model = dir.file("bge-small-en-v1.5-f16.gguf");
  const ProcessResult synth = synthetic("bge-small-en-v1.5", "F16", model);
  ASSERT_EQ(synth.exit_code, 0) << synth.err;
  const int port = free_port();
  Background server(llama_server(model, port, {"--embeddings"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  const std::string queries = dir.file("q.txt");
  {
    std::ofstream q(queries);
    q << "how do I reset my password\nbest hiking trails near a lake\nwhat is a vector database\n";
  }
  const ProcessResult r =
      serve_bench({url(port), "--embeddings", "--queries", queries, "-b", "1,2", "-r", "1", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json recs = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(recs.is_array() && recs.size() == 1) << r.out;
  const json& e = recs[0]["results"]["embedding"];
  EXPECT_EQ(recs[0]["server"]["software"], "llama.cpp");
  EXPECT_EQ(recs[0]["server"]["api"], "openai-embeddings");
  EXPECT_EQ(recs[0]["server"]["failed"], 0) << recs[0]["server"].dump();
  EXPECT_EQ(e["latency"]["samples_ns"].size(), 3u);
  ASSERT_EQ(e["throughput"].size(), 2u);
  EXPECT_GT(e["n_query_tokens"].get<int>(), 3);  // the server's usage: more tokens than texts
}

// Before: "The model produced output that does not match the expected Content-only format"
// ("... peg-native format" on openai-chat) ended the warm-up, as a synthetic SmolLM2's random
// tokens put a byte of a character where none continues it (0xB4 after "IN").
TEST(ServeBenchLlamaServer, ASyntheticSmolLm2IsServedThroughBothOpenAiApis) {
  TempDir dir;
  const std::string model = dir.file("smol.gguf");
  const ProcessResult synth = synthetic("SmolLM2-135M", "Q8_0", model);
  ASSERT_EQ(synth.exit_code, 0) << synth.err;
  EXPECT_NE(synth.out.find("part of a character marked unused"), std::string::npos) << synth.out;
  const int port = free_port();
  Background server(llama_server(model, port, {"-c", "1024", "--parallel", "2"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  for (const char* api : {"openai-completions", "openai-chat"}) {
    SCOPED_TRACE(api);
    const ProcessResult r = serve_bench({url(port), "--api", api, "--concurrency", "2", "--num-requests", "8", "-p",
                                         "16", "-n", "48", "-o", "json", "--no-db"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json runs = runs_of(r);
    ASSERT_EQ(runs.size(), 1u) << r.out;
    EXPECT_EQ(runs[0]["completed"], 8) << runs[0]["first_error"];
    EXPECT_EQ(runs[0]["failed"], 0);
    EXPECT_DOUBLE_EQ(runs[0]["output_tokens_mean"].get<double>(), 48.0);  // the server's usage
  }
}

// A llama-server stopped with SIGTERM stops listening but holds its streams for 30 s: before,
// serve-bench waited them out and exited 0; now it is lost, as a SIGKILLed one.
TEST(ServeBenchLlamaServer, AServerStoppedWithSigtermMidRunIsLost) {
  const int port = free_port();
  Background server(llama_server(RIGBENCH_TEST_MODEL, port, {"-c", "1024", "--parallel", "2"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  TempDir dir;
  ProcessResult r;
  std::thread bench([&] {
    r = serve_bench({url(port), "--concurrency", "2", "--num-requests", "100000", "--duration-seconds", "120", "-p",
                     "32", "-n", "64", "-o", "json", "--db", dir.file("r.db")});
  });
  // The fault comes once counted requests have ended (the warm-up's and two more "stop
  // processing" lines in the server's log; on a busy machine the warm-up may take seconds).
  const auto ended = [&] {
    const std::string log = server.err();
    int n = 0;
    for (auto at = log.find("stop processing"); at != std::string::npos; at = log.find("stop processing", at + 1)) ++n;
    return n;
  };
  for (int i = 0; i < 1200 && ended() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_GE(ended(), 3) << server.err();  // (the run is stopped either way: the thread is joined)
  server.signal(SIGTERM);
  bench.join();
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // How it is seen lost is the machine's timing: the stall probe refused (streams held open),
  // the next requests refused at once (the SIGTERM came between two requests) or the probe's
  // pings unanswered (a busy machine). Each is the server lost, never a run that ends well.
  EXPECT_NE(r.err.find("the server was lost ("), std::string::npos) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  EXPECT_GT(runs[0]["completed"].get<int>(), 0);
  EXPECT_GE(runs[0]["failed"].get<int>(), 1);  // the stalled streams: failed, not dropped
  EXPECT_EQ(testing::query_int(dir.file("r.db"), "SELECT COUNT(*) FROM runs"), 1);
}

// The capacity sweep on the shipped model at --parallel 4: ramp x2 from 1, each run judged,
// the last one carrying the answer, whose number is the largest load that met the SLO.
TEST(ServeBenchLlamaServer, ACapacitySweepByConcurrencyAnswersInOneLine) {
  const int port = free_port();
  Background server(llama_server(RIGBENCH_TEST_MODEL, port, {"-c", "2048", "--parallel", "4"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  const ProcessResult r =
      serve_bench({url(port), "--capacity", "concurrency", "--capacity-max", "8", "--slo",
                   "ttft_p95_ms=2000,tpot_p95_ms=100", "--num-requests", "8", "-p", "32", "-n", "16", "-o", "json",
                   "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = runs_of(r);
  ASSERT_GE(runs.size(), 1u) << r.out;
  EXPECT_EQ(runs[0]["concurrency"], 1);
  double best = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json& run = runs[i];
    EXPECT_EQ(run["sweep"], "concurrency");
    ASSERT_TRUE(run["slo_met"].is_boolean()) << run.dump();
    if (run["slo_met"].get<bool>()) best = std::max(best, run["concurrency"].get<double>());
    else EXPECT_FALSE(run["slo_miss"].get<std::string>().empty());
    EXPECT_EQ(run["capacity"].is_string() && !run["capacity"].get<std::string>().empty(), i + 1 == runs.size())
        << run.dump();
  }
  const json& last = runs.back();
  EXPECT_DOUBLE_EQ(last["capacity_load"].get<double>(), best);
  const std::string line = last["capacity"].get<std::string>();
  EXPECT_NE(line.find("at TTFT p95 <= 2 s and TPOT p95 <= 100 ms"), std::string::npos) << line;
  // The table says it too.
  const ProcessResult md = serve_bench({url(port), "--capacity", "concurrency", "--capacity-max", "2", "--slo",
                                        "ttft_p95_ms=2000", "--num-requests", "4", "-p", "16", "-n", "8", "--no-db"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("capacity (concurrency sweep, SLO ttft_p95_ms=2000): serves"), std::string::npos) << md.out;
}

// bench and serve-bench of the shipped model: llama-server names its file in /props, so the
// served runs carry the file's identity and compare shows both in the same model's rows, with
// the server's overhead over in-process said (before: "stories260K" served, "stories260K F32"
// in-process, two models). Then a trace with a shared prefix on half its requests: each request
// of its lengths (token ids cut by /tokenize), the prefix on 2 of the 4.
TEST(ServeBenchLlamaServer, ServedRunsCarryTheFilesIdentityAndATraceWithAPrefixShareKeepsItsLengths) {
  const int port = free_port();
  Background server(llama_server(RIGBENCH_TEST_MODEL, port, {"--parallel", "2", "-c", "1024"}));
  ASSERT_TRUE(healthy(port)) << server.err();
  TempDir dir;
  const std::string db = dir.file("r.db");
  const ProcessResult bench =
      run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "8", "-r", "2", "-t", "2", "--db", db});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const ProcessResult served =
      serve_bench({url(port), "--num-requests", "4", "-p", "16", "-n", "8", "-o", "json", "--db", db});
  ASSERT_EQ(served.exit_code, 0) << served.err;
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(DISTINCT COALESCE(model_fingerprint, '')) FROM runs"), 1);
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  std::set<std::string> models, tests;
  const json compared = json::parse(cmp.out);
  for (const json& row : compared["rows"]) {
    models.insert(row["model"].get<std::string>());
    tests.insert(row["test"].get<std::string>());
  }
  EXPECT_EQ(models.size(), 1u) << cmp.out;
  EXPECT_TRUE(tests.count("tg8")) << cmp.out;
  const ProcessResult md = run_process({RIGBENCH_BIN, "compare", "--db", db});
  EXPECT_NE(md.out.find("In-process against served"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find(*models.begin() + " on "), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("than in-process"), std::string::npos) << md.out;
  // The same pair in compare -o json (like for like: the decode after the first token) and in
  // the report's section of its own.
  ASSERT_EQ(compared["served_overhead"].size(), 1u) << cmp.out;
  const json& pair = compared["served_overhead"][0];
  EXPECT_EQ(pair["test"], "tg8");
  EXPECT_GT(pair["in_process_tps"].get<double>(), 0);
  EXPECT_GT(pair["served_client_tg_tps"].get<double>(), 0);
  EXPECT_NEAR(pair["decode_overhead_pct"].get<double>(),
              100 * (1 - pair["served_client_tg_tps"].get<double>() / pair["in_process_tps"].get<double>()), 1e-9);
  const ProcessResult html = run_process({RIGBENCH_BIN, "report", "--db", db, "--output-file", "-"});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(html.out.find("<section id=\"served-overhead\"><h2>In-process against served</h2>"), std::string::npos);
  EXPECT_NE(html.out.find("<th>decode overhead %</th>"), std::string::npos);

  const std::string trace = dir.file("t.jsonl");
  testing::write_file(trace,
                      "{\"arrival_s\": 0, \"input_tokens\": 8, \"output_tokens\": 4}\n"
                      "{\"arrival_s\": 0.05, \"input_tokens\": 20, \"output_tokens\": 6}\n"
                      "{\"arrival_s\": 0.1, \"input_tokens\": 12, \"output_tokens\": 2}\n"
                      "{\"arrival_s\": 0.1, \"input_tokens\": 4, \"output_tokens\": 4}\n");
  const ProcessResult r = serve_bench({url(port), "--trace", trace, "--prefix-tokens", "16", "--prefix-share", "0.5",
                                       "--no-warmup", "--concurrency", "2", "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = runs_of(r).at(0);
  EXPECT_EQ(run["completed"], 4) << run.dump() << r.err;
  EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), (8 + 20 + 12 + 4 + 2 * 16) / 4.0);
  EXPECT_DOUBLE_EQ(run["output_tokens_mean"].get<double>(), 4.0);
  EXPECT_EQ(run["output_short"], 0);
}

}  // namespace
}  // namespace rigbench
#endif
