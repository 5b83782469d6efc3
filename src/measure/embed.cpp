#include "measure/embed.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/clock.h"
#include "core/results.h"
#include "core/significance.h"
#include "core/stats.h"

namespace rigbench::measure {

std::vector<std::pair<std::size_t, std::size_t>> batch_ranges(std::size_t n_texts, int batch_size) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const auto b = static_cast<std::size_t>(std::max(batch_size, 1));
  for (std::size_t first = 0; first < n_texts; first += b) out.emplace_back(first, std::min(first + b, n_texts));
  return out;
}

namespace {

// The interval of the pass figures so far as ±% of their mean; NaN with fewer than 2.
double interval_pct(const std::vector<double>& figures) {
  const auto ci = figures.size() >= 2 ? mean_interval(summarize(figures)) : std::nullopt;
  return ci ? ci->half_width_pct : std::numeric_limits<double>::quiet_NaN();
}

// "pass 2/5" (-r N) or "pass 2, ±1.3 % (target ±2 %)" (-r auto).
std::string pass_text(const RepetitionRule& rule, int done, const std::vector<double>& figures) {
  std::string s = "pass " + std::to_string(done);
  if (!rule.automatic) return s + "/" + std::to_string(rule.repetitions);
  const double pct = interval_pct(figures);
  char buf[96];
  if (std::isfinite(pct)) std::snprintf(buf, sizeof buf, ", \u00b1%.1f %% (target \u00b1%g %%)", pct, rule.ci_target_pct);
  else std::snprintf(buf, sizeof buf, " (auto: target \u00b1%g %%)", rule.ci_target_pct);
  return s + buf;
}

// The weaker of two reasons a phase stopped, for the run: a budget or cap over the target or count.
StopReason weaker(StopReason a, StopReason b) {
  auto rank = [](StopReason r) { return r == StopReason::kTime ? 3 : r == StopReason::kCap ? 2 : r == StopReason::kNone ? 0 : 1; };
  return rank(b) > rank(a) ? b : a;
}

// After a pass: the rule's reason (core/repetitions.h stop_after), except that under -r auto
// the budget ends a phase from its second pass on (an interval exists), not from the third: a
// pass is the whole query set, seconds long on a busy machine (#37: 4 min for the defaults).
StopReason phase_stop(const RepetitionRule& rule, const std::vector<double>& figures, double elapsed_s) {
  const std::vector<std::vector<double>> series = {figures};
  const StopReason why = stop_after(rule, series, elapsed_s);
  const auto n = static_cast<double>(figures.size());
  if (why == StopReason::kNone && rule.automatic && n >= 2 && elapsed_s + elapsed_s / n > rule.max_time_s)
    return StopReason::kTime;
  return why;
}

}  // namespace

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
  RepetitionRule rule = spec.rule;
  if (!rule.automatic) rule.repetitions = p.repetitions;
  StopReason stopped = StopReason::kNone;
  bool reached = true;
  std::vector<int64_t> latency_ns;
  say("latency at batch 1: " + std::to_string(tokens.size()) + " queries a pass, " +
      (rule.automatic ? std::string("passes until the interval of their mean is tight (-r auto)")
                      : std::to_string(rule.repetitions) + " passes"));
  std::vector<int64_t> latency_pass_ns;  // each latency pass's wall time: batch 1's throughput
  {
    std::vector<double> pass_ms;  // each pass's mean latency
    const int64_t first_ns = now_ns();
    while (!out.interrupted) {
      const int64_t pass_start = now_ns();
      double sum_ms = 0;
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
        sum_ms += static_cast<double>(t1 - t0) / 1e6;
      }
      if (out.interrupted) break;
      latency_pass_ns.push_back(now_ns() - pass_start);
      pass_ms.push_back(sum_ms / static_cast<double>(tokens.size()));
      ++out.latency_passes;
      const StopReason why = phase_stop(rule, pass_ms, static_cast<double>(now_ns() - first_ns) / 1e9);
      char mean[48];
      std::snprintf(mean, sizeof mean, ", %.3g ms mean", pass_ms.back());
      say("latency at batch 1: " + pass_text(rule, out.latency_passes, pass_ms) + mean);
      if (why == StopReason::kNone) continue;
      stopped = weaker(stopped, why);
      reached = reached && interval_within(pass_ms, rule.ci_target_pct);
      break;
    }
  }
  r.latency = make_latency(std::move(latency_ns));
  out.memory = embedder.memory();  // batch 1's context; a larger batch size's replaces it

  // 2. Throughput per batch size.
  for (int b : spec.batch_sizes) {
    if (b == 1) {  // the latency passes made the same calls, one text each: not run again
      if (!latency_pass_ns.empty())
        r.throughput.push_back(make_embed_throughput(1, r.n_queries, r.n_query_tokens, latency_pass_ns));
      continue;
    }
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
    std::vector<double> texts_per_s;
    const int64_t first_ns = now_ns();
    while (!out.interrupted) {
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
      texts_per_s.push_back(t1 > t0 ? 1e9 * static_cast<double>(tokens.size()) / static_cast<double>(t1 - t0)
                                    : std::numeric_limits<double>::infinity());
      const StopReason why = phase_stop(rule, texts_per_s, static_cast<double>(now_ns() - first_ns) / 1e9);
      say("throughput at batch " + std::to_string(b) + ": " +
          pass_text(rule, static_cast<int>(pass_ns.size()), texts_per_s));
      if (why == StopReason::kNone) continue;
      stopped = weaker(stopped, why);
      reached = reached && interval_within(texts_per_s, rule.ci_target_pct);
      break;
    }
    if (!pass_ns.empty()) {
      r.throughput.push_back(make_embed_throughput(b, r.n_queries, r.n_query_tokens, std::move(pass_ns)));
    }
    out.memory = embedder.memory();
  }
  out.devices_used = embedder.devices_used();
  out.stopped_by = out.interrupted ? "interrupted" : stop_reason_name(stopped);
  out.reached = reached && !out.interrupted;
  return out;
}

}  // namespace rigbench::measure
