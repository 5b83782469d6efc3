#include "cli/energy_flags.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "power/meters.h"
#include "power/power_log.h"

namespace rigbench::cli {

Result<std::optional<measure::EnergyConfig>> energy_config(const EnergyFlags& flags, bool* readable) {
  const CostFlags& cost = *flags.cost;
  if (readable) *readable = false;
  if (flags.energy != "auto") {
    if (std::isfinite(cost.price) || !cost.tariff.empty()) {
      return fail(ErrorCode::kUsage, "--price/--tariff need --energy auto (cost comes from measured energy)");
    }
    if (std::isfinite(cost.idle_watts)) {
      return fail(ErrorCode::kUsage, "--idle-watts needs --energy auto (it is the idle baseline of measured energy)");
    }
    if (!flags.power_log.empty()) {
      return fail(ErrorCode::kUsage, "--power-log needs --energy auto (the log is read as the run's energy)");
    }
    return std::optional<measure::EnergyConfig>{};
  }
  // The power log the user named must be read now, before anything runs: a log that cannot be
  // read or does not parse would otherwise leave the run without energy, said only in its record.
  if (!flags.power_log.empty()) {
    auto log = power::open_power_log(flags.power_log);
    if (!log) {
      const power::Unavailable& why = log.error();
      return fail(ErrorCode::kInvalidInput, why.reason + (why.fix.empty() ? "" : "; " + why.fix));
    }
  }
  measure::EnergyConfig e;
  e.meters.watts = flags.watts;
  e.meters.power_log = flags.power_log;
  e.meters.estimate_tdp_w = flags.estimate_tdp_w;
  e.idle_s = flags.idle_s;
  e.idle_watts = cost.idle_watts;
  auto pricing = cost_inputs(cost, /*require_tps=*/false);
  if (!pricing) return std::unexpected(pricing.error());
  if (std::isfinite(pricing->price_per_kwh)) e.pricing = *pricing;
  // Say plainly, once, when nothing can be measured and why; speed is measured regardless.
  const auto status = power::list_meters(e.meters);
  const bool any = std::any_of(status.begin(), status.end(), [](const power::MeterStatus& m) { return m.available; });
  if (!any) std::fprintf(stderr, "%s\n", power::no_meter_line(status).c_str());
  if (readable) *readable = any;
  return std::optional<measure::EnergyConfig>{std::move(e)};
}

}  // namespace rigbench::cli
