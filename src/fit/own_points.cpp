#include "fit/own_points.h"

#include "core/noise_note.h"

namespace rigbench::fit {

std::string this_machine_class(const std::string& backend) { return speed_class(kThisMachine, backend); }

std::string run_device(const RunRecord& r) {
  if (r.params.n_gpu_layers == 0 || r.params.devices == "none") return "CPU";
  for (const std::string& d : r.devices_used) {
    if (d != "CPU") return d;
  }
  return "CPU";
}

bool disturbed(const RunRecord& r) {
  for (const NoiseNote& n : r.noise) {
    if (disturbs_run(n.code)) return true;
  }
  return false;
}

bool own_learnable(const RunRecord& r, const MachineInfo& machine) {
  if (r.machine.hostname != machine.hostname || r.machine.cpu != machine.cpu) return false;
  if (r.server || r.results.suite || r.results.embedding || is_tune_trial(r)) return false;
  if (!r.refused.empty() || !r.failed.empty() || disturbed(r)) return false;
  const BenchParams& p = r.params;
  const bool all_layers = run_device(r) == "CPU" || p.n_gpu_layers < 0 || p.n_gpu_layers >= 99;
  const bool placed = p.tensor_buft_overrides == "none" && p.cpu_moe == 0 && p.n_cpu_moe == 0 && p.no_kv_offload == 0 &&
                      p.rpc == "none";
  return p.n_depth == 0 && all_layers && placed;
}

std::vector<SpeedPoint> own_points(const std::vector<RunRecord>& records, const MachineInfo& machine,
                                   double tg_peak_per_s, double pp_peak_per_s) {
  std::vector<SpeedPoint> out;
  for (const RunRecord& r : records) {
    if (!own_learnable(r, machine)) continue;
    SpeedPoint base;
    base.device = kThisMachine;
    base.device_class = this_machine_class(run_device(r));
    base.model = r.model.name + " " + r.model.file_type;
    base.file_type = r.model.file_type;
    base.source = "stored run " + r.record_id;
    base.date = r.test_time.substr(0, 10);
    base.own = true;
    const ThroughputResult* pp = r.results.pp ? &*r.results.pp : nullptr;
    const ThroughputResult* tg = r.results.tg ? &*r.results.tg : nullptr;
    if (pp != nullptr && pp->n_tokens > 0 && pp->n_tokens <= 2048 && r.model.n_params > 0) {
      SpeedPoint p = base;
      p.phase = Phase::kPp;
      p.tokens_per_s = pp->tps.mean;
      p.work_per_token = 2.0 * static_cast<double>(r.model.n_params);
      p.peak_per_s = pp_peak_per_s;
      out.push_back(std::move(p));
    }
    if (tg != nullptr && tg->n_tokens > 0 && tg->n_tokens <= 512 && r.roofline.bytes_per_token > 0) {
      SpeedPoint p = base;
      p.phase = Phase::kTg;
      p.tokens_per_s = tg->tps.mean;
      p.work_per_token = static_cast<double>(r.roofline.bytes_per_token);
      p.peak_per_s = tg_peak_per_s;
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace rigbench::fit
