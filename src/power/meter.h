// rigbench: Meter, the small interface every power/energy source sits behind (RAPL, NVML,
// amdgpu hwmon, an external log, a stated constant). The Sampler (power/sampler.h) reads
// meters on its own thread; summarize() (power/summary.h) turns the readings into energy per
// phase and per domain, choosing the method (counter | integrated | estimated | unavailable).
//
// A meter reports one or more domains (a CPU package, DRAM, one GPU, the wall socket). Each
// reading carries, per domain, up to three figures, each NaN when the domain lacks it:
//   counter_j     a hardware energy counter, cumulative joules since the meter opened, with
//                 wrap-around already undone (the best source: "counter");
//   integrated_j  cumulative joules integrated by the meter from power samples (trapezoid
//                 between successive reads, so it is only as good as the read rate);
//   power_w       power now, watts (for idle medians and counter plausibility checks).
#pragma once

#include <cmath>
#include <cstdint>
#include <expected>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rigbench::power {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// How an energy figure was obtained. Names as stored and printed: see method_name().
enum class Method {
  kCounter,      // difference of a hardware energy counter
  kIntegrated,   // power samples integrated over time (trapezoid)
  kEstimated,    // a stated model or a figure the user gave (never chosen silently)
  kUnavailable,  // no figure; the note says why
};

// "counter", "integrated", "estimated", "unavailable".
inline std::string_view method_name(Method m) {
  switch (m) {
    case Method::kCounter: return "counter";
    case Method::kIntegrated: return "integrated";
    case Method::kEstimated: return "estimated";
    case Method::kUnavailable: return "unavailable";
  }
  return "unavailable";
}

// One instant on both clocks. steady_ns orders readings and measures durations; unix_ns
// (system clock, ns since 1970 UTC) matches readings to external logs with wall timestamps.
struct TimePoint {
  int64_t steady_ns = 0;
  int64_t unix_ns = 0;
};

// One domain a meter reports. Fixed when the meter opens.
struct DomainInfo {
  std::string name;    // "rapl:package-0", "rapl:dram-0", "nvml:gpu0", "amdgpu:hwmon2", "external:wall", ...
  std::string source;  // where the numbers come from, one line, e.g. "RAPL energy_uj counter, <path>"
  // What integrated_j counts as: kIntegrated for sampled power, kEstimated for a stated model.
  Method integrated_method = Method::kIntegrated;
  // True for whole-machine figures (wall meter, constant --watts): never added to component domains.
  bool whole_system = false;
  // How often the source itself updates, seconds (NVML's counter: about 0.1; a power log:
  // its sampling interval; 0 = finer than any read). For a domain with a counter this is the
  // counter's; otherwise the integrated figure's. A window shorter than ten of these gets a
  // note and the flag `coarse`; a counter's window shorter than one, `below_update_period`.
  double update_interval_s = 0;
};

// One domain's figures at one read. See the file comment for the three figures.
struct DomainReading {
  double counter_j = kNaN;
  double integrated_j = kNaN;
  double power_w = kNaN;
  // True when the counter jumped in a way that cannot be undone (it went back and its range
  // is unknown) between the previous read and this one: the energy of that interval is
  // unknown, and counter_j continues from its previous value.
  bool counter_gap = false;
  // True when the source of integrated_j had no reading over part of the interval between the
  // previous read and this one (a power log with a gap of more than a few sampling
  // intervals): that interval's energy is unknown, and integrated_j does not count it.
  bool integrated_gap = false;
  std::string error;  // why a figure is missing at this read ("" when all is well)
};

// A meter that cannot be used here: why, and what would fix it (both one line; fix may be "").
struct Unavailable {
  std::string reason;  // e.g. "no /sys/class/powercap (no RAPL: a VM or not Linux)"
  std::string fix;     // e.g. "run as root, or: sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj"
};

// Thread safety: a meter is used by one thread at a time (the Sampler's thread, or a test).
class Meter {
 public:
  virtual ~Meter() = default;

  // Short name of the meter kind: "rapl", "nvml", "amdgpu", "external", "constant", "estimate".
  virtual std::string_view kind() const = 0;

  // The domains, in the order read() reports them. Non-empty.
  virtual const std::vector<DomainInfo>& domains() const = 0;

  // Longest interval between reads, seconds, that keeps this meter's figures right: 0.05 for
  // meters that integrate sampled power (>= 10 Hz with margin), about 1 for counters, +inf for
  // meters that can be read after the fact.
  virtual double sample_period_s() const = 0;

  // True when read(t) may be called at any time after t (an external log, a constant): the
  // Sampler then reads it after stop() at the times it recorded, instead of live.
  virtual bool reads_after_the_fact() const { return false; }

  // What the meter found and chose not to count, and why, one line each (e.g. "psys not
  // counted: it contains the packages"). For `rigbench hw` and the record's notes.
  virtual std::vector<std::string> notes() const { return {}; }

  // Reads every domain at `now` (the caller's clock reading, taken just before the call).
  // Returns one DomainReading per domain, in domains() order. Never fails as a whole: a domain
  // that cannot be read this time has NaN figures and an error. Times must not go backwards
  // between calls (after-the-fact meters excepted).
  virtual std::vector<DomainReading> read(const TimePoint& now) = 0;
};

// The result of opening a meter: the meter, or why it is not available here.
using MeterOpen = std::expected<std::unique_ptr<Meter>, Unavailable>;

}  // namespace rigbench::power
