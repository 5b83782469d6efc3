#include "measure/noise.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/significance.h"
#include "core/stats.h"
#include "power/nvml_meter.h"

namespace rigbench::measure {

namespace {

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

}  // namespace

std::string repetition_list(std::span<const std::size_t> indices) {
  // Consecutive repetitions as one range ("1-13"), at most six items, then "and N more".
  constexpr std::size_t kMaxItems = 6;
  std::vector<std::string> items;
  std::size_t shown = 0;
  for (std::size_t k = 0; k < indices.size();) {
    std::size_t end = k;
    while (end + 1 < indices.size() && indices[end + 1] == indices[end] + 1) ++end;
    if (items.size() == kMaxItems) break;
    const std::string first = std::to_string(indices[k] + 1);
    items.push_back(end > k ? first + "-" + std::to_string(indices[end] + 1) : first);
    shown = end + 1;
    k = end + 1;
  }
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  if (shown < indices.size()) out += " and " + std::to_string(indices.size() - shown) + " more";
  return out;
}

namespace {

void phase_notes(const ThroughputResult& r, const std::string& phase, std::vector<NoiseNote>& out) {
  const auto& v = r.samples_tps;
  if (r.summary_only || v.size() < 3) return;
  if (const auto idx = mad_outliers(v); !idx.empty()) {
    const std::string which = repetition_list(idx);
    // Warm-up explains only a slow start: say --warmup when the first repetition is an outlier
    // below the median, never for fast ones or later ones.
    const bool slow_start = idx.front() == 0 && v.front() < percentile(v, 50);
    out.push_back({"outliers", phase,
                   std::to_string(idx.size()) + " of " + std::to_string(v.size()) +
                       (idx.size() == 1 ? " repetitions is a statistical outlier (repetition "
                                        : " repetitions are statistical outliers (repetition ") +
                       which +
                       ", more than 10 robust standard deviations and " + fmt("%g", 100 * kOutlierMinRelative) +
                       " % from the median)",
                   std::string("re-run on a quiet machine (close other programs)") +
                       (slow_start ? "; a larger --warmup helps with the slow first one" : "")});
  }
  const std::vector<double> rest(v.begin() + 1, v.end());
  const double med = percentile(rest, 50);
  const double lo = *std::min_element(rest.begin(), rest.end()), hi = *std::max_element(rest.begin(), rest.end());
  if (med > 0 && std::fabs(v.front() - med) / med * 100 > kFirstRepetitionPct && (v.front() < lo || v.front() > hi)) {
    // "60 % slower", or as a factor where a percentage reads oddly ("-100 %", "27141 %").
    const bool slower = v.front() < med;
    const double factor = slower ? med / v.front() : v.front() / med;
    const std::string how =
        factor >= 2 ? fmt("%.1fx", factor) : fmt("%.0f %%", 100 * std::fabs(v.front() - med) / med);
    out.push_back({"first_repetition", phase,
                   fmt("the first repetition (%.2f t/s) is ", v.front()) + how +
                       (slower ? " slower" : " faster") + fmt(" than the rest's median (%.2f t/s)", med),
                   slower ? "raise --warmup (caches, clocks or the page cache were still warming up)"
                          // Faster first: not warm-up. The machine slowed after it.
                          : "the machine slowed after it, which more --warmup does not fix: clocks that boosted "
                            "then fell back (heat, power limits) or work that started beside the run; see the other "
                            "notes, let the machine cool or quiet it, and run again"});
  }
  if (r.tps.mean > 0 && r.tps.stddev / r.tps.mean * 100 > kHighCvPct) {
    out.push_back({"high_cv", phase,
                   fmt("the repetitions vary by %.1f %% (coefficient of variation, above %.0f %%)",
                               r.tps.stddev / r.tps.mean * 100, kHighCvPct),
                   "run on a quiet machine (see the other notes for a cause); -r auto repeats until the interval is "
                   "tight"});
  }
  // Drift: the repetitions after the first, split into an earlier and a later half (the middle
  // one of an odd count left out), differ by more than kDriftPct and by Welch's t-test.
  if (rest.size() >= 2 * kDriftMinHalf) {
    const std::size_t h = rest.size() / 2;
    const std::span<const double> early(rest.data(), h), late(rest.data() + rest.size() - h, h);
    const auto w = welch_t_test(early, late);
    if (w && w->mean_a > 0 && w->p_two_sided < kDriftAlpha &&
        std::fabs(w->mean_b - w->mean_a) / w->mean_a * 100 > kDriftPct) {
      const double change = 100 * (w->mean_b - w->mean_a) / w->mean_a;
      out.push_back({"drift", phase,
                     fmt("the speed changed during the run: repetitions 2-%.0f averaged %.2f t/s", h + 1.0,
                                 w->mean_a) +
                         fmt(", the last %.0f %.2f t/s (%+.1f %%", static_cast<double>(h), w->mean_b, change) +
                         fmt(", Welch p = %.1g): the interval assumes a steady machine", w->p_two_sided),
                     "look for work that started or stopped beside the run, or clocks and heat that changed; run "
                     "again and compare the runs (rigbench compare)"});
    }
  }
}

}  // namespace

std::vector<NoiseNote> sample_notes(const Results& results) {
  std::vector<NoiseNote> out;
  if (results.pp) phase_notes(*results.pp, "pp", out);
  if (results.tg) phase_notes(*results.tg, "tg", out);
  return out;
}

std::vector<NoiseNote> activity_notes(const hw::CpuActivity& a, double load) {
  std::vector<NoiseNote> out;
  const std::string load_text = std::isfinite(load) ? fmt(", load average %.2f", load) : "";
  // /proc/stat's shares only over a window of enough ticks to resolve them.
  const bool resolved = a.ticks_per_cpu >= hw::kMinTicksPerCpu;
  const bool waited = std::isfinite(a.wait_pct) && a.wait_pct > kBusyWaitPct;
  // Others' CPU time against what this run left free (own_pct is at most 100).
  const double free_pct = 100 - a.own_pct;
  const double others_of_free = free_pct > 0 ? 100 * a.others_pct / free_pct : 0;
  const bool others = resolved && (a.others_pct > kBusyOthersAllPct ||
                                   (a.others_pct > kBusyOthersPct && others_of_free > kBusyOthersFreePct));
  if (waited || others) {
    const std::string shares =
        resolved ? fmt("other processes used %.0f %% of the CPUs' time (this one %.0f %%", a.others_pct, a.own_pct) +
                       load_text + ")"
                 : "the run was too short for /proc/stat's shares" +
                       (load_text.empty() ? "" : " (" + load_text.substr(2) + ")");
    const std::string beside =
        others ? fmt("; they took %.0f %% of the CPU time this run left free, and work beside a run shares its "
                     "memory bandwidth and caches",
                     std::min(others_of_free, 100.0))
               : "";
    out.push_back({"machine_busy", "",
                   (waited ? fmt("machine busy: this run's threads waited for a CPU %.0f %% of the time they were ready "
                                 "to run; ",
                                 a.wait_pct) +
                                 shares
                           : "machine busy: " + shares + " during the run") +
                       beside,
                   "stop other programs or re-run when the machine is idle; the figures are lower than this machine "
                   "gives"});
  }
  if (resolved && a.steal_pct > kStealPct) {
    out.push_back({"steal", "",
                   fmt("the hypervisor took %.1f %% of the CPUs' time (steal) during the run", a.steal_pct),
                   "run on a dedicated or less loaded host, or re-run later"});
  }
  return out;
}

std::vector<NoiseNote> governor_notes(const std::vector<std::string>& governors) {
  std::string others;
  for (const auto& g : governors) {
    if (g != "performance") others += (others.empty() ? "" : ", ") + g;
  }
  if (others.empty()) return {};
  return {
      {"governor", "",
       "CPU frequency governor " + others + " (not performance): clocks move with the load and the figures with them",
       "sudo cpupower frequency-set -g performance (or echo performance into "
       "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor) before benchmarking"}};
}

std::vector<NoiseNote> thermal_notes(const hw::ThermalState& before, const hw::ThermalState& after,
                                     const std::vector<std::string>& gpus) {
  std::string seen;
  if (after.throttle_count > before.throttle_count)
    seen = std::to_string(after.throttle_count - before.throttle_count) + " thermal throttling events counted";
  if (!after.cooling_active.empty()) {
    std::string devs;
    for (const auto& d : after.cooling_active) devs += (devs.empty() ? "" : ", ") + d;
    seen += (seen.empty() ? "" : "; ") + std::string("processor cooling active (") + devs + ")";
  }
  for (const auto& g : gpus) seen += (seen.empty() ? "" : "; ") + g;
  if (seen.empty()) return {};
  return {{"thermal_throttle", "", "thermal throttling during the run: " + seen,
           "let the machine cool (--delay SECONDS before each test), improve its cooling, or lower the load"}};
}

MachineWatch::MachineWatch(hw::KernelPaths paths) : paths_(std::move(paths)) {
  cpu_ = hw::read_cpu_times(paths_.proc);
  sched_ = hw::read_thread_sched(paths_.proc);
  own_cpu_s_ = hw::own_cpu_seconds();
  thermal_ = hw::read_thermal(paths_.sys);
}

std::vector<NoiseNote> MachineWatch::finish(int run_threads) const {
  std::vector<NoiseNote> out;
  if (const auto now = hw::read_cpu_times(paths_.proc); now && cpu_) {
    auto a = hw::cpu_activity(*cpu_, *now, hw::own_cpu_seconds() - own_cpu_s_, hw::clock_ticks_per_second());
    // The CPUs the run may use: /proc/stat's, or fewer under taskset or a cpuset.
    const int allowed = hw::allowed_cpus();
    const bool oversubscribed = run_threads > (allowed > 0 ? std::min(allowed, now->cpus) : now->cpus);
    if (const auto sched = hw::read_thread_sched(paths_.proc); sched && sched_ && !oversubscribed)
      a.wait_pct = hw::run_queue_wait_pct(*sched_, *sched);
    for (auto& n : activity_notes(a, hw::read_load_average(paths_.proc))) out.push_back(std::move(n));
  }
  for (auto& n : governor_notes(hw::cpu_governors(paths_.sys))) out.push_back(std::move(n));
  for (auto& n : thermal_notes(thermal_, hw::read_thermal(paths_.sys), power::nvml_throttled_gpus()))
    out.push_back(std::move(n));
  return out;
}

}  // namespace rigbench::measure
