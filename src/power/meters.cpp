#include "power/meters.h"

#include "power/nvml_meter.h"
#include "power/power_log.h"
#include "power/stated.h"

namespace rigbench::power {

namespace {

void add(OpenedMeters& out, const std::string& kind, MeterOpen opened) {
  MeterStatus s;
  s.kind = kind;
  if (!opened) {
    s.detail = opened.error().reason;
    s.fix = opened.error().fix;
    out.status.push_back(std::move(s));
    return;
  }
  s.available = true;
  for (const auto& d : (*opened)->domains()) {
    s.domains.push_back(d.name);
    s.detail += (s.detail.empty() ? "" : "; ") + d.source;
  }
  for (const auto& n : (*opened)->notes()) s.detail += "; " + n;
  out.status.push_back(std::move(s));
  out.meters.push_back(std::move(*opened));
}

void add_not_asked(OpenedMeters& out, const std::string& kind, const std::string& reason, const std::string& fix) {
  out.status.push_back({kind, false, {}, reason, fix, /*asked=*/false});
}

#ifdef __APPLE__
MeterOpen open_apple() {
  return std::unexpected(Unavailable{"Apple powermetrics: live sampling is not built yet (the text parser is)",
                                     "run `sudo powermetrics --samplers cpu_power,gpu_power -i 200` yourself"});
}
#endif

}  // namespace

OpenedMeters open_meters(const MeterConfig& c) {
  OpenedMeters out;
  // Only the meters that can exist on this OS: sysfs (RAPL, amdgpu hwmon) and NVML on Linux,
  // powermetrics on macOS.
#ifdef __APPLE__
  add(out, "apple", open_apple());
#else
  add(out, "rapl", open_rapl(c.powercap_root));
  add(out, "nvml", open_nvml(c.nvml_library));
  add(out, "amdgpu", open_amdgpu(c.hwmon_root));
#endif
  if (c.power_log.empty())
    add_not_asked(out, "external", "no power log given", "--power-log FILE (CSV timestamp,watts from a wall meter)");
  else add(out, "external", open_power_log(c.power_log));
  if (c.watts > 0) add(out, "constant", make_constant_meter(c.watts));
  else add_not_asked(out, "constant", "no stated power", "--watts W (a figure you state; labelled stated)");
  if (c.estimate_tdp_w > 0) add(out, "estimate", open_utilization_estimate(c.estimate_tdp_w, c.proc_root));
  else
    add_not_asked(out, "estimate", "not asked for (never used silently)",
                  "--estimate-power TDP (TDP x CPU utilization, labelled estimated)");
  return out;
}

std::vector<MeterStatus> list_meters(const MeterConfig& config) { return open_meters(config).status; }

std::string no_meter_line(const std::vector<MeterStatus>& status) {
  std::string kinds;
  for (const auto& m : status) {
    if (!m.available && m.asked) kinds += (kinds.empty() ? "" : ", ") + m.kind;  // looked for, or asked for
  }
  const std::string head = "rigbench: energy: no meter available";
  const std::string tail = "; speed is still measured; details: rigbench hw";
  const std::string line = head + (kinds.empty() ? "" : " (" + kinds + ")") + tail;
  return line.size() <= kNoMeterLineMax ? line : head + tail;
}

}  // namespace rigbench::power
