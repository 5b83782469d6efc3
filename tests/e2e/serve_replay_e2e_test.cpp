// serve-bench end to end against recorded streams (tests/data/streams), replayed at their
// recorded times by the fake server (fake_llm_server --replay, loopback only): a reasoning
// model's stream as vLLM and llama-server send it, Ollama's answer to a cached prompt, and its
// load and unload replies (one object; pretty-printed over several lines). Counts and the
// order of the recorded times only: no timed assertions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/background.h"
#include "support/serve_e2e.h"
#include "support/subprocess.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::Background;
using testing::ProcessResult;
using testing::runs_of;
using testing::serve_bench;
using testing::url;

std::string stream(const std::string& name) { return std::string(RIGBENCH_TEST_DATA) + "/streams/" + name; }

// The fake, speaking `protocol`, answering each request with the next of `recordings`.
Background replay(const std::string& protocol, const std::vector<std::string>& recordings) {
  std::string list;
  for (const auto& r : recordings) list += (list.empty() ? "" : ",") + stream(r);
  return Background({RIGBENCH_FAKE_LLM_SERVER, "--protocol", protocol, "--port", "0", "--replay", list});
}

// Reasoning counts as output and starts TTFT; the first content token is timed too. Before,
// vLLM's delta.reasoning was no piece: 2 output tokens of 5 (no usage), TTFT at the content.
TEST(ServeBenchReplayServer, ReasoningAsVllmAndLlamaServerStreamItCountsAndStartsTtft) {
  for (const char* recording : {"vllm_reasoning_chat.jsonl", "llama_server_reasoning_chat.jsonl"}) {
    SCOPED_TRACE(recording);
    Background server = replay("openai", {recording});
    const int port = server.port();
    ASSERT_GT(port, 0) << server.err();
    const ProcessResult r =
        serve_bench({url(port), "--api", "openai-chat", "--num-requests", "4", "-n", "5", "-o", "json", "--no-db"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json runs = runs_of(r);
    ASSERT_EQ(runs.size(), 1u) << r.out;
    const json& run = runs[0];
    EXPECT_EQ(run["completed"], 4) << run.dump();
    EXPECT_EQ(run["failed"], 0);
    EXPECT_DOUBLE_EQ(run["output_tokens_mean"].get<double>(), 5.0);  // 3 reasoning + 2 content
    EXPECT_EQ(run["output_short"], 0);
    ASSERT_TRUE(run["ttft_content_p50_ms"].is_number()) << run.dump();
    // Recorded: the first reasoning token at 20 ms, the first content token at 100 ms.
    EXPECT_LE(run["ttft_p50_ms"].get<double>(), run["ttft_content_p50_ms"].get<double>());
  }
}

// Ollama's load and unload replies are neither requests nor errors, in either shape; a
// prompt the server took from its cache (no prompt_eval_count) has unknown input, not 0.
TEST(ServeBenchReplayServer, OllamaLoadAndUnloadRepliesAreNotCountedAndACachedPromptHasUnknownInput) {
  Background server =
      replay("ollama", {"ollama_generate_cached.jsonl", "ollama_load.jsonl", "ollama_unload_pretty.jsonl"});
  const int port = server.port();
  ASSERT_GT(port, 0) << server.err();
  // The warm-up takes the first recording; the 6 counted: load, unload, generate, twice.
  const ProcessResult r = serve_bench({url(port), "-m", "fake", "--num-requests", "6", "-n", "3", "-o", "json",
                                       "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  const json& run = runs[0];
  EXPECT_EQ(run["load_replies"], 4) << run.dump();
  EXPECT_EQ(run["requests"], 2);
  EXPECT_EQ(run["completed"], 2);
  EXPECT_EQ(run["failed"], 0) << run["first_error"];
  EXPECT_DOUBLE_EQ(run["output_tokens_mean"].get<double>(), 3.0);  // eval_count
  EXPECT_TRUE(run["input_tokens_mean"].is_null()) << run.dump();
  EXPECT_TRUE(run["total_tps"].is_null()) << run.dump();
  // The table says so.
  const ProcessResult md = serve_bench({url(port), "-m", "fake", "--num-requests", "3", "-n", "3", "--no-db"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("model load/unload replies"), std::string::npos) << md.out;
}

// A stream without usage (llama-server's several tokens a chunk): the output is the server's
// own count (timings.predicted_n 5), not the 2 pieces the client saw; the input its prompt_n 5
// + cache_n 4. Before, 2 output tokens and an unknown input.
TEST(ServeBenchReplayServer, WithoutUsageTheServersOwnCountsGiveTheTokens) {
  Background server = replay("openai", {"llama_server_completions_no_usage.jsonl"});
  const int port = server.port();
  ASSERT_GT(port, 0) << server.err();
  const ProcessResult r = serve_bench({url(port), "--api", "openai-completions", "--num-requests", "3", "-n", "5",
                                       "-o", "json", "--no-db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = runs_of(r);
  ASSERT_EQ(runs.size(), 1u) << r.out;
  const json& run = runs[0];
  EXPECT_EQ(run["completed"], 3) << run.dump();
  EXPECT_DOUBLE_EQ(run["output_tokens_mean"].get<double>(), 5.0);
  EXPECT_EQ(run["output_short"], 0);
  EXPECT_DOUBLE_EQ(run["input_tokens_mean"].get<double>(), 9.0);
  EXPECT_TRUE(run["total_tps"].is_number()) << run.dump();
}

}  // namespace
}  // namespace rigbench
