#include "measure/preflight.h"

#include <cstdio>

#include "core/knobs.h"
#include "core/strings.h"
#include "fit/kv_cache.h"

namespace rigbench::measure {

bool Preflight::any_refused() const {
  for (const auto& r : refusals) {
    if (!r.empty()) return true;
  }
  return false;
}

namespace {

// The context a run creates, as fit plans it.
fit::ContextParams context_of(const TestCase& tc, int n_seq = 1) {
  fit::ContextParams ctx;
  ctx.n_ctx = tc.params.n_ctx;
  ctx.n_seq = n_seq;
  ctx.n_batch = tc.params.n_batch;
  ctx.n_ubatch = tc.params.n_ubatch;
  ctx.type_k = tc.params.type_k;
  ctx.type_v = tc.params.type_v;
  ctx.flash_attn = tc.params.flash_attn != "off";
  return ctx;
}

}  // namespace

Status check_cache_types(const std::vector<TestCase>& plan, const std::map<std::string, model::ModelShape>& shapes) {
  for (const auto& tc : plan) {
    if (Status s = fit::check_cache_types(shapes.at(tc.model_path), context_of(tc)); !s)
      return fail(s.error().code, "model '" + tc.model_path + "': " + s.error().message);
  }
  return {};
}

Preflight preflight(const std::vector<TestCase>& plan, const std::map<std::string, model::ModelShape>& shapes,
                    const fit::Target& target, bool force, const std::map<std::string, fit::SplitSetup>& rpc_splits,
                    int n_seq) {
  Preflight out;
  for (const auto& tc : plan) {
    const model::ModelShape& shape = shapes.at(tc.model_path);
    const fit::ContextParams ctx = context_of(tc, n_seq);
    const std::string at = "at n_ctx " + std::to_string(tc.params.n_ctx) +
                           (n_seq > 1 ? " for " + std::to_string(n_seq) + " sequences" : "");
    if (const auto it = rpc_splits.find(tc.params.rpc); it != rpc_splits.end()) {
      // Over rpc-servers: fit --rpc's plan of the same split (one function for both).
      std::vector<fit::SplitDevice> devices = it->second.devices;
      fit::set_split_shares(devices, tensor_split_shares(tc.params.tensor_split));
      const fit::SplitPlan sp = fit::plan_device_split(shape, devices, it->second.host, ctx,
                                                       tc.params.n_gpu_layers, tc.params.n_depth, it->second.link);
      Roofline r;
      r.estimate_bytes = sp.host.total();
      for (const auto& d : sp.devices) r.estimate_bytes += d.device.total();
      r.bandwidth_gbps = target.bandwidth_gbps;
      r.bytes_per_token = fit::bytes_per_token(shape, ctx, tc.params.n_depth);
      r.tg_bound_tps = sp.tg_bound_tps;
      r.memory_bound_tps = sp.compute_bound_tps;
      r.network_ms_per_token = sp.network_s_per_token * 1e3;
      // Refused when a device or the host RAM lacks room (-ngl 0, nothing offloaded, is a run too).
      std::string short_of;
      for (const auto& d : sp.devices) {
        if (d.margin_bytes < 0)
          short_of += (short_of.empty() ? "" : ", ") + d.target.name + " needs " + format_gib(d.device.total()) +
                      " GiB of " + format_gib(d.target.usable_bytes()) + " GiB usable";
      }
      if (!sp.note.empty()) short_of += (short_of.empty() ? "" : ", ") + sp.note;
      std::string refusal;
      if (!short_of.empty() && !force) {
        refusal = "model '" + tc.model_path + "' " + at + " will not fit the split over --rpc " + tc.params.rpc + ": " + short_of +
                  " (llama.cpp keeps " + format_gib(fit::kFitMarginBytes) + " GiB free per device); --force runs it anyway";
      }
      out.rooflines.push_back(r);
      out.refusals.push_back(std::move(refusal));
      continue;
    }
    const fit::FitResult f = fit::plan_fit(shape, target, ctx, tc.params.n_gpu_layers, tc.params.n_depth);
    Roofline r;
    r.estimate_bytes = f.device.total() + f.host.total();
    r.bandwidth_gbps = target.bandwidth_gbps;
    r.bytes_per_token = fit::bytes_per_token(shape, ctx, tc.params.n_depth);
    r.tg_bound_tps = f.tg_bound_tps;
    std::string refusal;
    // -ngl 0 on a build with a GPU: fit's verdict is about the device ("does not fit" when no
    // layer goes there), but the run asked for none: it runs when host RAM (and the device's
    // share, the compute buffer a GPU backend still reserves) hold it.
    const bool host_only_run_fits = tc.params.n_gpu_layers == 0 && target.backend != "cpu" &&
                                    f.host.total() <= target.host_ram_bytes &&
                                    f.device.total() <= target.usable_bytes();
    if (f.verdict == fit::Verdict::kNo && !force && !host_only_run_fits) {
      const fit::Components& c = f.device;
      refusal = "model '" + tc.model_path + "' " + at + " will not fit this machine: needs " + format_gib(f.device.total() + f.host.total()) +
                " GiB (weights " + format_gib(c.weights) + ", KV " + format_gib(c.kv) + ", compute " +
                format_gib(c.compute) + ", output " + format_gib(c.output) + ", overhead " + format_gib(c.overhead) +
                "), " + format_gib(target.usable_bytes()) + " GiB usable (llama.cpp keeps " +
                format_gib(target.reserve_bytes) + " GiB free); --force runs it anyway";
    }
    out.rooflines.push_back(r);
    out.refusals.push_back(std::move(refusal));
  }
  return out;
}

}  // namespace rigbench::measure
