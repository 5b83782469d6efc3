// measure/serve_metrics: per-request TTFT, TPOT, ITL, E2E and the run's percentiles from the
// times the client saw; the same stream timings through the Ollama and OpenAI readers give
// the same metrics (fed byte chunks at set, fake times: nothing here reads a clock).
#include "measure/serve_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace rigbench::measure {
namespace {

// A request whose text pieces arrived at `ttft_s`, then every `itl_s`.
RequestTrace trace(double start_s, double ttft_s, double itl_s, int tokens, int asked) {
  RequestTrace t;
  t.start_s = start_s;
  for (int i = 0; i < tokens; ++i) t.token_s.push_back(start_s + ttft_s + i * itl_s);
  t.end_s = t.token_s.back() + 0.001;
  t.asked_output_tokens = asked;
  return t;
}

TEST(RequestMetrics, TtftTpotItlAndE2eFromArrivalTimes) {
  RequestTrace t = trace(1.0, 0.100, 0.020, 11, 11);
  const RequestMetrics m = request_metrics(t);
  EXPECT_NEAR(m.ttft_ms, 100.0, 1e-9);
  EXPECT_NEAR(m.e2e_ms, 100.0 + 200.0 + 1.0, 1e-9);
  ASSERT_EQ(m.itl_ms.size(), 10u);
  for (double itl : m.itl_ms) EXPECT_NEAR(itl, 20.0, 1e-9);
  EXPECT_NEAR(m.tpot_ms, 201.0 / 10, 1e-9);  // (E2E - TTFT) / (tokens - 1)
  EXPECT_EQ(m.output_tokens, 11);
  EXPECT_FALSE(m.output_from_server);
  t.completion_tokens = 21;  // the server's usage wins over the pieces counted
  EXPECT_EQ(request_metrics(t).output_tokens, 21);
  EXPECT_NEAR(request_metrics(t).tpot_ms, 201.0 / 20, 1e-9);
}

// Without usage, the server's own counts: llama-server's timings.predicted_n for the output
// (a chunk may hold several tokens: 3 pieces, 7 tokens), prompt_n + cache_n for the input;
// with neither, the pieces counted and an unknown input (-1, never 0).
TEST(RequestMetrics, WithoutUsageTheServersTimingsCountTheTokens) {
  RequestTrace t = trace(0.0, 0.100, 0.020, 3, 7);
  RequestMetrics none = request_metrics(t);
  EXPECT_EQ(none.output_tokens, 3);
  EXPECT_FALSE(none.output_from_server);
  EXPECT_EQ(none.input_tokens, -1);
  t.server.predicted_n = 7;
  t.server.prompt_n = 5;
  t.server.cache_n = 4;
  const RequestMetrics m = request_metrics(t);
  EXPECT_EQ(m.output_tokens, 7);
  EXPECT_TRUE(m.output_from_server);
  EXPECT_EQ(m.input_tokens, 9);
  EXPECT_NEAR(m.tpot_ms, (m.e2e_ms - m.ttft_ms) / 6, 1e-9);
  t.server.cache_n = -1;  // a server that states no cache: the tokens it evaluated
  EXPECT_EQ(request_metrics(t).input_tokens, 5);
  t.prompt_tokens = 12;  // usage wins
  t.completion_tokens = 8;
  EXPECT_EQ(request_metrics(t).input_tokens, 12);
  EXPECT_EQ(request_metrics(t).output_tokens, 8);
}

// The client's and the server's generation rates are ratios of sums over the same requests:
// one request whose 10 tokens after the first arrived together (TPOT 0.0001 ms: 1000/TPOT 10
// million t/s) counts for its tokens and its time, so the client's rate stays beside the
// server's instead of the mean of per-request rates (5 million t/s here).
TEST(SummarizeRun, ClientAndServerGenerationRatesAreRatiosOfSums) {
  RequestTrace steady = trace(0.0, 0.100, 0.010, 11, 11);  // 10 tokens over 100 ms (+1 ms to the end)
  steady.server.predicted_n = 11;
  steady.server.predicted_ms = 105.0;
  steady.server.predicted_per_second = 1e3 * 11 / 105.0;
  RequestTrace burst = trace(0.0, 0.100, 1e-7, 11, 11);  // 10 tokens at once, then the end 1 ms later
  burst.end_s = burst.token_s.back();                     // the stream ends with them
  burst.server.predicted_n = 11;
  burst.server.predicted_ms = 105.0;
  burst.server.predicted_per_second = 1e3 * 11 / 105.0;
  const ServeRunMetrics r = summarize_run({steady, burst}, 1.0, {});
  const double client_ms = (100.0 + 1.0) + 10 * 1e-4;  // sum of E2E - TTFT
  EXPECT_NEAR(r.client_tg_tps, 1e3 * 20 / client_ms, 1e-6);
  EXPECT_NEAR(r.server_tg_tps, 1e3 * 22 / 210.0, 1e-9);
  EXPECT_LT(r.client_tg_tps, 2 * r.server_tg_tps);  // the burst no longer dominates
  EXPECT_NEAR(r.tg_tps_diff_pct, 100 * (r.client_tg_tps - r.server_tg_tps) / r.server_tg_tps, 1e-9);
  // A server that states only its rate: its ms are derived from the rate and its tokens.
  RequestTrace rate_only = steady;
  rate_only.server.predicted_ms = std::nan("");
  const ServeRunMetrics q = summarize_run({rate_only}, 1.0, {});
  EXPECT_NEAR(q.server_tg_tps, 1e3 * 11 / 105.0, 1e-9);
  // No server timings: no rates, no difference.
  const ServeRunMetrics none = summarize_run({trace(0.0, 0.1, 0.01, 11, 11)}, 1.0, {});
  EXPECT_TRUE(std::isnan(none.server_tg_tps));
  EXPECT_TRUE(std::isnan(none.client_tg_tps));
}

TEST(SummarizeRun, PercentilesThroughputGoodputAndErrorsByKind) {
  std::vector<RequestTrace> traces;
  for (int i = 0; i < 4; ++i) traces.push_back(trace(0, 0.1 * (i + 1), 0.01, 5, 5));  // TTFT 100..400 ms
  RequestTrace refused;
  refused.error = net::ErrorKind::kRefused;
  refused.error_message = "cannot connect";
  RequestTrace timeout;
  timeout.error = net::ErrorKind::kTimeout;
  RequestTrace canceled;
  canceled.error = net::ErrorKind::kCanceled;
  traces.push_back(refused);
  traces.push_back(timeout);
  traces.push_back(canceled);
  Slo slo = *parse_slo("ttft_ms=250,tpot_ms=50");
  const ServeRunMetrics r = summarize_run(traces, 2.0, slo);
  EXPECT_EQ(r.requests, 6);  // the canceled one is neither
  EXPECT_EQ(r.completed, 4);
  EXPECT_EQ(r.failed, 2);
  EXPECT_EQ(r.errors.at("refused"), 1);
  EXPECT_EQ(r.errors.at("timeout"), 1);
  EXPECT_EQ(r.first_error, "cannot connect");
  // percentile() of {100, 200, 300, 400}: linear interpolation.
  EXPECT_NEAR(r.ttft_ms.median, 250.0, 1e-9);
  EXPECT_NEAR(r.ttft_ms.p90, 370.0, 1e-9);
  EXPECT_NEAR(r.ttft_ms.p99, 397.0, 1e-9);
  EXPECT_EQ(r.itl_ms.n, 16u);
  EXPECT_DOUBLE_EQ(r.request_rate, 2.0);
  EXPECT_DOUBLE_EQ(r.output_tps, 10.0);
  EXPECT_EQ(r.good_requests, 2);  // TTFT 100 and 200 ms
  EXPECT_DOUBLE_EQ(r.goodput, 1.0);
}

TEST(ParseSlo, KeysAndBadValues) {
  const Slo s = *parse_slo("ttft_ms=500, tpot_ms=50");
  EXPECT_EQ(s.ttft_ms, 500);
  EXPECT_EQ(s.tpot_ms, 50);
  EXPECT_TRUE(std::isnan(s.e2e_ms));
  EXPECT_FALSE(parse_slo("").value().any());
  EXPECT_EQ(parse_slo("ttft=5").error().code, ErrorCode::kUsage);
  EXPECT_EQ(parse_slo("ttft_ms=-1").error().code, ErrorCode::kUsage);
}

// The same stream, as each protocol frames it, fed in chunks at the same fake times.
RequestTrace through(net::Api api, const std::vector<std::string>& chunks, const std::vector<double>& at) {
  auto reader = net::make_stream_reader(api);
  RequestTrace t;
  t.asked_output_tokens = 3;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const int n = reader->feed(chunks[i]);
    for (int k = 0; k < n; ++k) t.token_s.push_back(at[i]);
  }
  reader->finish();
  t.end_s = at.back();
  t.error = net::stream_outcome(*reader, t.error_message);
  if (auto c = reader->completion_tokens()) t.completion_tokens = *c;
  if (auto p = reader->prompt_tokens()) t.prompt_tokens = *p;
  t.server = reader->timings();
  return t;
}

TEST(BothProtocols, TheSameTimingsGiveTheSameMetrics) {
  const std::vector<double> at = {0.050, 0.060, 0.070, 0.071};
  const RequestTrace ollama = through(
      net::Api::kOllamaGenerate,
      {"{\"response\":\"a\",\"done\":false}\n", "{\"response\":\"b\",\"done\":false}\n",
       "{\"response\":\"c\",\"done\":false}\n",
       "{\"response\":\"\",\"done\":true,\"prompt_eval_count\":7,\"prompt_eval_duration\":40000000,"
       "\"eval_count\":3,\"eval_duration\":20000000}\n"},
      at);
  const RequestTrace openai = through(
      net::Api::kOpenAiCompletions,
      {"data: {\"choices\":[{\"text\":\"a\"}]}\n\n", "data: {\"choices\":[{\"text\":\"b\"}]}\n\n",
       "data: {\"choices\":[{\"text\":\"c\",\"finish_reason\":\"length\"}]}\n\n",
       "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3},\"timings\":{\"prompt_n\":7,"
       "\"prompt_ms\":40.0,\"predicted_n\":3,\"predicted_ms\":20.0,\"predicted_per_second\":150.0}}\n\ndata: [DONE]\n\n"},
      at);
  ASSERT_EQ(ollama.error, net::ErrorKind::kNone) << ollama.error_message;
  ASSERT_EQ(openai.error, net::ErrorKind::kNone) << openai.error_message;
  const RequestMetrics a = request_metrics(ollama), b = request_metrics(openai);
  EXPECT_DOUBLE_EQ(a.ttft_ms, b.ttft_ms);
  EXPECT_DOUBLE_EQ(a.tpot_ms, b.tpot_ms);
  EXPECT_DOUBLE_EQ(a.e2e_ms, b.e2e_ms);
  EXPECT_EQ(a.itl_ms, b.itl_ms);
  EXPECT_EQ(a.input_tokens, b.input_tokens);
  EXPECT_EQ(a.output_tokens, b.output_tokens);
  EXPECT_DOUBLE_EQ(ollama.server.predicted_per_second, openai.server.predicted_per_second);
  EXPECT_DOUBLE_EQ(ollama.server.prompt_ms, openai.server.prompt_ms);
  const ServeRunMetrics ra = summarize_run({ollama}, 1.0, {}), rb = summarize_run({openai}, 1.0, {});
  EXPECT_DOUBLE_EQ(ra.tg_tps_diff_pct, rb.tg_tps_diff_pct);
}

// A reasoning model: TTFT at its first token (reasoning), the content's first token apart;
// Ollama's load/unload replies are not requests; input unknown stays unknown (not 0).
TEST(SummarizeRun, ContentTtftLoadRepliesAndUnknownInput) {
  RequestTrace reasoning = trace(0.0, 0.020, 0.010, 5, 5);
  reasoning.content_s = 0.100;
  RequestTrace plain = trace(0.0, 0.050, 0.010, 5, 5);
  plain.content_s = plain.token_s.front();
  RequestTrace load;  // done_reason "load": no token, no error
  load.model_event = "load";
  const ServeRunMetrics r = summarize_run({reasoning, plain, load, load}, 1.0, {});
  EXPECT_EQ(r.requests, 2);
  EXPECT_EQ(r.completed, 2);
  EXPECT_EQ(r.failed, 0);
  EXPECT_EQ(r.load_replies, 2);
  ASSERT_EQ(r.ttft_content_ms.n, 2u);
  EXPECT_NEAR(r.ttft_content_ms.min, 50.0, 1e-9);
  EXPECT_NEAR(r.ttft_content_ms.max, 100.0, 1e-9);
  EXPECT_NEAR(r.ttft_ms.min, 20.0, 1e-9);
  // Neither the server nor the client knew the input tokens.
  EXPECT_EQ(r.input_tokens.n, 0u);
  EXPECT_TRUE(std::isnan(r.total_tps));
  EXPECT_NEAR(r.output_tps, 10.0, 1e-9);
  plain.prompt_tokens = 7;
  reasoning.client_input_tokens = 9;
  const ServeRunMetrics known = summarize_run({reasoning, plain}, 1.0, {});
  EXPECT_NEAR(known.total_tps, 7 + 9 + 10, 1e-9);
}

}  // namespace
}  // namespace rigbench::measure
