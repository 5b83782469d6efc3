#include "power/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/stats.h"

namespace rigbench::power {

namespace {

using Series = double DomainReading::*;  // &DomainReading::counter_j or &DomainReading::integrated_j

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

double seconds(int64_t ns) { return static_cast<double>(ns) * 1e-9; }

// The cumulative figure `s` of domain `d` at steady time `t`, interpolated linearly between
// the nearest reads with a value on each side; NaN when `t` is not inside them.
double value_at(const std::vector<Tick>& ticks, std::size_t d, Series s, int64_t t) {
  const auto it =
      std::lower_bound(ticks.begin(), ticks.end(), t, [](const Tick& a, int64_t v) { return a.time.steady_ns < v; });
  std::ptrdiff_t after = it - ticks.begin();
  std::ptrdiff_t before = after;
  if (after < static_cast<std::ptrdiff_t>(ticks.size()) && ticks[after].time.steady_ns == t &&
      std::isfinite(ticks[after].readings[d].*s)) {
    return ticks[after].readings[d].*s;
  }
  --before;
  while (before >= 0 && !std::isfinite(ticks[before].readings[d].*s)) --before;
  while (after < static_cast<std::ptrdiff_t>(ticks.size()) && !std::isfinite(ticks[after].readings[d].*s)) ++after;
  if (before < 0 || after >= static_cast<std::ptrdiff_t>(ticks.size())) return kNaN;
  const Tick& a = ticks[before];
  const Tick& b = ticks[after];
  const double va = a.readings[d].*s, vb = b.readings[d].*s;
  const double frac =
      static_cast<double>(t - a.time.steady_ns) / static_cast<double>(b.time.steady_ns - a.time.steady_ns);
  return va + frac * (vb - va);
}

bool has_any(const std::vector<Tick>& ticks, std::size_t d, Series s) {
  return std::any_of(ticks.begin(), ticks.end(), [&](const Tick& t) { return std::isfinite(t.readings[d].*s); });
}

// A gap flagged, for series `s`, in a read whose preceding interval overlaps [start, end].
bool gap_flag(const DomainReading& r, Series s) {
  return s == &DomainReading::counter_j ? r.counter_gap : r.integrated_gap;
}
const Tick* gap_within(const std::vector<Tick>& ticks, std::size_t d, Series s, int64_t start, int64_t end) {
  for (std::size_t i = 1; i < ticks.size(); ++i) {
    if (gap_flag(ticks[i].readings[d], s) && ticks[i].time.steady_ns > start && ticks[i - 1].time.steady_ns < end)
      return &ticks[i];
  }
  return nullptr;
}

struct CounterCheck {
  std::string problem;       // why the counter cannot be trusted, "" when it passes (see summary.h)
  std::string disagreement;  // counter and integrated power differ by more than kDisagreeMaxRatio
};

CounterCheck check_counter(const std::vector<Tick>& ticks, std::size_t d) {
  const auto& c = [&](std::size_t i) -> const DomainReading& { return ticks[i].readings[d]; };
  double prev = kNaN;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const double v = c(i).counter_j;
    if (!std::isfinite(v)) continue;
    if (std::isfinite(prev) && v < prev - 1e-9 && !c(i).counter_gap) {
      return {fmt("counter went backwards (%.3f J to %.3f J)", prev, v), ""};
    }
    prev = v;
  }
  // Frozen: a run of equal values spanning kFrozenMinSpanS while power says the device works.
  std::size_t run = ticks.size();
  double power_sum = 0;
  int power_n = 0;
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const double v = c(i).counter_j;
    if (!std::isfinite(v)) continue;
    if (run == ticks.size() || v != c(run).counter_j) {
      run = i;
      power_sum = 0;
      power_n = 0;
    }
    if (std::isfinite(c(i).power_w)) {
      power_sum += c(i).power_w;
      ++power_n;
    }
    const double span = seconds(ticks[i].time.steady_ns - ticks[run].time.steady_ns);
    if (span >= kFrozenMinSpanS && power_n > 0 && power_sum / power_n > kFrozenMinPowerW) {
      return {fmt("counter did not change for %.1f s while power read %.1f W on average: frozen", span,
                  power_sum / power_n),
              ""};
    }
  }
  // Mis-scaled (beyond kPlausibleMaxRatio) or disagreeing (beyond kDisagreeMaxRatio): counter
  // energy against integrated power over the whole recording, long enough (kPlausibleMinSpanS,
  // twenty NVML updates) for the counter's steps to matter less than the tolerance.
  std::size_t first = ticks.size(), last = ticks.size();
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    if (std::isfinite(c(i).counter_j) && std::isfinite(c(i).integrated_j)) {
      if (first == ticks.size()) first = i;
      last = i;
    }
  }
  if (first < last) {
    const double span = seconds(ticks[last].time.steady_ns - ticks[first].time.steady_ns);
    const double counted = c(last).counter_j - c(first).counter_j;
    const double integrated = c(last).integrated_j - c(first).integrated_j;
    if (span >= kPlausibleMinSpanS && integrated > 0) {
      if (counted < integrated / kPlausibleMaxRatio || counted > integrated * kPlausibleMaxRatio) {
        return {fmt("counter gave %.3f J where power x time gave %.3f J: implausible", counted, integrated), ""};
      }
      if (counted < integrated / kDisagreeMaxRatio || counted > integrated * kDisagreeMaxRatio) {
        char buf[240];
        std::snprintf(buf, sizeof buf,
                      "the counter read %.2f W and instantaneous power %.2f W on average over %.1f s (%.2fx): they "
                      "disagree by more than 10 %%",
                      counted / span, integrated / span, span,
                      std::max(counted, integrated) / std::min(counted, integrated));
        return {"", buf};
      }
    }
  }
  return {};
}

struct Choice {
  Series series = nullptr;
  Method method = Method::kUnavailable;
  double update_s = 0;  // update period of the chosen source (0 = finer than any read)
  std::string note;
  std::vector<std::string> flags;
};

// The shortest window of any measured phase (idle excluded), seconds; +inf when none.
double shortest_measured_window(const std::vector<PhaseWindow>& windows) {
  double out = INFINITY;
  for (const auto& w : windows) {
    if (w.phase != kIdlePhase) out = std::min(out, seconds(w.end_ns - w.start_ns));
  }
  return out;
}

Choice choose(const DomainInfo& info, const std::vector<Tick>& ticks, std::size_t d,
              const std::vector<PhaseWindow>& windows) {
  const bool counter = has_any(ticks, d, &DomainReading::counter_j);
  const bool integrated = has_any(ticks, d, &DomainReading::integrated_j);
  if (counter) {
    const CounterCheck check = check_counter(ticks, d);
    Choice c;
    if (!check.disagreement.empty()) {
      c.note = check.disagreement;
      c.flags.push_back(kFlagSourcesDisagree);
    }
    auto add_note = [&c](const std::string& n) { c.note += (c.note.empty() ? "" : "; ") + n; };
    if (!check.problem.empty()) {
      if (integrated) {
        c.series = &DomainReading::integrated_j;
        c.method = info.integrated_method;
        add_note(check.problem + "; integrated power used instead");
      } else {
        add_note(check.problem + "; no power samples to integrate instead");
      }
      return c;
    }
    const double shortest = shortest_measured_window(windows);
    if (info.update_interval_s > 0 && shortest < info.update_interval_s) {
      c.flags.push_back(kFlagBelowUpdatePeriod);
      const std::string why = fmt("a window as short as %.3g s, shorter than the counter's update period (%.3f s)",
                                  shortest, info.update_interval_s);
      if (integrated) {
        c.series = &DomainReading::integrated_j;
        c.method = info.integrated_method;
        add_note(why + ": instantaneous power integrated instead, for every phase and the idle baseline");
        return c;
      }
      add_note(why + ": the counter cannot resolve it and no power samples exist; the figures are unreliable");
    }
    c.series = &DomainReading::counter_j;
    c.method = Method::kCounter;
    c.update_s = info.update_interval_s;
    return c;
  }
  if (integrated) return {&DomainReading::integrated_j, info.integrated_method, info.update_interval_s, "", {}};
  std::string why = "no reading";
  for (const auto& t : ticks) {
    if (!t.readings[d].error.empty()) {
      why = t.readings[d].error;
      break;
    }
  }
  return {nullptr, Method::kUnavailable, 0, why, {}};
}

double median(std::vector<double> v) { return rigbench::summarize(v).median; }

// The chosen figure's change over `windows` (summed), or NaN with `why` set: a window not
// covered by reads on both sides, or spanning a gap of the source.
double series_delta(const std::vector<Tick>& ticks, std::size_t d, Series s,
                    const std::vector<const PhaseWindow*>& windows, std::string& why, bool& gap) {
  double sum = 0;
  for (const PhaseWindow* w : windows) {
    if (const Tick* g = gap_within(ticks, d, s, w->start_ns, w->end_ns)) {
      gap = true;
      const std::string& err = g->readings[d].error;
      why = s == &DomainReading::counter_j
                ? "the counter jumped back during the window and its range is unknown"
                : "no reading over part of the window" + (err.empty() ? std::string() : " (" + err + ")") +
                      ": not integrated across";
      return kNaN;
    }
    const double v0 = value_at(ticks, d, s, w->start_ns);
    const double v1 = value_at(ticks, d, s, w->end_ns);
    if (!std::isfinite(v0) || !std::isfinite(v1)) {
      why = "no reading on both sides of the window";
      return kNaN;
    }
    sum += v1 - v0;
  }
  return sum;
}

IdleBaseline idle_baseline(const DomainInfo& info, const Choice& choice, const std::vector<Tick>& ticks, std::size_t d,
                           const std::vector<PhaseWindow>& idle) {
  IdleBaseline b;
  b.domain = info.name;
  if (!choice.series) {
    b.note = choice.note;
    return b;
  }
  std::vector<double> samples;
  if (choice.series == &DomainReading::integrated_j) {
    auto inside = [&](int64_t t) {
      return std::any_of(idle.begin(), idle.end(),
                         [&](const PhaseWindow& w) { return t >= w.start_ns && t <= w.end_ns; });
    };
    for (const auto& t : ticks) {
      if (inside(t.time.steady_ns) && std::isfinite(t.readings[d].power_w) && !t.readings[d].integrated_gap) {
        samples.push_back(t.readings[d].power_w);
      }
    }
  }
  b.method = choice.method;
  if (!samples.empty()) {
    b.power_w = median(samples);
    b.n_samples = samples.size();
    return b;
  }
  // The counter (or integrated power without samples inside): energy over the window / its seconds.
  std::vector<const PhaseWindow*> own;
  double duration_s = 0;
  for (const auto& w : idle) {
    own.push_back(&w);
    duration_s += seconds(w.end_ns - w.start_ns);
  }
  std::string why;
  bool gap = false;
  const double e = series_delta(ticks, d, choice.series, own, why, gap);
  if (!std::isfinite(e) || duration_s <= 0) {
    b.method = Method::kUnavailable;
    b.note = why.empty() ? "no reading inside the idle window" : why;
    return b;
  }
  b.power_w = e / duration_s;
  for (const auto& t : ticks) {
    if (std::any_of(idle.begin(), idle.end(), [&](const PhaseWindow& w) {
          return t.time.steady_ns >= w.start_ns && t.time.steady_ns <= w.end_ns;
        })) {
      ++b.n_samples;
    }
  }
  return b;
}

// One domain's energy over one phase. The note joins the domain's choice (said once in the
// report's notes) and what concerns this phase alone (`own`, said per phase).
DomainEnergy phase_energy(const DomainInfo& info, const Choice& choice, const std::vector<Tick>& ticks, std::size_t d,
                          const std::vector<const PhaseWindow*>& windows, double duration_s,
                          std::vector<std::string>& flags, std::string& own) {
  DomainEnergy e;
  e.domain = info.name;
  e.duration_s = duration_s;
  auto finish = [&]() {
    e.note = choice.note.empty() ? own : (own.empty() ? choice.note : choice.note + "; " + own);
    return e;
  };
  if (!choice.series) return finish();
  bool gap = false;
  const double sum = series_delta(ticks, d, choice.series, windows, own, gap);
  if (!std::isfinite(sum)) {
    if (gap) flags.push_back(kFlagGap);
    return finish();
  }
  double shortest_s = INFINITY;
  for (const PhaseWindow* w : windows) shortest_s = std::min(shortest_s, seconds(w->end_ns - w->start_ns));
  e.method = choice.method;
  e.energy_j = sum;
  e.power_w = duration_s > 0 ? sum / duration_s : kNaN;
  if (choice.update_s > 0 && shortest_s < kCoarseUpdatePeriods * choice.update_s) {
    own = fmt("windows as short as %.3g s against a source updated every %.3f s: coarse", shortest_s, choice.update_s);
    flags.push_back(kFlagCoarse);
  }
  return finish();
}

void add_flag(std::vector<std::string>& flags, const std::string& f) {
  if (std::find(flags.begin(), flags.end(), f) == flags.end()) flags.push_back(f);
}

}  // namespace

const PhaseEnergy* EnergyReport::phase(std::string_view name) const {
  for (const auto& p : phases)
    if (p.phase == name) return &p;
  return nullptr;
}

EnergyReport summarize(const std::vector<DomainInfo>& domains, const std::vector<Tick>& ticks,
                       const std::vector<PhaseWindow>& windows) {
  EnergyReport r;
  r.domains = domains;
  if (ticks.size() >= 2) {
    const double span = seconds(ticks.back().time.steady_ns - ticks.front().time.steady_ns);
    if (span > 0) r.sample_rate_hz = static_cast<double>(ticks.size() - 1) / span;
  }
  std::vector<Choice> choices;
  for (std::size_t d = 0; d < domains.size(); ++d) {
    choices.push_back(choose(domains[d], ticks, d, windows));
    r.methods.push_back(choices.back().method);
    if (!choices.back().note.empty()) r.notes.push_back(domains[d].name + ": " + choices.back().note);
    for (const auto& f : choices.back().flags) add_flag(r.flags, f);
  }

  std::vector<std::string> names;
  for (const auto& w : windows) {
    if (std::find(names.begin(), names.end(), w.phase) == names.end()) names.push_back(w.phase);
  }
  for (const auto& name : names) {
    PhaseEnergy p;
    p.phase = name;
    std::vector<const PhaseWindow*> own;
    for (const auto& w : windows) {
      if (w.phase != name) continue;
      own.push_back(&w);
      p.duration_s += seconds(w.end_ns - w.start_ns);
    }
    p.n_windows = static_cast<int>(own.size());
    if (!ticks.empty() && !own.empty()) {
      const int64_t to_unix = ticks.front().time.unix_ns - ticks.front().time.steady_ns;
      p.first_start_unix_ns = own.front()->start_ns + to_unix;
      p.last_end_unix_ns = own.back()->end_ns + to_unix;
    }
    for (std::size_t d = 0; d < domains.size(); ++d) {
      std::vector<std::string> flags;
      std::string own_note;
      p.domains.push_back(phase_energy(domains[d], choices[d], ticks, d, own, p.duration_s, flags, own_note));
      for (const auto& f : flags) add_flag(r.flags, f);
      // A caveat of this phase alone (the domain's own choice is said once, above).
      if (!own_note.empty()) r.notes.push_back(name + ": " + domains[d].name + ": " + own_note);
    }
    r.phases.push_back(std::move(p));
  }

  std::vector<PhaseWindow> idle;
  for (const auto& w : windows)
    if (w.phase == kIdlePhase) idle.push_back(w);
  if (!idle.empty()) {
    for (std::size_t d = 0; d < domains.size(); ++d)
      r.idle.push_back(idle_baseline(domains[d], choices[d], ticks, d, idle));
  }
  return r;
}

std::vector<PowerPoint> power_trace(const std::vector<DomainInfo>& domains, const std::vector<Tick>& ticks,
                                    const std::vector<Method>& methods) {
  std::vector<PowerPoint> out;
  if (ticks.size() < 2) return out;
  const int64_t t0 = ticks.front().time.steady_ns;
  for (std::size_t i = 1; i < ticks.size(); ++i) {
    const Tick& a = ticks[i - 1];
    const Tick& b = ticks[i];
    const double dt = static_cast<double>(b.time.steady_ns - a.time.steady_ns) / 1e9;
    if (dt <= 0) continue;
    double whole = kNaN, parts = 0;
    bool any_part = false;
    for (std::size_t d = 0; d < domains.size() && d < a.readings.size() && d < b.readings.size(); ++d) {
      const DomainReading& ra = a.readings[d];
      const DomainReading& rb = b.readings[d];
      double de = kNaN;
      const bool counter_chosen = d >= methods.size() || methods[d] == Method::kCounter;
      if (counter_chosen && std::isfinite(ra.counter_j) && std::isfinite(rb.counter_j) && !rb.counter_gap)
        de = rb.counter_j - ra.counter_j;
      else if (std::isfinite(ra.integrated_j) && std::isfinite(rb.integrated_j) && !rb.integrated_gap)
        de = rb.integrated_j - ra.integrated_j;
      if (!std::isfinite(de) || de < 0) continue;
      if (domains[d].whole_system) {
        if (!std::isfinite(whole)) whole = de / dt;
      } else {
        parts += de / dt;
        any_part = true;
      }
    }
    const double w = std::isfinite(whole) ? whole : (any_part ? parts : kNaN);
    if (std::isfinite(w)) {
      out.push_back({static_cast<double>((a.time.steady_ns + b.time.steady_ns) / 2 - t0) / 1e9, w});
    }
  }
  return out;
}

}  // namespace rigbench::power
