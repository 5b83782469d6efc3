#include "measure/fit_rpc_job.h"

#include <algorithm>
#include <cmath>

#include "core/knobs.h"
#include "core/strings.h"
#include "engine/llama_simulate.h"
#include "fit/device_split.h"
#include "fit/targets.h"
#include "hw/bandwidth.h"
#include "hw/catalog.h"
#include "measure/rpc_probe.h"

namespace rigbench::measure {

namespace {

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// fit --rpc --check (and --check over this machine's devices): llama.cpp's own no_alloc plan with
// the same servers or devices and split, per device beside fit's (weights + KV + compute; the
// device's name as ggml gives it: RPC0, Vulkan0, ...).
Result<fit::FitRpcCheck> rpc_check(const FitRequest& o, const fit::ContextParams& ctx, int ngl,
                                   const fit::SplitPlan& plan, const std::vector<fit::SplitDevice>& devices,
                                   const std::string& path) {
  if (!o.rpc_device.empty())
    return fail(ErrorCode::kUsage, "--check with --rpc-device: llama.cpp needs the live servers (--rpc)");
  engine::SimulationSpec sim = simulation_spec(path, ctx, plan.n_ctx);
  sim.n_gpu_layers = ngl == -2 ? plan.n_gpu_layers : ngl;
  if (!o.rpc.empty()) {
    sim.rpc = o.rpc;
  } else {  // this machine's devices: llama.cpp's -dev, in the split's order
    sim.devices.clear();
    for (const auto& d : devices) sim.devices += (sim.devices.empty() ? "" : "/") + d.device_name;
  }
  std::string ts;
  for (const auto& d : devices) ts += (ts.empty() ? "" : "/") + format_fixed(d.share, 3);
  sim.tensor_split = std::all_of(devices.begin(), devices.end(), [](const auto& d) { return d.share <= 0; }) ? "0.00" : ts;
  auto real = engine::simulate_memory(sim);
  if (!real) return std::unexpected(real.error());
  uint64_t host_llama = 0;
  std::vector<uint64_t> llama(devices.size(), 0);
  for (const auto& b : real->buffers) {
    const uint64_t bytes = b.model_bytes + b.context_bytes + b.compute_bytes;
    bool matched = false;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const std::string& name = devices[i].target.name;
      if (name.rfind(b.device + " ", 0) == 0 || name == b.device) llama[i] += bytes, matched = true;
    }
    if (!matched) host_llama += bytes;
  }
  fit::FitRpcCheck c;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto& d = plan.devices[i].device;
    c.rows.push_back({devices[i].target.name, d.weights + d.kv + d.recurrent + d.compute, llama[i]});
  }
  const auto& h = plan.host;
  c.rows.push_back({"host (CPU)", h.weights + h.kv + h.recurrent + h.compute, host_llama});
  return c;
}

// The split's last words: the note on verdicts, and --check.
Status finish_split(const FitRequest& o, const fit::ContextParams& ctx, int ngl, const fit::SplitPlan& plan,
                    const std::vector<fit::SplitDevice>& devices, const std::string& model_path_for_check,
                    FitAnswer& answer) {
  answer.report.notes.push_back(
      "each device's verdict is its own memory against its usable memory; the plan's "
      "verdict also needs the host RAM of the machine that runs the model");
  if (o.check) {
    auto c = rpc_check(o, ctx, ngl, plan, devices, model_path_for_check);
    if (c) answer.rpc_check = std::move(*c);
    else answer.check_error = std::unexpected(c.error());
  }
  return {};
}

// The split of `devices` (in llama.cpp's order) beside `host` planned into answer.report: -ts's
// shares, -sm none's one device, each device's verdict, the split and the tg bound (with the
// network when a device is on another machine) in the preamble; with --check llama.cpp's own.
Status answer_split(const FitRequest& o, const BenchParams& knobs, const model::ModelShape& shape,
                    const fit::ContextParams& ctx, int ngl, std::vector<fit::SplitDevice> devices,
                    const fit::Target& host, const fit::Link& link, const std::string& model_path_for_check,
                    FitAnswer& answer) {
  fit::FitReport& rep = answer.report;
  // -ts: one share per device, in the order above.
  if (!o.tensor_split.empty()) {
    auto shares = parse_tensor_split(o.tensor_split);
    if (!shares) return std::unexpected(shares.error());
    if (shares->size() != devices.size())
      return fail(ErrorCode::kUsage, "-ts/--tensor-split '" + o.tensor_split + "': " + std::to_string(shares->size()) +
                                         " shares for " + std::to_string(devices.size()) + " devices");
    fit::set_split_shares(devices, *shares);
  }
  if (knobs.split_mode == "none") {
    auto keep = fit::single_device_index(knobs.main_gpu, devices.size());
    if (!keep) return std::unexpected(keep.error());
    rep.notes.push_back("-sm none: llama.cpp keeps device " + std::to_string(*keep) + " (" +
                        devices[*keep].target.name + ", -mg) alone; the other " + std::to_string(devices.size() - 1) +
                        " hold nothing");
    devices = {devices[*keep]};
  }
  const bool one_machine =
      std::all_of(devices.begin(), devices.end(), [](const fit::SplitDevice& d) { return d.endpoint.empty(); });

  const fit::SplitPlan plan = fit::plan_device_split(shape, devices, host, ctx, ngl, o.n_depth, link);
  rep.results = plan.devices;
  std::string layers;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    layers += (layers.empty() ? "" : ", ") + devices[i].target.name + " " + fit::split_layers_text(rep.results[i]);
    rep.results[i].verdict = rep.results[i].verdict == fit::Verdict::kFits ? fit::Verdict::kFits : fit::Verdict::kNo;
  }
  rep.preamble.push_back("split over " + std::to_string(devices.size()) +
                         (devices.size() == 1 ? " device" : " devices") + ", as llama.cpp places layers: " + layers +
                         (plan.output_device < 0 ? "; output layer on the host" : ""));
  rep.preamble.push_back(
      "verdict over all devices: " + std::string(fit::verdict_name(plan.verdict)) + " (host RAM " +
      mib(plan.host.total()) + " of " + mib(plan.host_ram_bytes) + ")" + (plan.note.empty() ? "" : "; " + plan.note) +
      (plan.max_ctx > 0
           ? "; the largest context with room on every device and the host: " + std::to_string(plan.max_ctx)
           : "; no context has room on every device and the host"));
  if (one_machine) {
    rep.preamble.push_back(plan.bound_unknown.empty() ? "tg bound " + format_fixed(plan.tg_bound_tps, 2) +
                                                            " t/s (memory; no network: every device is on this machine)"
                                                      : "tg bound unknown: " + plan.bound_unknown);
    return finish_split(o, ctx, ngl, plan, devices, model_path_for_check, answer);
  }
  const std::string network =
      std::to_string(plan.hops) + " hop" + (plan.hops == 1 ? "" : "s") + " x " +
      std::to_string(fit::kRpcRoundTripsPerHop) + " round trip (ggml-rpc waits for one answer per " +
      "remote split per token) + " + format_fixed(plan.network_bytes_per_token / 1024.0, 1) +
      " KiB each token both ways (hidden states, KQ mask, logits from a remote output layer) = " +
      format_fixed(plan.network_s_per_token * 1e3, 3) + " ms per token; link: " + link.source;
  if (plan.bound_unknown.empty()) {
    rep.preamble.push_back("tg bound " + format_fixed(plan.tg_bound_tps, 2) + " t/s = memory " +
                           format_fixed(plan.compute_bound_tps, 2) + " t/s with the network: " + network);
  } else {
    rep.preamble.push_back("tg bound unknown: " + plan.bound_unknown + "; the network alone: " + network);
  }
  rep.network = fit::FitNetwork{link.gbps,
                                link.gbps_from,
                                link.rtt_ms,
                                link.rtt_from,
                                plan.hops,
                                plan.round_trips_per_token,
                                plan.network_bytes_per_token,
                                plan.network_s_per_token * 1e3,
                                plan.compute_bound_tps,
                                plan.tg_bound_tps};
  return finish_split(o, ctx, ngl, plan, devices, model_path_for_check, answer);
}

}  // namespace

bool wants_rpc_fit(const FitRequest& o) { return !o.rpc.empty() || !o.rpc_device.empty(); }

Status answer_rpc_fit(const FitRequest& o, const BenchParams& knobs, const model::ModelShape& shape,
                      const fit::ContextParams& ctx, int ngl, const MachineInfo& machine,
                      const std::string& model_label, const std::string& model_path,
                      const std::string& model_path_for_check, FitAnswer& answer) {
  if (!o.rpc.empty() && !o.rpc_device.empty())
    return fail(ErrorCode::kUsage, "--rpc plans over live rpc-servers, --rpc-device over catalog devices: give one");
  if (o.count > 1) return fail(ErrorCode::kUsage, "--rpc/--rpc-device: each device is named; drop --count");
  if (o.ctx_size <= 0) return fail(ErrorCode::kUsage, "--rpc/--rpc-device: give the context with -c N");
  std::vector<fit::SplitDevice> devices;
  fit::Target host;  // the machine that runs the model
  fit::Link link;
  fit::FitReport& rep = answer.report;
  rep.model = model_label;
  rep.model_path = model_path;
  rep.weights_bytes = shape.tensor_bytes;

  if (!o.rpc.empty()) {
    if (o.device != "auto") return fail(ErrorCode::kUsage, "--rpc plans beside this machine: drop --device " + o.device);
    const double host_bw = o.host_bandwidth_gbps > 0 ? o.host_bandwidth_gbps : hw::host_bandwidth_gbps(machine);
    auto servers = probe_rpc_memory(o.rpc, o.rpc_timeout_s);
    if (!servers) return std::unexpected(servers.error());
    if (servers->empty()) return fail(ErrorCode::kUsage, "--rpc none: name at least one HOST:PORT");
    // This machine's GPU after the servers, as llama.cpp orders them; else only its host RAM.
    fit::SplitSetup setup =
        fit::rpc_split_setup(*servers, fit::this_machine(machine, host_bw), o.link_gbps, o.link_rtt_ms);
    devices = std::move(setup.devices);
    host = std::move(setup.host);
    link = std::move(setup.link);
    rep.notes.push_back("rpc-server devices: the memory each server reports free (llama.cpp's default split is by "
                        "free memory); their bandwidth is not reported: this machine's " +
                        format_fixed(host_bw, 1) + " GB/s is assumed for the tg bound");
  } else {
    if (o.device == "auto" || o.device == "all")
      return fail(ErrorCode::kUsage, "--rpc-device: name the catalog --device of the machine that runs the model");
    auto catalog = hw::load_catalog(hw::catalog_path());
    if (!catalog) return std::unexpected(catalog.error());
    fit::HostChoice choice = host_choice(o, machine);
    auto primary = hw::find_device(*catalog, o.device);
    if (!primary) return std::unexpected(primary.error());
    if (primary->kind == "gpu" && primary->host.empty() && !choice.bandwidth_gbps)
      choice.machine_bandwidth_gbps = hw::host_bandwidth_gbps(machine);
    const fit::Target local = fit::catalog_target(*primary, *catalog, choice);
    int index = 0;
    for (const std::string& name : split(o.rpc_device, ',')) {
      auto d = hw::find_device(*catalog, trim(name));
      if (!d) return std::unexpected(d.error());
      fit::SplitDevice sd;
      sd.target = fit::catalog_target(*d, *catalog, choice);
      // A remote machine runs ggml-rpc-server: a GPU's memory, a Mac's working set, or a
      // CPU machine's RAM (the CPU device reports it) is what it offers.
      sd.endpoint = "remote " + std::to_string(++index);
      sd.target.name = d->name + " (rpc-server " + std::to_string(index) + ")";
      devices.push_back(std::move(sd));
    }
    host = local;
    if (local.backend != "cpu") {
      devices.push_back({local, "", 0, ""});
      devices.back().target.name = local.name + " (runs the model)";
    }
    if (local.unified || local.backend == "cpu") {
      // One memory: what the device does not take of it is the host's.
      host.host_ram_bytes = primary->memory_bytes > local.capacity_bytes && local.unified
                                ? primary->memory_bytes - local.capacity_bytes
                                : primary->memory_bytes;
      host.host_bandwidth_gbps = primary->bandwidth_gbps;
    }
    link = fit::make_link(o.link_gbps, o.link_rtt_ms, 0.5, "assumed",
                          "round trip 0.5 ms assumed (a switched LAN; --link-rtt-ms)");
  }
  return answer_split(o, knobs, shape, ctx, ngl, std::move(devices), host, link, model_path_for_check, answer);
}

Status answer_machine_split_fit(const FitRequest& o, const BenchParams& knobs, const model::ModelShape& shape,
                                const fit::ContextParams& ctx, int ngl, const MachineInfo& machine,
                                const std::vector<const DeviceInfo*>& gpus, const std::string& model_label,
                                const std::string& model_path, const std::string& model_path_for_check,
                                FitAnswer& answer) {
  if (o.count > 1) return fail(ErrorCode::kUsage, "-dev/--device A/B: each device is named; drop --count");
  if (o.ctx_size <= 0)
    return fail(ErrorCode::kUsage, "-dev/--device A/B: a split over devices: give the context with -c N");
  fit::FitReport& rep = answer.report;
  rep.model = model_label;
  rep.model_path = model_path;
  rep.weights_bytes = shape.tensor_bytes;
  const double host_bw = o.host_bandwidth_gbps > 0 ? o.host_bandwidth_gbps : hw::host_bandwidth_gbps(machine);
  std::vector<fit::SplitDevice> devices;
  for (const DeviceInfo* g : gpus) {
    fit::SplitDevice d{fit::machine_device_target(machine, host_bw, g), "", 0, g->name};
    d.target.name = g->name + " (" + g->description + ")";
    devices.push_back(std::move(d));
  }
  const fit::Link link;  // no device is on another machine: no hop, no network term
  return answer_split(o, knobs, shape, ctx, ngl, std::move(devices),
                      fit::machine_device_target(machine, host_bw, nullptr), link, model_path_for_check, answer);
}

}  // namespace rigbench::measure
