#include "measure/serve_embed.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "core/clock.h"
#include "core/results.h"
#include "measure/embed.h"
#include "net/protocol.h"

namespace rigbench::measure {

namespace {

// One request of `inputs`: its time in ns, the server's prompt tokens (-1 unknown), or why it failed.
struct Call {
  int64_t ns = 0;
  int prompt_tokens = -1;
  net::ErrorKind error = net::ErrorKind::kNone;
  std::string message;
};

Call embed_call(net::HttpClient& client, const ServeEmbedSpec& spec, const std::vector<std::string>& inputs,
                std::size_t expected) {
  Call c;
  const std::string body = net::embedding_body(spec.ollama, spec.model, inputs);
  net::HttpReply reply;
  for (int attempt = 0; attempt < 2; ++attempt) {  // once more when a kept-alive connection was closed
    const int64_t t0 = now_ns();
    reply = client.post(net::embedding_path(spec.ollama), body);
    c.ns = now_ns() - t0;
    if (!reply.stale_connection) break;
  }
  if (!reply.ok()) {
    c.error = reply.error;
    c.message = reply.message;
    if (reply.error == net::ErrorKind::kHttpStatus && !reply.body.empty())
      c.message += ": " + reply.body.substr(0, 160);
    return c;
  }
  auto parsed = net::parse_embedding_reply(spec.ollama, reply.body);
  if (!parsed || static_cast<std::size_t>(parsed->count) != expected || parsed->dimension <= 0) {
    c.error = net::ErrorKind::kMalformed;
    c.message = parsed ? "the answer holds " + std::to_string(parsed->count) + " embeddings for " +
                             std::to_string(expected) + " texts"
                       : parsed.error().message;
    return c;
  }
  if (parsed->prompt_tokens) c.prompt_tokens = *parsed->prompt_tokens;
  return c;
}

}  // namespace

Result<ServeEmbedOutcome> run_serve_embed(const ServeEmbedSpec& spec,
                                          const std::function<void(const std::string&)>& progress) {
  const auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  const auto stopped = [&] { return spec.stop != nullptr && spec.stop->load(); };
  ServeEmbedOutcome out;
  EmbeddingResult& r = out.result;
  r.pooling = "";  // the server's own; it does not say which
  r.query_set = spec.query_set;
  r.n_queries = static_cast<int>(spec.queries.size());
  const std::string where = spec.url.redacted() + net::embedding_path(spec.ollama);
  const std::string key = spec.client.api_key;

  // One client (one kept-alive connection) per worker for the whole run: worker w of every
  // pass sends on clients[w], so no counted request holds a TCP handshake. Client 0 is opened
  // by the warm-up (when there is one), the others by a cheap GET before the first counted request.
  const int workers = std::max(1, std::min<int>(spec.concurrency, static_cast<int>(spec.queries.size())));
  std::vector<std::unique_ptr<net::HttpClient>> clients;
  for (int w = 0; w < workers; ++w) clients.push_back(std::make_unique<net::HttpClient>(spec.url, spec.client));

  // Warm-up: one text; when every warm-up request fails, the server cannot embed.
  {
    net::HttpClient& client = *clients.front();
    int ok = 0;
    Call last;
    for (int w = 0; w < spec.warmup && !stopped(); ++w) {
      last = embed_call(client, spec, {spec.queries.front()}, 1);
      if (last.error == net::ErrorKind::kNone) ++ok;
    }
    if (spec.warmup > 0 && ok == 0 && !stopped()) {
      std::string why = last.message;
      if (last.message.find("HTTP 401") != std::string::npos || last.message.find("HTTP 403") != std::string::npos) {
        why += "; give --api-key or set OPENAI_API_KEY";
      }
      return fail(ErrorCode::kRuntime, where + ": warm-up request failed (" + net::error_kind_text(last.error) +
                                           "): " + net::without_secret(why, key));
    }
  }

  for (int w = spec.warmup > 0 ? 1 : 0; w < workers && !stopped(); ++w) {
    (void)clients[static_cast<std::size_t>(w)]->get(spec.ollama ? "/api/version" : "/v1/models");
  }

  std::mutex mu;  // guards out, the samples and the next index
  const auto counting = [&](bool on) {
    if (spec.on_counting) spec.on_counting(on);
  };
  const auto count = [&](const Call& c, std::size_t texts) {
    ++out.requests;
    if (c.error == net::ErrorKind::kNone) {
      out.texts += static_cast<int64_t>(texts);
      if (c.prompt_tokens >= 0) out.tokens += c.prompt_tokens;
      else out.tokens_known = false;
      return;
    }
    ++out.failed;
    ++out.errors[net::error_kind_key(c.error)];
    if (out.first_error.empty()) out.first_error = net::without_secret(c.message, key);
  };
  // `jobs` requests, each of the texts [first, end), by `concurrency` workers in order; returns
  // the calls in job order.
  const auto run_jobs = [&](const std::vector<std::pair<std::size_t, std::size_t>>& jobs) {
    std::vector<Call> calls(jobs.size());
    std::size_t next = 0;
    const auto worker = [&](net::HttpClient& client) {
      for (;;) {
        std::size_t i = 0;
        {
          std::lock_guard lock(mu);
          if (next >= jobs.size() || stopped()) return;
          i = next++;
        }
        const auto [first, end] = jobs[i];
        std::vector<std::string> inputs(spec.queries.begin() + static_cast<std::ptrdiff_t>(first),
                                        spec.queries.begin() + static_cast<std::ptrdiff_t>(end));
        Call c = embed_call(client, spec, inputs, end - first);
        std::lock_guard lock(mu);
        count(c, end - first);
        calls[i] = std::move(c);
      }
    };
    const int n = std::max(1, std::min<int>(spec.concurrency, static_cast<int>(jobs.size())));
    std::vector<std::thread> threads;
    for (int w = 0; w < n; ++w) threads.emplace_back(worker, std::ref(*clients[static_cast<std::size_t>(w)]));
    for (auto& t : threads) t.join();
    calls.resize(std::min(next, calls.size()));
    return calls;
  };

  const int64_t started = now_ns();
  counting(true);
  // 1. Latency: one text per request.
  say("latency, one text per request, " + std::to_string(spec.concurrency) + " in flight");
  std::vector<int64_t> latency_ns;
  const auto singles = batch_ranges(spec.queries.size(), 1);
  for (int rep = 0; rep < spec.repetitions && !stopped(); ++rep) {
    const std::vector<Call> calls = run_jobs(singles);
    int tokens = 0;
    bool all_tokens = calls.size() == singles.size();
    for (const Call& c : calls) {
      if (c.error != net::ErrorKind::kNone) continue;
      latency_ns.push_back(c.ns);
      if (c.prompt_tokens >= 0) tokens += c.prompt_tokens;
      else all_tokens = false;
    }
    if (rep == 0 && all_tokens && out.failed == 0) r.n_query_tokens = tokens;
  }
  r.latency = make_latency(std::move(latency_ns));

  // 2. Throughput per batch size: the whole set in requests of b texts.
  for (int b : spec.batch_sizes) {
    if (stopped()) break;
    const auto ranges = batch_ranges(spec.queries.size(), b);
    counting(false);  // the batch size's warm-up is not counted
    {
      net::HttpClient& client = *clients.front();
      for (int w = 0; w < spec.warmup && !stopped(); ++w) {
        std::vector<std::string> inputs(spec.queries.begin(),
                                        spec.queries.begin() + static_cast<std::ptrdiff_t>(ranges[0].second));
        (void)embed_call(client, spec, inputs, inputs.size());
      }
    }
    counting(true);
    say("throughput at batch " + std::to_string(b));
    std::vector<int64_t> pass_ns;
    for (int rep = 0; rep < spec.repetitions && !stopped(); ++rep) {
      const int failed_before = out.failed;
      const int64_t t0 = now_ns();
      const std::vector<Call> calls = run_jobs(ranges);
      const int64_t t1 = now_ns();
      if (calls.size() == ranges.size() && out.failed == failed_before) pass_ns.push_back(t1 - t0);
    }
    if (!pass_ns.empty()) {
      r.throughput.push_back(make_embed_throughput(b, r.n_queries, r.n_query_tokens, std::move(pass_ns)));
    }
  }
  counting(false);
  out.duration_s = static_cast<double>(now_ns() - started) / 1e9;
  out.interrupted = stopped();
  return out;
}

}  // namespace rigbench::measure
