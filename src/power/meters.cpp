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
  out.status.push_back({kind, false, {}, reason, fix});
}

MeterOpen open_apple() {
#ifdef __APPLE__
  return std::unexpected(Unavailable{"Apple powermetrics: live sampling is not built yet (the text parser is)",
                                     "run `sudo powermetrics --samplers cpu_power,gpu_power -i 200` yourself"});
#else
  return std::unexpected(Unavailable{"Apple powermetrics: not macOS", ""});
#endif
}

}  // namespace

OpenedMeters open_meters(const MeterConfig& c) {
  OpenedMeters out;
  add(out, "rapl", open_rapl(c.powercap_root));
  add(out, "nvml", open_nvml(c.nvml_library));
  add(out, "amdgpu", open_amdgpu(c.hwmon_root));
  add(out, "apple", open_apple());
  if (c.power_log.empty()) add_not_asked(out, "external", "no power log given", "--power-log FILE (CSV timestamp,watts from a wall meter)");
  else add(out, "external", open_power_log(c.power_log));
  if (c.watts > 0) add(out, "constant", make_constant_meter(c.watts));
  else add_not_asked(out, "constant", "no stated power", "--watts W (a figure you state; labelled stated)");
  if (c.estimate_tdp_w > 0) add(out, "estimate", open_utilization_estimate(c.estimate_tdp_w, c.proc_root));
  else add_not_asked(out, "estimate", "not asked for (never used silently)", "--estimate-power (TDP x CPU utilization, labelled estimated)");
  return out;
}

std::vector<MeterStatus> list_meters(const MeterConfig& config) { return open_meters(config).status; }

}  // namespace rigbench::power
