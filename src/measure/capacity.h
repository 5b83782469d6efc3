// rigbench: serve-bench's capacity sweep: the largest load (concurrent requests, or requests/s)
// at which a server meets a service level (--slo ttft_p95_ms=2000,tpot_p95_ms=100), found by
// ramping the load up (x2 a step) until a step misses, then bisecting between the last step
// that met it and the first that missed; ended early when the server is saturated (queueing:
// TTFT rising while output t/s no longer rises). Pure: the caller runs each step's load
// (measure/serve_job.h) and hands its figures in; nothing here measures, prints or sleeps.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "measure/serve_metrics.h"

namespace rigbench::measure {

enum class CapacityBy { kConcurrency, kRate };

// "concurrency", "rate".
const char* capacity_by_name(CapacityBy by);

// The first objective of `slo` that run `m` misses, for people ("TTFT p95 was 3.4 s"), or ""
// when every set one holds: each set objective's percentile (Slo::*_percentile; 100 = the
// largest) over the run's completed requests at most its limit. A run with no completed
// request misses ("no request completed"); a TPOT objective over runs of one-token answers
// (no TPOT) holds.
std::string slo_miss(const ServeRunMetrics& m, const Slo& slo);

// The service level as the answer says it: "TTFT p95 <= 2 s and TPOT p95 <= 100 ms".
std::string slo_text(const Slo& slo);

// One step of the sweep: the load run and what it gave.
struct CapacityStep {
  double load = 0;            // concurrent requests (whole), or requests/s
  std::string miss;           // slo_miss of the step's run; "" met
  double ttft_p50_ms = RequestMetrics::kNaN;
  double ttft_rise = RequestMetrics::kNaN;  // ServeRunMetrics::ttft_rise: later half's TTFT p50 over the earlier half's
  double output_tps = RequestMetrics::kNaN;
  bool met() const { return miss.empty(); }
};

// A step from its run's metrics against `slo`.
CapacityStep capacity_step(double load, const ServeRunMetrics& m, const Slo& slo);

struct CapacityOptions {
  CapacityBy by = CapacityBy::kConcurrency;
  double start = 1;          // the first load
  double max = 256;          // the largest load the ramp tries
  double factor = 2;         // the ramp: each step's load times this
  // Bisection ends when the bounds are this close: concurrency 1 request apart; rate within
  // this fraction (0.1: the higher bound at most 10 % above the lower).
  double rate_resolution = 0.1;
  // Saturation (the ramp ends there): TTFT up by `ttft_factor` (step over step at the median,
  // or through the step: ServeRunMetrics::ttft_rise) while output t/s rose by less than
  // `tps_gain` (0.1: 10 %) over the step before.
  double ttft_factor = 1.5;
  double tps_gain = 0.1;
  // ...and by at least this many ms (the SLO's TTFT limit / 20 where it has one): a TTFT that
  // doubles from 9 to 17 ms under a 2 s limit is noise to that service level, not queueing
  // that matters (the ramp stopped at 2 in two rounds of three on a busy 2-core machine).
  double min_ttft_rise_ms = 0;
};

// Why the sweep ended.
enum class CapacityEnd {
  kBisected,   // a step missed; the bounds closed to the resolution
  kSaturated,  // a step met the SLO but the server was saturated: more load only queues (at least this load)
  kMax,        // every step met it up to CapacityOptions::max
  kNone,       // the first step missed
};

struct CapacityAnswer {
  double capacity = 0;                  // the largest load that met the SLO; 0 none
  std::optional<CapacityStep> met;      // that step
  std::optional<CapacityStep> missed;   // the smallest load that missed it, where one did
  std::optional<CapacityStep> saturated_at;  // the step found saturated (and the one before it, `before`)
  std::optional<CapacityStep> before;
  CapacityEnd end = CapacityEnd::kNone;
};

// The search: next() the load to run, add() what it gave, until next() is nullopt.
class CapacitySearch {
 public:
  explicit CapacitySearch(CapacityOptions options);
  // The next load to run; nullopt when the sweep is over.
  std::optional<double> next() const;
  // The step of the load next() returned.
  void add(const CapacityStep& step);
  const std::vector<CapacityStep>& steps() const { return steps_; }
  // What the sweep found (meaningful once next() is nullopt; before, what it found so far).
  CapacityAnswer answer() const;

 private:
  double whole(double load) const;  // concurrency: a whole number of requests
  bool close(double lo, double hi) const;
  CapacityOptions o_;
  std::vector<CapacityStep> steps_;
  bool ramping_ = true;
  bool saturated_ = false;
  std::size_t saturated_step_ = 0;  // the step found saturated (index into steps_)
};

// The one-line answer: "serves 6 concurrent requests at TTFT p95 <= 2 s and TPOT p95 <= 100 ms;
// at 8, TTFT p95 was 3.4 s", with the saturation said ("; saturated at 8: queueing, TTFT p50
// 40 -> 120 ms while output t/s rose 3 %"), the sweep's maximum, or that none met it.
std::string capacity_line(const CapacityAnswer& a, const Slo& slo, CapacityBy by);

}  // namespace rigbench::measure
