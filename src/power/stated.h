// rigbench: power figures the user states rather than measures, each labelled "estimated"
// wherever it appears and used only when asked for, never as a silent fallback:
//   - a constant `--watts W` (e.g. read off a wall meter by eye, or a spec sheet);
//   - `--estimate-power` with a TDP: power = TDP × CPU utilization (/proc/stat), a crude
//     model stated as such in the domain's source.
#pragma once

#include <memory>
#include <string>

#include "power/meter.h"

namespace rigbench::power {

// A meter reporting `watts` at every instant (energy = watts × time). Domain "stated:watts",
// whole-system, method estimated. Readable after the fact. `watts` must be >= 0 (the caller
// validates the flag).
std::unique_ptr<Meter> make_constant_meter(double watts);

// The domain name of the utilization estimate below. It models the load only: with nothing
// running it reads about 0 W, so it gives no idle figure (measure/energy.h).
inline constexpr const char* kUtilizationEstimateDomain = "estimate:cpu";

// A meter estimating CPU power as `tdp_w` × the CPU utilization over each read interval, from
// the aggregate "cpu" line of <proc_root>/stat (busy = all time but idle and iowait).
// Domain kUtilizationEstimateDomain, method estimated. Unavailable: <proc_root>/stat unreadable or not
// in the Linux format.
MeterOpen open_utilization_estimate(double tdp_w, const std::string& proc_root = "/proc");

}  // namespace rigbench::power
