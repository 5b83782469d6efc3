#include "measure/capacity.h"

#include <cmath>
#include <utility>

#include "core/strings.h"

namespace rigbench::measure {

namespace {

// `v` with at most `decimals` decimals, trailing zeros dropped ("3.4", "2", "0.25").
std::string trimmed(double v, int decimals) {
  std::string s = format_fixed(v, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// Milliseconds for people: "100 ms", "42.5 ms", "2 s", "3.4 s".
std::string duration_text(double ms) {
  if (ms >= 1000) return trimmed(ms / 1000, 2) + " s";
  // Below 1 ms, three decimals: an SLO of 0.05 ms is never "<= 0 ms" (nor "<= 0.1").
  return trimmed(ms, ms >= 100 ? 0 : ms >= 1 ? 1 : 3) + " ms";
}

// The value of `s` at `percentile` (100: the largest); NaN without samples.
double at_percentile(const Summary& s, int percentile) {
  if (s.n == 0) return RequestMetrics::kNaN;
  switch (percentile) {
    case 50: return s.median;
    case 90: return s.p90;
    case 95: return s.p95;
    case 99: return s.p99;
    default: return s.max;
  }
}

struct Objective {
  const char* name;
  double limit_ms;
  int percentile;
  const Summary* values;
};

std::vector<Objective> objectives(const Slo& slo, const ServeRunMetrics* m) {
  static const Summary kNone;
  std::vector<Objective> out;
  const auto add = [&](const char* name, double limit, int p, const Summary& s) {
    if (!std::isnan(limit)) out.push_back({name, limit, p, m ? &s : &kNone});
  };
  add("TTFT", slo.ttft_ms, slo.ttft_percentile, m ? m->ttft_ms : kNone);
  add("TPOT", slo.tpot_ms, slo.tpot_percentile, m ? m->tpot_ms : kNone);
  add("E2E", slo.e2e_ms, slo.e2e_percentile, m ? m->e2e_ms : kNone);
  return out;
}

std::string objective_name(const Objective& o) {
  return std::string(o.name) + (o.percentile == 100 ? " max" : " p" + std::to_string(o.percentile));
}

std::string load_text(double load, CapacityBy by) {
  return by == CapacityBy::kConcurrency ? trimmed(load, 0) : trimmed(load, 2);
}

}  // namespace

const char* capacity_by_name(CapacityBy by) { return by == CapacityBy::kConcurrency ? "concurrency" : "rate"; }

std::string slo_miss(const ServeRunMetrics& m, const Slo& slo) {
  if (m.completed == 0) return "no request completed";
  for (const Objective& o : objectives(slo, &m)) {
    const double v = at_percentile(*o.values, o.percentile);
    if (std::isnan(v)) continue;  // TPOT of one-token answers: nothing to miss
    if (v > o.limit_ms) return objective_name(o) + " was " + duration_text(v);
  }
  return "";
}

std::string slo_text(const Slo& slo) {
  std::string out;
  for (const Objective& o : objectives(slo, nullptr)) {
    out += (out.empty() ? "" : " and ") + objective_name(o) + " <= " + duration_text(o.limit_ms);
  }
  return out;
}

CapacityStep capacity_step(double load, const ServeRunMetrics& m, const Slo& slo) {
  CapacityStep s;
  s.load = load;
  s.miss = slo_miss(m, slo);
  if (m.ttft_ms.n > 0) s.ttft_p50_ms = m.ttft_ms.median;
  s.ttft_rise = m.ttft_rise;
  s.output_tps = m.output_tps;
  return s;
}

CapacitySearch::CapacitySearch(CapacityOptions options) : o_(std::move(options)) {}

double CapacitySearch::whole(double load) const {
  return o_.by == CapacityBy::kConcurrency ? std::max(1.0, std::floor(load)) : load;
}

bool CapacitySearch::close(double lo, double hi) const {
  return o_.by == CapacityBy::kConcurrency ? hi - lo <= 1 : hi <= lo * (1 + o_.rate_resolution);
}

std::optional<double> CapacitySearch::next() const {
  if (steps_.empty()) return whole(o_.start);
  if (ramping_) {
    const double last = steps_.back().load;
    if (last >= o_.max) return std::nullopt;
    const double up = o_.by == CapacityBy::kConcurrency ? std::max(whole(last * o_.factor), last + 1) : last * o_.factor;
    return std::min(o_.max, up);
  }
  // The ramp ended: on a saturated step that met (the answer), or on a miss (bisect).
  const CapacityAnswer a = answer();
  if (!a.missed || a.capacity <= 0) return std::nullopt;
  const double lo = a.capacity, hi = a.missed->load;
  if (close(lo, hi)) return std::nullopt;
  const double mid = whole((lo + hi) / 2);
  return mid > lo && mid < hi ? std::optional<double>(mid) : std::nullopt;
}

void CapacitySearch::add(const CapacityStep& step) {
  if (ramping_ && !steps_.empty() && steps_.back().met()) {
    const CapacityStep& prev = steps_.back();
    // Step over step at the median, or through the step (its later half's median over its
    // earlier half's: the rise in ms is then about 2 p50 (r - 1) / (r + 1)).
    const bool step_up = prev.ttft_p50_ms > 0 && step.ttft_p50_ms >= prev.ttft_p50_ms * o_.ttft_factor &&
                         step.ttft_p50_ms - prev.ttft_p50_ms >= o_.min_ttft_rise_ms;
    const double r = step.ttft_rise;
    const bool through_up =
        r >= o_.ttft_factor && 2 * step.ttft_p50_ms * (r - 1) / (r + 1) >= o_.min_ttft_rise_ms;
    const bool ttft_up = step_up || through_up;
    const bool tps_flat = prev.output_tps > 0 && step.output_tps < prev.output_tps * (1 + o_.tps_gain);
    if (ttft_up && tps_flat) {
      saturated_ = true;
      saturated_step_ = steps_.size();
    }
  }
  steps_.push_back(step);
  if (!step.met() || saturated_) ramping_ = false;
}

CapacityAnswer CapacitySearch::answer() const {
  CapacityAnswer a;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const CapacityStep& s = steps_[i];
    if (s.met() && s.load > a.capacity) {
      a.capacity = s.load;
      a.met = s;
    }
    if (!s.met() && (!a.missed || s.load < a.missed->load)) a.missed = s;
  }
  if (saturated_) {  // the step that ended the ramp, and the one before it
    a.saturated_at = steps_[saturated_step_];
    a.before = steps_[saturated_step_ - 1];
  }
  if (a.capacity <= 0) a.end = CapacityEnd::kNone;
  else if (a.missed) a.end = CapacityEnd::kBisected;
  else if (saturated_) a.end = CapacityEnd::kSaturated;
  else a.end = CapacityEnd::kMax;
  return a;
}

std::string capacity_line(const CapacityAnswer& a, const Slo& slo, CapacityBy by) {
  const bool conc = by == CapacityBy::kConcurrency;
  const auto unit = [&](double load) {
    return load_text(load, by) + (conc ? (load == 1 ? " concurrent request" : " concurrent requests") : " req/s");
  };
  const std::string level = slo_text(slo);
  std::string line;
  if (a.end == CapacityEnd::kNone) {
    line = "does not serve " + unit(a.missed ? a.missed->load : 1) + " at " + level;
    if (a.missed) line += ": " + a.missed->miss;
  } else {
    const bool at_least = a.end == CapacityEnd::kMax || a.end == CapacityEnd::kSaturated;
    line = std::string("serves ") + (at_least ? "at least " : "") + unit(a.capacity) + " at " + level;
    if (a.missed) line += "; at " + load_text(a.missed->load, by) + ", " + a.missed->miss;
    if (a.end == CapacityEnd::kMax) line += " (the sweep's maximum, --capacity-max)";
  }
  if (a.saturated_at && a.before) {
    const CapacityStep& s = *a.saturated_at;
    const CapacityStep& b = *a.before;
    const double gain = b.output_tps > 0 ? 100 * (s.output_tps / b.output_tps - 1) : RequestMetrics::kNaN;
    line += "; saturated at " + load_text(s.load, by) + ": queueing, TTFT p50 " + duration_text(b.ttft_p50_ms) +
            " -> " + duration_text(s.ttft_p50_ms) + " while output t/s " +
            (gain < 0 ? "fell " + trimmed(-gain, 0) : "rose " + trimmed(gain, 0)) + " %" +
            (a.end == CapacityEnd::kSaturated ? " (more concurrent requests only wait longer)" : "");
  }
  return line;
}

}  // namespace rigbench::measure
