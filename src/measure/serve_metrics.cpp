#include "measure/serve_metrics.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <cstdlib>

#include "core/strings.h"

namespace rigbench::measure {

RequestMetrics request_metrics(const RequestTrace& t) {
  RequestMetrics m;
  m.e2e_ms = (t.end_s - t.start_s) * 1e3;
  if (!t.token_s.empty()) {
    m.ttft_ms = (t.token_s.front() - t.start_s) * 1e3;
    if (t.content_s >= 0) m.ttft_content_ms = (t.content_s - t.start_s) * 1e3;
    m.itl_ms.reserve(t.token_s.size() - 1);
    for (std::size_t i = 1; i < t.token_s.size(); ++i) m.itl_ms.push_back((t.token_s[i] - t.token_s[i - 1]) * 1e3);
  }
  // Output: the usage, else the server's own count (llama-server's timings.predicted_n;
  // Ollama's eval_count is its usage), else the pieces the client counted.
  if (t.completion_tokens >= 0 || t.server.predicted_n >= 0) {
    m.output_tokens = t.completion_tokens >= 0 ? t.completion_tokens : t.server.predicted_n;
    m.output_from_server = true;
  } else {
    m.output_tokens = static_cast<int>(t.token_s.size());
  }
  // Input: the usage, else llama-server's timings (the tokens it evaluated and those its cache
  // gave), else the client's count; -1 (unknown, never 0) when none says.
  const int timings_input = t.server.prompt_n >= 0 ? t.server.prompt_n + std::max(t.server.cache_n, 0) : -1;
  m.input_tokens = t.prompt_tokens >= 0 ? t.prompt_tokens : timings_input >= 0 ? timings_input : t.client_input_tokens;
  if (m.output_tokens >= 2 && !t.token_s.empty()) m.tpot_ms = (m.e2e_ms - m.ttft_ms) / (m.output_tokens - 1);
  return m;
}

bool Slo::any() const { return !std::isnan(ttft_ms) || !std::isnan(tpot_ms) || !std::isnan(e2e_ms); }

Result<Slo> parse_slo(std::string_view text) {
  Slo slo;
  for (const auto& part : split(text, ',')) {
    const std::string p = trim(part);
    if (p.empty()) continue;
    const auto eq = p.find('=');
    const std::string key = eq == std::string::npos ? p : p.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : p.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !(v > 0)) {
      return fail(ErrorCode::kUsage, "--slo '" + p + "': expected KEY=MILLISECONDS (> 0), e.g. ttft_ms=500");
    }
    // METRIC_ms or METRIC_pNN_ms.
    const auto under = key.find('_');
    const std::string metric = key.substr(0, under);
    const std::string rest = under == std::string::npos ? "" : key.substr(under + 1);
    int percentile = 0;
    if (rest == "ms") percentile = 100;
    for (const int p : {50, 90, 95, 99}) {
      if (rest == "p" + std::to_string(p) + "_ms") percentile = p;
    }
    double* limit = metric == "ttft" ? &slo.ttft_ms : metric == "tpot" ? &slo.tpot_ms : metric == "e2e" ? &slo.e2e_ms : nullptr;
    int* at = metric == "ttft"   ? &slo.ttft_percentile
              : metric == "tpot" ? &slo.tpot_percentile
                                 : &slo.e2e_percentile;
    if (limit == nullptr || percentile == 0) {
      return fail(ErrorCode::kUsage, "--slo '" + key +
                                         "': unknown objective; use ttft_ms, tpot_ms, e2e_ms, or a percentile of "
                                         "one (p50, p90, p95, p99) as ttft_p95_ms");
    }
    *limit = v;
    *at = percentile;
  }
  return slo;
}

bool meets(const RequestMetrics& m, const Slo& slo) {
  const auto ok = [](double value, double limit) { return std::isnan(limit) || (!std::isnan(value) && value <= limit); };
  // A request with one output token has no TPOT: nothing to miss.
  const bool tpot_ok = std::isnan(slo.tpot_ms) || std::isnan(m.tpot_ms) || m.tpot_ms <= slo.tpot_ms;
  return ok(m.ttft_ms, slo.ttft_ms) && tpot_ok && ok(m.e2e_ms, slo.e2e_ms);
}

namespace {

// ServeRunMetrics::ttft_rise of `traces`.
double ttft_rise(const std::vector<RequestTrace>& traces) {
  std::vector<std::pair<double, double>> by_start;  // (sent, TTFT ms) of the completed requests
  for (const auto& t : traces) {
    if (t.error != net::ErrorKind::kNone || !t.model_event.empty() || t.token_s.empty()) continue;
    by_start.emplace_back(t.start_s, (t.token_s.front() - t.start_s) * 1e3);
  }
  if (by_start.size() < 4) return RequestMetrics::kNaN;
  std::sort(by_start.begin(), by_start.end());
  const std::size_t half = by_start.size() / 2;
  std::vector<double> early, late;
  for (std::size_t i = 0; i < by_start.size(); ++i) (i < half ? early : late).push_back(by_start[i].second);
  const double e = summarize(early).median;
  return e > 0 ? summarize(late).median / e : RequestMetrics::kNaN;
}

}  // namespace

ServeRunMetrics summarize_run(const std::vector<RequestTrace>& traces, double duration_s, const Slo& slo) {
  ServeRunMetrics r;
  r.duration_s = duration_s;
  std::vector<double> ttft, ttft_content, ttft_later, tpot, itl, e2e, in, out, server_prompt;
  bool input_unknown = false;  // a completed request whose input tokens nobody reported
  // Generation rates over the requests the server timed, as ratios of sums (tokens over time,
  // each side on its own clock), so a request whose tokens came in a burst counts for its
  // tokens and time, not as one huge rate: client sum(output - 1) / sum(E2E - TTFT), server
  // sum(predicted_n) / sum(predicted_ms).
  double client_tokens = 0, client_ms = 0, server_tokens = 0, server_ms = 0;
  // The server's prompt figures: tokens and ms it evaluated, tokens its cache gave, drafts.
  double prompt_tokens = 0, prompt_ms = 0, prompt_n_sum = 0, cache_n_sum = 0, drafted = 0, accepted = 0;
  int prompt_n_count = 0, cache_n_count = 0;
  std::vector<double> server_load;
  for (const auto& t : traces) {
    if (t.error == net::ErrorKind::kCanceled) continue;  // cut short by Ctrl-C: neither a result nor a failure
    if (!t.model_event.empty()) {  // Ollama loaded or unloaded a model instead of answering
      ++r.load_replies;
      continue;
    }
    ++r.requests;
    if (t.error != net::ErrorKind::kNone) {
      ++r.failed;
      ++r.errors[net::error_kind_key(t.error)];
      if (r.first_error.empty()) r.first_error = t.error_message;
      continue;
    }
    ++r.completed;
    const RequestMetrics m = request_metrics(t);
    if (!std::isnan(m.ttft_ms)) ttft.push_back(m.ttft_ms);
    if (!std::isnan(m.ttft_content_ms)) ttft_content.push_back(m.ttft_content_ms);
    if (!std::isnan(m.ttft_ms) && t.turn > 1) ttft_later.push_back(m.ttft_ms);
    if (!std::isnan(m.tpot_ms)) tpot.push_back(m.tpot_ms);
    itl.insert(itl.end(), m.itl_ms.begin(), m.itl_ms.end());
    e2e.push_back(m.e2e_ms);
    out.push_back(m.output_tokens);
    r.total_output_tokens += m.output_tokens;
    if (m.input_tokens >= 0) {
      in.push_back(m.input_tokens);
      r.total_input_tokens += m.input_tokens;
    } else {
      input_unknown = true;
    }
    if (m.output_tokens != t.asked_output_tokens) ++r.output_short;
    if (meets(m, slo)) ++r.good_requests;
    if (t.server.present()) {
      ++r.server_reported;
      if (!std::isnan(t.server.prompt_ms)) server_prompt.push_back(t.server.prompt_ms);
      if (t.server.prompt_n >= 0) {
        prompt_n_sum += t.server.prompt_n;
        ++prompt_n_count;
        if (t.server.prompt_ms > 0) {
          prompt_tokens += t.server.prompt_n;
          prompt_ms += t.server.prompt_ms;
        }
      }
      if (t.server.cache_n >= 0) {
        cache_n_sum += t.server.cache_n;
        ++cache_n_count;
      }
      if (t.server.draft_n > 0 && t.server.draft_n_accepted >= 0) {
        drafted += t.server.draft_n;
        accepted += t.server.draft_n_accepted;
      }
      if (!std::isnan(t.server.load_ms)) server_load.push_back(t.server.load_ms);
      // The server's tokens and ms: as stated, else derived from its rate.
      const double pps = t.server.predicted_per_second;
      const double n = t.server.predicted_n >= 0 ? t.server.predicted_n : m.output_tokens;
      const double ms = !std::isnan(t.server.predicted_ms) ? t.server.predicted_ms
                        : (!std::isnan(pps) && pps > 0) ? 1e3 * n / pps
                                                        : RequestMetrics::kNaN;
      if (!std::isnan(ms) && ms > 0 && n > 0 && !std::isnan(m.tpot_ms) && m.tpot_ms > 0) {
        server_tokens += n;
        server_ms += ms;
        client_tokens += m.output_tokens - 1;
        client_ms += m.e2e_ms - m.ttft_ms;
      }
    }
  }
  r.ttft_rise = ttft_rise(traces);
  r.ttft_ms = summarize(ttft);
  r.ttft_content_ms = summarize(ttft_content);
  r.ttft_later_turns_ms = summarize(ttft_later);
  r.tpot_ms = summarize(tpot);
  r.itl_ms = summarize(itl);
  r.e2e_ms = summarize(e2e);
  r.input_tokens = summarize(in);
  r.output_tokens = summarize(out);
  r.server_prompt_ms = summarize(server_prompt);
  r.server_load_ms = summarize(server_load);
  if (prompt_ms > 0) r.server_prompt_tps = 1e3 * prompt_tokens / prompt_ms;
  if (prompt_n_count > 0) r.server_prompt_n_mean = prompt_n_sum / prompt_n_count;
  if (cache_n_count > 0) r.server_cache_n_mean = cache_n_sum / cache_n_count;
  if (drafted > 0) r.server_draft_accepted_pct = 100 * accepted / drafted;
  if (server_ms > 0 && client_ms > 0) {
    r.server_tg_tps = 1e3 * server_tokens / server_ms;
    r.client_tg_tps = 1e3 * client_tokens / client_ms;
    r.tg_tps_diff_pct = 100.0 * (r.client_tg_tps - r.server_tg_tps) / r.server_tg_tps;
  }
  if (duration_s > 0) {
    r.request_rate = r.completed / duration_s;
    r.output_tps = r.total_output_tokens / duration_s;
    r.total_tps = input_unknown ? RequestMetrics::kNaN : (r.total_input_tokens + r.total_output_tokens) / duration_s;
    r.goodput = r.good_requests / duration_s;
  }
  return r;
}

std::optional<ThroughputResult> served_tg(const ServeRunMetrics& m, int n_gen) {
  if (!(m.output_tps > 0) || !std::isfinite(m.output_tps) || n_gen < 1) return std::nullopt;
  const double ns = std::round(1e9 * n_gen / m.output_tps);
  if (!(ns >= 1)) return std::nullopt;
  return make_throughput(n_gen, {static_cast<int64_t>(ns)});
}

}  // namespace rigbench::measure
