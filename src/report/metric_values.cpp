#include "report/metric_values.h"

#include <cmath>
#include <cstdint>

#include "core/knobs.h"
#include "core/short_commit.h"
#include "core/strings.h"
#include "core/suite_stats.h"
#include "core/test_name.h"
#include "report/byte_signature.h"
#include "report/table.h"

namespace rigbench::report {

namespace {

// `suffix` follows the test: " in EUR" for cost, " (stated)" for energy that was not measured.
// `pg`: a -pg test's phase (core/test_name.h), named apart from a plain pp or tg test.
std::string test_label(Metric metric, int n, int depth, bool pg, const std::string& suffix) {
  switch (metric) {
    case Metric::kPp: return phase_test_name(true, n, pg, depth) + suffix;
    case Metric::kTg:
    case Metric::kTgEnergy:
    case Metric::kCost: return phase_test_name(false, n, pg, depth) + suffix;
    case Metric::kTtft: return "ttft " + phase_test_name(true, n, pg, depth) + suffix;
    case Metric::kItl: return "itl " + phase_test_name(false, n, pg, depth) + suffix;
    case Metric::kMemory: return n > 0 ? "n_ctx " + std::to_string(n) : "";  // 0: no context (embed)
    case Metric::kSuiteGen:
    case Metric::kSuiteTtft:
    case Metric::kEmbedLatency: return suffix;  // metric_values names the suite or the query set
  }
  return suffix;
}

// The values of one of `rec`'s tests: its name says whether it is a -pg test's phase.
MetricValues values(const RunRecord& rec, std::vector<double> samples, Metric metric, int n, int depth,
                    const std::string& suffix = "") {
  std::string test = test_label(metric, n, depth, pp_tg_test(rec), suffix);
  return MetricValues{std::move(samples), n, depth, std::move(test), std::nullopt, {}, {}};
}

// " (stated)", " (estimated)", ...: energy that no meter read; "" for counter or integrated.
std::string unmeasured_suffix(const EnergyInfo& e) {
  for (const std::string& method : split(e.method, '+')) {
    if (method != "counter" && method != "integrated") return " (" + e.method + ")";
  }
  return "";
}

std::optional<MetricValues> run_metric_values(const RunRecord& rec, Metric metric) {
  const Results& r = rec.results;
  switch (metric) {
    case Metric::kPp:
    case Metric::kTg: {
      const auto& t = metric == Metric::kPp ? r.pp : r.tg;
      if (!t) break;
      if (t->summary_only) {
        MetricValues v = values(rec, {}, metric, t->n_tokens, rec.params.n_depth);
        v.stated = t->tps;
        return v;
      }
      if (!t->samples_tps.empty()) return values(rec, t->samples_tps, metric, t->n_tokens, rec.params.n_depth);
      break;
    }
    case Metric::kTtft:
      if (r.ttft && !r.ttft->samples_ns.empty()) {
        return values(rec, to_milliseconds(r.ttft->samples_ns), metric, rec.params.n_prompt, rec.params.n_depth);
      }
      break;
    case Metric::kTgEnergy:
      if (r.tg && rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token)) {
        MetricValues v = values(rec, {rec.energy.tg->j_per_token}, metric, r.tg->n_tokens, rec.params.n_depth,
                                unmeasured_suffix(rec.energy));
        v.flags = rec.energy.flags;
        return v;
      }
      break;
    case Metric::kCost:
      if (r.tg && rec.cost && std::isfinite(rec.cost->gross_per_mtok)) {
        MetricValues v = values(rec, {rec.cost->gross_per_mtok}, metric, r.tg->n_tokens, rec.params.n_depth,
                                " in " + rec.cost->currency + unmeasured_suffix(rec.energy));
        v.flags = rec.energy.flags;  // the cost is the energy's: the same doubts
        return v;
      }
      break;
    case Metric::kItl:
      if (r.tg && !r.tg->itl_ns.empty()) {
        return values(rec, to_milliseconds(r.tg->itl_ns), metric, r.tg->n_tokens, rec.params.n_depth);
      }
      break;
    case Metric::kSuiteGen:
    case Metric::kSuiteTtft: {
      if (!r.suite) break;
      const bool gen = metric == Metric::kSuiteGen;
      std::vector<double> medians = prompt_medians(*r.suite, gen ? "gen_tps" : "ttft_ms");
      if (medians.empty()) break;
      // "suite builtin [1a2b3c4d] gen": the name and the content hash's first 8 hex digits.
      const std::string& h = r.suite->hash;
      const std::string tag = h.substr(h.find(':') == std::string::npos ? 0 : h.find(':') + 1, 8);
      const std::string label = "suite " + r.suite->name + " [" + tag + "] " + (gen ? "gen" : "TTFT");
      return values(rec, std::move(medians), metric, static_cast<int>(r.suite->prompts.size()), 0, label);
    }
    case Metric::kEmbedLatency: {
      if (!r.embedding || r.embedding->latency.samples_ns.empty()) break;
      // "embed latency b1 builtin (343 queries)": the query set as given and its size.
      const EmbeddingResult& e = *r.embedding;
      const std::string label = "embed latency b1 " + e.query_set + " (" + std::to_string(e.n_queries) + " queries)";
      return values(rec, to_milliseconds(e.latency.samples_ns), metric, e.n_queries, 0, label);
    }
    case Metric::kMemory: {
      if (rec.memory.buffers.empty()) break;
      uint64_t total = 0;
      for (const auto& b : rec.memory.buffers) total += b.model_bytes + b.context_bytes + b.compute_bytes;
      // The context the run created, where it is a setting of the run (an embedding run has none).
      const int n_ctx = knob_applies(*find_knob("n_ctx"), rec) ? rec.params.n_ctx : 0;
      return values(rec, {static_cast<double>(total)}, metric, n_ctx, 0);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<MetricValues> metric_values(const RunRecord& rec, Metric metric) {
  auto v = run_metric_values(rec, metric);
  // serve-bench runs: the load, the workload (prefix, turns), the server and its API are part
  // of the row, so runs at another concurrency, of another workload or against another server
  // are never pooled nor ranked together ("tg16 @ c4 prefix 256 on 50 % llama.cpp b7090
  // openai-completions http://127.0.0.1:8080").
  if (v && rec.server) {
    const ServerRun& s = *rec.server;
    v->test += " @ c" + std::to_string(s.concurrency);
    if (s.rate_rps > 0) v->test += " rate " + shortest(s.rate_rps);
    if (const std::string w = workload_text(s); !w.empty()) v->test += " " + w;
    v->server = server_label(s);
    v->test += ' ';
    v->test += v->server;
  }
  return v;
}

std::string workload_text(const ServerRun& s) {
  std::vector<std::string> parts;
  if (s.rate_rps > 0 && s.burstiness != 1) parts.push_back("burst " + shortest(s.burstiness));
  if (!s.trace.empty()) parts.push_back("trace " + s.trace + (s.trace_scale != 1 ? " x" + shortest(s.trace_scale) : ""));
  if (s.prefix_tokens > 0)
    parts.push_back("prefix " + std::to_string(s.prefix_tokens) +
                    (s.prefix_share < 1 ? " on " + shortest(100 * s.prefix_share) + " %" : ""));
  if (s.turns > 1)
    parts.push_back("turns " + std::to_string(s.turns) + (s.think_time_s > 0 ? " think " + shortest(s.think_time_s) + " s" : ""));
  return join(parts, " ");
}

std::string server_label(const ServerRun& s) {
  std::string label = s.software;
  if (!s.version.empty()) {
    // In two steps: GCC 12 -O3 warns (-Wrestrict, a false positive) on " " + a temporary here.
    if (!label.empty()) label += ' ';
    label += short_commit(s.version);  // llama-server's "b7090-<40 hex>"
  }
  return label + (label.empty() ? "" : " ") + s.api + " " + s.url;
}

std::optional<MetricValues> wont_fit_values(const RunRecord& rec, Metric metric) {
  if (metric != Metric::kPp && metric != Metric::kTg) return std::nullopt;
  const int n = metric == Metric::kPp ? rec.params.n_prompt : rec.params.n_gen;
  if (n <= 0) return std::nullopt;
  return values(rec, {}, metric, n, rec.params.n_depth);
}

std::string results_shape(const RunRecord& rec) {
  std::string shape;
  shape.reserve(64);
  for (const auto* t : {&rec.results.pp, &rec.results.tg}) {
    shape.push_back(t->has_value() ? 1 : 0);
    if (!*t) continue;
    const ThroughputResult& r = **t;
    append_raw(shape, r.n_tokens);
    shape.push_back(r.summary_only ? 1 : 0);
    shape.push_back(r.samples_tps.empty() ? 1 : 0);
  }
  shape.push_back(rec.results.ttft && !rec.results.ttft->samples_ns.empty() ? 1 : 0);
  shape.push_back(rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token) ? 1 : 0);
  shape.push_back(rec.cost && std::isfinite(rec.cost->gross_per_mtok) ? 1 : 0);
  shape.push_back(rec.memory.buffers.empty() ? 1 : 0);
  shape.push_back(rec.refused.empty() ? 1 : 0);
  shape.push_back(rec.results.tg && !rec.results.tg->itl_ns.empty() ? 1 : 0);  // kItl
  const auto& embedding = rec.results.embedding;  // kEmbedLatency: its row names the query set and its size
  const bool embed_latency = embedding && !embedding->latency.samples_ns.empty();
  shape.push_back(embed_latency ? 1 : 0);
  if (embed_latency) append_raw(shape, embedding->n_queries);
  // A prompt suite's rows name the suite (kSuiteGen, kSuiteTtft); a serve-bench run's name the
  // server and its load (metric_values).
  const Results& res = rec.results;
  const std::string suite =
      res.suite ? res.suite->name + '\x1f' + res.suite->hash + '\x1f' + std::to_string(res.suite->prompts.size()) : "";
  std::string server;
  if (rec.server) {
    const ServerRun& sv = *rec.server;
    server = std::to_string(sv.concurrency) + '\x1f' + std::to_string(sv.rate_rps) + '\x1f' + sv.software + '\x1f' +
             sv.version + '\x1f' + sv.api + '\x1f' + sv.url + '\x1f' + sv.trace + '\x1f' + std::to_string(sv.trace_scale) +
             '\x1f' + std::to_string(sv.burstiness) + '\x1f' + std::to_string(sv.prefix_tokens) + '\x1f' +
             std::to_string(sv.prefix_share) + '\x1f' + std::to_string(sv.turns) + '\x1f' + std::to_string(sv.think_time_s);
  }
  const std::string& currency = rec.cost ? rec.cost->currency : std::string();
  const std::string& query_set = embed_latency ? embedding->query_set : std::string();
  for (const std::string* text :
       {&rec.energy.method, &currency, &suite, static_cast<const std::string*>(&server), &query_set})
    append_field(shape, *text);
  return shape;
}

}  // namespace rigbench::report
