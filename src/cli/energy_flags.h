// rigbench: the energy flags that the measuring subcommands (bench, serve-bench) share, turned
// into what measure/energy needs: --energy, --idle-seconds, --watts, --power-log,
// --estimate-power and the cost flags (--price, --tariff, --idle-watts, ...).
#pragma once

#include <optional>
#include <string>

#include "cli/cost_flags.h"
#include "core/status.h"
#include "measure/job.h"  // EnergyConfig

namespace rigbench::cli {

struct EnergyFlags {
  std::string energy;         // --energy: "auto" measures; anything else ("off") does not
  double idle_s = 0;          // --idle-seconds: idle window with the model loaded, s
  double watts = 0;           // --watts: a constant power the user states, W (0 = not given)
  std::string power_log;      // --power-log: CSV timestamp,watts of a wall meter
  double estimate_tdp_w = 0;  // --estimate-power: TDP for TDP x CPU utilization, W (0 = not asked)
  const CostFlags* cost = nullptr;  // the cost flags, required
};

// The energy configuration of a run: nullopt with --energy other than auto. With auto, prints
// once on stderr why nothing can be metered when no meter is available (speed is measured
// anyway) and sets *readable to whether one is (readable may be null). Errors (kUsage): a bad
// price or tariff; --price/--tariff, --idle-watts or --power-log without --energy auto;
// (kInvalidInput) a --power-log that cannot be read (missing, a directory) or does not parse
// (power/power_log.h: fewer than 2 samples, a line that is not timestamp,watts), naming the file.
Result<std::optional<measure::EnergyConfig>> energy_config(const EnergyFlags& flags, bool* readable = nullptr);

}  // namespace rigbench::cli
