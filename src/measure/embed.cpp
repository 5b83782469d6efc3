#include "measure/embed.h"

#include <algorithm>
#include <chrono>

#include "core/clock.h"
#include "core/results.h"

namespace rigbench::measure {

std::vector<std::pair<std::size_t, std::size_t>> batch_ranges(std::size_t n_texts, int batch_size) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const auto b = static_cast<std::size_t>(std::max(batch_size, 1));
  for (std::size_t first = 0; first < n_texts; first += b) out.emplace_back(first, std::min(first + b, n_texts));
  return out;
}

int max_batch_tokens(const std::vector<int>& token_counts, int batch_size) {
  int most = 0;
  for (const auto& [first, end] : batch_ranges(token_counts.size(), batch_size)) {
    int sum = 0;
    for (std::size_t i = first; i < end; ++i) sum += token_counts[i];
    most = std::max(most, sum);
  }
  return most;
}

Result<EmbedOutcome> run_embed(engine::Embedder& embedder, const EmbedSpec& spec, const std::atomic<bool>& cancel,
                               const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  auto cancelled = [&] { return cancel.load(std::memory_order_relaxed); };
  const BenchParams& p = spec.params;

  say("loading " + spec.model_path);
  if (Status s = embedder.load(spec.model_path, p); !s) return std::unexpected(s.error());
  const engine::EmbedModel model = embedder.model();

  // Tokenize once, untimed: the timed calls measure the model, not the tokenizer.
  std::vector<std::vector<int32_t>> tokens;
  std::vector<int> counts;
  tokens.reserve(spec.queries.size());
  for (std::size_t i = 0; i < spec.queries.size(); ++i) {
    auto t = embedder.tokenize(spec.queries[i]);
    if (!t) {
      return fail(ErrorCode::kInvalidInput,
                  "queries '" + spec.query_set + "' query " + std::to_string(i + 1) + ": " + t.error().message);
    }
    if (model.n_ctx_train > 0 && static_cast<int>(t->size()) > model.n_ctx_train) {
      return fail(ErrorCode::kInvalidInput,
                  "queries '" + spec.query_set + "' query " + std::to_string(i + 1) + ": " + std::to_string(t->size()) +
                      " tokens, more than the model's context of " + std::to_string(model.n_ctx_train));
    }
    counts.push_back(static_cast<int>(t->size()));
    tokens.push_back(std::move(*t));
  }

  EmbedOutcome out;
  EmbeddingResult& r = out.result;
  r.query_set = spec.query_set;
  r.n_queries = static_cast<int>(tokens.size());
  for (int c : counts) r.n_query_tokens += c;

  auto call = [&](std::size_t first, std::size_t end) -> Status {
    std::vector<const std::vector<int32_t>*> texts;
    for (std::size_t i = first; i < end; ++i) texts.push_back(&tokens[i]);
    return embedder.embed(texts);
  };
  // An interrupted call ends the measurement: what finished is kept.
  auto stop = [&](const Status& s) -> Result<bool> {
    if (s) return false;
    if (s.error().code == ErrorCode::kInterrupted || cancelled()) return true;
    return std::unexpected(s.error());
  };

  // 1. Single-query latency at batch 1.
  const int longest = *std::max_element(counts.begin(), counts.end());
  {
    auto halt = stop(embedder.open_context(p, longest, 1));  // it makes one untimed call
    if (!halt) return std::unexpected(halt.error());
    if (*halt) {
      out.interrupted = true;
      return out;
    }
  }
  r.pooling = embedder.model().pooling;
  for (int w = 0; w < p.warmup; ++w) {
    auto halt = stop(call(0, 1));
    if (!halt) return std::unexpected(halt.error());
    if (*halt) out.interrupted = true;
  }
  std::vector<int64_t> latency_ns;
  say("latency at batch 1: " + std::to_string(tokens.size()) + " queries x " + std::to_string(p.repetitions));
  for (int rep = 0; rep < p.repetitions && !out.interrupted; ++rep) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const int64_t t0 = now_ns();
      const Status s = call(i, i + 1);
      const int64_t t1 = now_ns();
      auto halt = stop(s);
      if (!halt) return std::unexpected(halt.error());
      if (*halt) {
        out.interrupted = true;
        break;
      }
      latency_ns.push_back(t1 - t0);
    }
  }
  r.latency = make_latency(std::move(latency_ns));

  // 2. Throughput per batch size.
  for (int b : spec.batch_sizes) {
    if (out.interrupted) break;
    const int n_seq = std::min<int>(b, static_cast<int>(tokens.size()));
    auto opened = stop(embedder.open_context(p, max_batch_tokens(counts, b), n_seq));
    if (!opened) return std::unexpected(opened.error());
    if (*opened) {
      out.interrupted = true;
      break;
    }
    const auto ranges = batch_ranges(tokens.size(), b);
    for (int w = 0; w < p.warmup && !out.interrupted; ++w) {
      auto halt = stop(call(ranges[0].first, ranges[0].second));
      if (!halt) return std::unexpected(halt.error());
      if (*halt) out.interrupted = true;
    }
    say("throughput at batch " + std::to_string(b));
    std::vector<int64_t> pass_ns;
    for (int rep = 0; rep < p.repetitions && !out.interrupted; ++rep) {
      const int64_t t0 = now_ns();
      bool halted = false;
      for (const auto& [first, end] : ranges) {
        auto halt = stop(call(first, end));
        if (!halt) return std::unexpected(halt.error());
        if (*halt) {
          halted = true;
          break;
        }
      }
      const int64_t t1 = now_ns();
      if (halted) {
        out.interrupted = true;
        break;
      }
      pass_ns.push_back(t1 - t0);
    }
    if (!pass_ns.empty()) {
      r.throughput.push_back(make_embed_throughput(b, r.n_queries, r.n_query_tokens, std::move(pass_ns)));
    }
    out.memory = embedder.memory();
  }
  out.devices_used = embedder.devices_used();
  return out;
}

}  // namespace rigbench::measure
