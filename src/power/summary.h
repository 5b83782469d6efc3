// rigbench: from meter readings to energy per phase and per domain. Pure functions over
// recorded readings (no clock, no I/O), so every rule here is tested with chosen numbers.
//
// Per domain, one method is chosen for the whole recording:
//   counter      when the domain has a counter that passes the checks below;
//   integrated   (or estimated, for stated models) when it has no counter, or its counter
//                failed a check and power samples exist;
//   unavailable  otherwise, with the reason.
// Counter checks, where power samples exist to check against: frozen (no change for
// kFrozenMinSpanS or more while power averaged above kFrozenMinPowerW), backwards (a decrease
// that the meter did not flag as a gap), mis-scaled (over kPlausibleMinSpanS or more, counter
// energy and integrated power disagree by more than a factor kPlausibleMaxRatio).
//
// One source per domain for the whole recording, idle baseline included, so that marginal
// figures (phase minus idle) never subtract one source from another. A counter that passes
// its checks is set aside for the domain's integrated power when a measured phase has a
// window shorter than the counter's update period (the counter cannot see it).
//
// Flags (EnergyReport::flags, each once, each explained by a note):
//   below_update_period  a phase's window is shorter than a counter's update period
//   coarse               a phase's window is shorter than ten update periods of its source
//   sources_disagree     counter and integrated power differ by more than kDisagreeMaxRatio
//   gap                  a source had no reading over part of a window: that figure unavailable
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "power/meter.h"

namespace rigbench::power {

// The phase name of the idle baseline (model loaded, nothing running).
inline constexpr const char* kIdlePhase = "idle";

// Sampler::mark(kDropWindow) ends the open window without keeping it (its work did not
// finish, so no phase counts its energy) and begins none, as mark("") would.
inline constexpr const char* kDropWindow = "(dropped)";

inline constexpr double kFrozenMinSpanS = 1.0;  // NVML's counter moves about every 0.1 s
inline constexpr double kFrozenMinPowerW = 1.0;
inline constexpr double kPlausibleMinSpanS = 2.0;
inline constexpr double kPlausibleMaxRatio = 2.0;
inline constexpr double kDisagreeMaxRatio = 1.10;   // counter vs integrated power: above this, flagged
inline constexpr double kCoarseUpdatePeriods = 10;  // a window shorter than this many updates is coarse

inline constexpr const char* kFlagBelowUpdatePeriod = "below_update_period";
inline constexpr const char* kFlagCoarse = "coarse";
inline constexpr const char* kFlagSourcesDisagree = "sources_disagree";
inline constexpr const char* kFlagGap = "gap";

// One read of every domain (all meters, in the Sampler's domain order).
struct Tick {
  TimePoint time;
  std::vector<DomainReading> readings;  // one per domain
};

// One interval during which a phase ran, steady-clock ns. A phase may have many windows
// (one per repetition).
struct PhaseWindow {
  std::string phase;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// One domain's energy over one phase (all its windows together).
struct DomainEnergy {
  std::string domain;
  Method method = Method::kUnavailable;
  double energy_j = kNaN;  // joules; NaN when unavailable
  double duration_s = 0;   // seconds the phase's windows cover
  double power_w = kNaN;   // average watts = energy_j / duration_s
  std::string note;        // why unavailable, why the counter was set aside, or coarse resolution
};

struct PhaseEnergy {
  std::string phase;      // "idle", "pp", "tg", ...
  double duration_s = 0;  // seconds, sum over windows
  int n_windows = 0;
  // The span from the first window's start to the last window's end on the system clock (ns
  // since the Unix epoch; the windows' steady-clock ends shifted by the first read's
  // unix_ns - steady_ns), so that another reader of the same counter (nvidia-smi) can take
  // its delta over the same span. 0 when there were no reads.
  int64_t first_start_unix_ns = 0;
  int64_t last_end_unix_ns = 0;
  std::vector<DomainEnergy> domains;  // one per domain, in domain order
};

// Idle power of one domain, from the source its phases use: for a counter, the counter's
// energy over the idle window(s) / their seconds; for integrated power, the median of the
// power samples inside the window(s) (energy / seconds when it has none).
struct IdleBaseline {
  std::string domain;
  Method method = Method::kUnavailable;
  double power_w = kNaN;
  std::size_t n_samples = 0;
  std::string note;
};

// Power at one moment of the recording: seconds since the first read, and watts over the
// interval between two successive reads (a whole-system figure alone when one was read, else
// the sum of the component domains read).
struct PowerPoint {
  double t_s = 0;
  double power_w = kNaN;
};

struct EnergyReport {
  std::vector<DomainInfo> domains;
  std::vector<Method> methods;      // the method chosen per domain, in domain order
  std::vector<PhaseEnergy> phases;  // in order of first appearance
  std::vector<IdleBaseline> idle;   // one per domain when an idle phase ran; else empty
  std::vector<std::string> notes;   // per-domain choices and per-phase caveats worth telling
                                    // ("nvml:gpu0: counter frozen ...", "tg: nvml:gpu0: coarse ...")
  std::vector<std::string> flags;   // kFlag* codes, each once (see the file comment)
  double sample_rate_hz = 0;        // reads per second over the recording
  std::vector<PowerPoint> trace;    // power over time, one point per pair of successive reads

  // The phase named `name`, or nullptr.
  const PhaseEnergy* phase(std::string_view name) const;
};

// Summarizes `ticks` (time order, each with one reading per domain of `domains`) over
// `windows`. A window is measured by interpolating each cumulative figure linearly at its ends
// between the nearest reads; a window not covered by reads on both sides, or spanning a
// counter gap, is unavailable for that domain.
EnergyReport summarize(const std::vector<DomainInfo>& domains, const std::vector<Tick>& ticks,
                       const std::vector<PhaseWindow>& windows);

// Power over time from `ticks`: between each two successive reads, the energy each domain
// gained (the source `methods` chose for it, as summarize() reports; with `methods` empty, its
// counter, else its integrated figure; a gap leaves that domain out of the interval) over the
// seconds between them, placed at the interval's middle.
std::vector<PowerPoint> power_trace(const std::vector<DomainInfo>& domains, const std::vector<Tick>& ticks,
                                    const std::vector<Method>& methods = {});

}  // namespace rigbench::power
