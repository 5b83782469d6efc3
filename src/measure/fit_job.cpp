#include "measure/fit_job.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "core/knobs.h"
#include "core/strings.h"
#include "core/tensor_overrides.h"
#include "engine/llama_build.h"
#include "engine/llama_engine.h"
#include "engine/llama_simulate.h"
#include "fit/catalog_plan.h"
#include "fit/device_split.h"
#include "fit/kv_cache.h"
#include "fit/memory_model.h"
#include "fit/ranking.h"
#include "fit/targets.h"
#include "hw/bandwidth.h"
#include "hw/catalog.h"
#include "hw/describe.h"
#include "hw/machine.h"
#include "measure/fit_rpc_job.h"
#include "measure/speed_predict_job.h"
#include "model/model_file.h"
#include "model/model_shape.h"
#include "model/preset.h"
#include "model/projector_shape.h"
#include "synth/synthesis.h"

namespace rigbench::measure {

namespace {

// "3,1" -> {"3", "1"}.
std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  for (auto& p : split(s, ',')) out.push_back(trim(p));
  return out;
}

// llama.cpp's own breakdown for the plan's context, beside fit's estimate for the host.
Result<fit::FitCheck> check_of(const std::string& path, const std::string& mmproj, const fit::ContextParams& ctx,
                               const fit::FitResult& f, const std::string& devices) {
  engine::SimulationSpec sim = simulation_spec(path, ctx, f.n_ctx);
  sim.devices = devices;
  const bool split = f.target.backend != "cpu" && !f.target.unified;  // a device beside the host RAM
  if (split) sim.n_gpu_layers = f.n_gpu_layers;                       // the layers fit planned on the device
  auto real = engine::simulate_memory(sim);
  if (!real) return std::unexpected(real.error());
  fit::FitCheck c;
  c.n_ctx = real->n_ctx;
  for (const auto& b : real->buffers) {
    c.llama_weights += b.model_bytes;
    c.llama_kv += b.context_bytes;
    c.llama_compute += b.compute_bytes;
    const uint64_t bytes = b.model_bytes + b.context_bytes + b.compute_bytes;
    if (b.device == "CPU") {
      c.llama_host += bytes;
    } else {
      c.llama_device += bytes;
      if (c.device.empty()) c.device = b.device;
    }
  }
  c.estimate_weights = f.device.weights + f.host.weights;
  c.estimate_kv = f.device.kv + f.host.kv + f.device.recurrent + f.host.recurrent;  // llama.cpp's "context": KV + state
  c.estimate_compute = f.device.compute + f.host.compute;
  if (split) {
    if (c.device.empty()) c.device = "the device";
    c.estimate_device = f.device.weights + f.device.kv + f.device.recurrent + f.device.compute;
    c.estimate_host = f.host.weights + f.host.kv + f.host.recurrent + f.host.compute;
  } else {
    c.device.clear();
  }
  if (!mmproj.empty()) {  // fit counts the projector as weights and compute on the device; here on its own
    auto real_projector = engine::simulate_projector(mmproj, ctx.flash_attn, split);
    if (!real_projector) return std::unexpected(real_projector.error());
    c.projector = true;
    c.estimate_projector = ctx.mmproj_weights_bytes + ctx.mmproj_compute_bytes;
    c.estimate_weights -= ctx.mmproj_weights_bytes;
    c.estimate_compute -= ctx.mmproj_compute_bytes;
    for (const auto& m : *real_projector) {
      c.llama_projector += m.bytes;
      (m.device == "CPU" ? c.llama_host : c.llama_device) += m.bytes;
    }
  }
  return c;
}

// The model as the answer names it: its name (and --quant for a preset), and where it came from.
std::string model_label(const FitRequest& o, const model::ModelShape& shape) {
  return o.preset.empty() ? shape.name : shape.name + " " + o.quant;
}
std::string model_source(const FitRequest& o) {
  return o.model.empty() ? "preset " + o.preset + " " + o.quant : o.model;
}

// -fitt's MiB as bytes: what every planned device keeps free.
uint64_t fit_reserve_bytes(const FitRequest& o) { return static_cast<uint64_t>(o.fit_target_mib) << 20; }

Result<int> parse_ngl(const std::string& v) {
  if (v == "auto") return -2;
  int n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < -1) {
    return fail(ErrorCode::kUsage, "-ngl/--n-gpu-layers '" + v + "': expected a number of layers, -1 (all) or auto");
  }
  return n;
}

// The model's shape: from the file, or from a preset written header-only to `tmp` (whose
// path then names the model for --check).
Result<model::ModelShape> load_shape(const FitRequest& o, std::string& path, std::optional<synth::PresetHeader>& tmp) {
  if (!o.model.empty() && !o.preset.empty()) {
    return fail(ErrorCode::kUsage,
                "fit: give a MODEL.gguf or --preset NAME, not both ('" + o.model + "' and --preset " + o.preset + ")");
  }
  if (o.model.empty() && o.preset.empty()) return fail(ErrorCode::kUsage, "fit: give a MODEL.gguf or --preset NAME");
  if (!o.model.empty()) {
    path = o.model;
    auto file = model::check_model_file(o.model);
    if (!file) return std::unexpected(file.error());
    file->shape.name = file->info.name;  // the file's name, as bench and an import name it (core/model_name.h)
    return std::move(file->shape);
  }
  auto preset = model::find_preset(o.preset);
  if (!preset) return std::unexpected(preset.error());
  auto written = synth::PresetHeader::write(*preset, o.quant);
  if (!written) return std::unexpected(written.error());
  tmp.emplace(std::move(*written));
  path = tmp->path();
  return model::read_shape(path);
}

// --rank, --min-tps, --vs: the catalog ranked for the model at -c (fit/ranking.h).
Result<fit::FitRankingReport> rank_catalog(const FitRequest& o, const model::ModelShape& shape,
                                           const fit::ContextParams& ctx, int ngl, const MachineInfo& machine) {
  auto by = fit::parse_rank_by(o.rank.empty() ? "price" : o.rank);
  if (!by) return std::unexpected(by.error());
  if (o.device != "auto" && o.device != "all") {
    return fail(ErrorCode::kUsage, "--rank/--min-tps/--vs rank the whole catalog: drop --device " + o.device);
  }
  // Without -c: llama.cpp's default context, the model's n_ctx_train, one for every option (the
  // report's what-to-buy answers plan at it too), and said.
  fit::ContextParams at = ctx;
  std::string ctx_note;
  if (at.n_ctx <= 0) {
    if (shape.n_ctx_train == 0)
      return fail(ErrorCode::kUsage,
                  "--rank/--min-tps/--vs: the model states no n_ctx_train: give the context with -c N");
    at.n_ctx = static_cast<int>(shape.n_ctx_train);
    ctx_note = "n_ctx = n_ctx_train " + std::to_string(at.n_ctx) +
               " (llama.cpp's default context, for every option; -c N ranks at another)";
  }
  if (o.count > 1 || !o.tensor_split.empty()) {
    return fail(ErrorCode::kUsage, "--rank/--min-tps/--vs choose the device count themselves: drop --count/-ts");
  }
  auto plan = fit::catalog_plan(o.host_ram_gib, o.host_bandwidth_gbps, machine);
  if (!plan) return std::unexpected(plan.error());
  const std::vector<hw::CatalogDevice>* catalog = &plan->catalog;
  auto make_target = [&](const hw::CatalogDevice& d) {
    fit::Target t = plan->target(d);
    t.reserve_bytes = fit_reserve_bytes(o);
    return t;
  };
  fit::FitRankingReport rep;
  if (!ctx_note.empty()) rep.notes.push_back(ctx_note);
  rep.model = model_label(o, shape);
  rep.model_path = model_source(o);
  rep.ranking = fit::rank_devices(shape, *catalog, make_target, at, ngl, o.n_depth, *by, o.min_tps);
  const std::string file_type = o.preset.empty() ? "" : o.quant;
  const SpeedBasis basis = shape.causal ? load_speed_basis(*catalog) : SpeedBasis{};  // read once for both
  predict_ranking(rep, basis, shape, file_type, *catalog);
  if (!o.vs.empty()) {
    const auto names = split_list(o.vs);
    if (names.size() != 2) return fail(ErrorCode::kUsage, "--vs '" + o.vs + "': expected two catalog names, A,B");
    std::vector<fit::BuyOption> pair;
    std::vector<hw::CatalogDevice> both;
    for (const std::string& name : names) {
      auto d = hw::find_device(*catalog, name);
      if (!d) return std::unexpected(d.error());
      pair.push_back(fit::plan_option(shape, *d, make_target(*d), at, ngl, o.n_depth, 1));
      both.push_back(std::move(*d));
    }
    rep.vs = fit::compare_devices(pair[0], pair[1]);
    if (shape.causal) {
      DevicePredictions pred = predict_devices(basis, shape, file_type, both);
      if (pred.tg.size() == 2) {
        for (std::size_t i = 0; i < 2; ++i) {
          if (pair[i].verdict != fit::Verdict::kFits) pred.tg[i] = no_prediction_for_partial_offload();
        }
        fit::add_vs_predictions(*rep.vs, pred.tg[0], pred.tg[1]);
      }
    }
  }
  return rep;
}

}  // namespace

Result<FitAnswer> answer_fit(const FitRequest& o, const std::function<MachineInfo()>& describe_machine) {
  auto ngl = parse_ngl(o.n_gpu_layers);
  if (!ngl) return std::unexpected(ngl.error());
  BenchParams p;  // the knobs fit shares with bench, checked and normalized as bench does
  for (const Knob& k : knobs()) {
    const auto it = o.knobs.find(k.key);
    if (!k.fit_shared || it == o.knobs.end() || it->second.empty()) continue;
    if (Status s = set_knob(k, p, it->second); !s) return std::unexpected(s.error());
  }
  if (const std::string why = fit::unplanned_split_mode(p.split_mode); !why.empty())
    return fail(ErrorCode::kUsage, why);
  std::vector<double> split;
  if (!o.tensor_split.empty()) {
    auto shares = parse_tensor_split(o.tensor_split);
    if (!shares) return std::unexpected(shares.error());
    split = std::move(*shares);
  }
  bool multi = (o.count > 1 || !split.empty()) && o.rpc.empty() && o.rpc_device.empty();
  if (multi && (o.device == "auto" || o.device == "all")) {
    return fail(ErrorCode::kUsage, "--count/-ts: name one catalog --device to split over");
  }
  if (multi && !split.empty() && static_cast<int>(split.size()) != o.count) {
    return fail(ErrorCode::kUsage, "-ts/--tensor-split '" + o.tensor_split + "': " + std::to_string(split.size()) +
                                       " shares for --count " + std::to_string(o.count));
  }
  std::string path;
  std::optional<synth::PresetHeader> tmp;
  auto shape = load_shape(o, path, tmp);
  if (!shape) return std::unexpected(shape.error());

  fit::ContextParams ctx;
  ctx.n_ctx = o.ctx_size;
  ctx.n_batch = p.n_batch;
  ctx.n_ubatch = p.n_ubatch;
  // llama-server's slots: -np N has N sequences, each its own KV stream of n_ctx/N unless -kvu;
  // without -np the pinned release opens 4 slots over one unified cache (tools/server/server.cpp).
  const bool auto_slots = o.n_parallel == "auto";
  ctx.n_seq = auto_slots ? kAutoSlots : std::stoi(o.n_parallel);  // checked by the option's validator
  if (o.kv_unified && o.no_kv_unified) return fail(ErrorCode::kUsage, "-kvu and -no-kvu: give one, not both");
  ctx.kv_unified = o.kv_unified || (auto_slots && !o.no_kv_unified);
  ctx.swa_full = o.swa_full;
  ctx.type_k = p.type_k;
  ctx.type_v = p.type_v;
  ctx.flash_attn = p.flash_attn != "off";
  ctx.offload_kqv = p.no_kv_offload == 0;
  if (Status s = fit::check_cache_types(*shape, ctx); !s) return std::unexpected(s.error());
  ctx.tensor_overrides = run_tensor_overrides(p.tensor_buft_overrides, p.cpu_moe != 0, p.n_cpu_moe);
  if (!o.mmproj.empty()) {
    auto projector = model::read_projector_shape(o.mmproj);
    if (!projector) return std::unexpected(projector.error());
    ctx.mmproj_weights_bytes = projector->weights_bytes;
    ctx.mmproj_compute_bytes = fit::projector_compute_bytes(*projector, ctx.flash_attn);
  }

  const MachineInfo machine = describe_machine();
  auto local = fit::resolve_machine_devices(machine, o.device);
  if (!local) return std::unexpected(local.error());
  if (o.check && !local->on_machine && o.rpc.empty())
    return fail(ErrorCode::kUsage,
                "--check compares on this machine: use it with --device auto or this machine's -dev");
  if (p.split_mode == "none" && local->on_machine && !local->gpus.empty()) {
    auto keep = fit::single_device_index(p.main_gpu, local->gpus.size());
    if (!keep) return std::unexpected(keep.error());
    local->gpus = std::vector<const DeviceInfo*>{local->gpus[*keep]};
    local->named = true;
  }
  if (wants_rpc_fit(o)) {
    if (fit_reserve_bytes(o) != fit::kFitMarginBytes) {
      return fail(ErrorCode::kUsage,
                  "-fitt/--fit-target with --rpc/--rpc-device: a split over machines is planned "
                  "with llama.cpp's default 1024 MiB per device; drop -fitt");
    }
    FitAnswer answer;
    if (Status s =
            answer_rpc_fit(o, p, *shape, ctx, *ngl, machine, model_label(o, *shape), model_source(o), path, answer);
        !s)
      return std::unexpected(s.error());
    return answer;
  }
  if (!o.rank.empty() || o.min_tps > 0 || !o.vs.empty()) {
    auto ranking = rank_catalog(o, *shape, ctx, *ngl, machine);
    if (!ranking) return std::unexpected(ranking.error());
    FitAnswer answer;
    answer.ranking = std::move(*ranking);
    return answer;
  }
  std::vector<fit::Target> targets;
  FitAnswer answer;
  fit::FitReport& rep = answer.report;
  if (local->on_machine && local->gpus.size() > 1 && (local->named || o.ctx_size > 0)) {
    if (Status s = answer_machine_split_fit(o, p, *shape, ctx, *ngl, machine, local->gpus, model_label(o, *shape),
                                            model_source(o), path, answer);
        !s)
      return std::unexpected(s.error());
    return answer;
  }
  const bool catalog_wanted = !local->on_machine;
  if (multi && p.split_mode == "none") {
    auto keep = fit::single_device_index(p.main_gpu, static_cast<std::size_t>(o.count));
    if (!keep) return std::unexpected(keep.error());
    rep.notes.push_back("-sm none: llama.cpp keeps device " + std::to_string(*keep) + " of the " +
                        std::to_string(o.count) + " (-mg) alone; the other " + std::to_string(o.count - 1) +
                        " hold nothing");
    multi = false;
  }
  if (!catalog_wanted) {
    const double host_bw =
        o.host_bandwidth_gbps > 0 ? o.host_bandwidth_gbps : hw::host_bandwidth_gbps(machine);  // cached
    const DeviceInfo* gpu = local->gpus.empty() ? nullptr : local->gpus.front();
    fit::Target t = fit::machine_device_target(machine, host_bw, gpu);
    if (local->gpus.size() > 1) {
      rep.notes.push_back("this machine has " + std::to_string(local->gpus.size()) +
                          " GPUs and llama.cpp splits over all of them; planned on " + gpu->name +
                          " alone: give -c N to plan the split (or -dev A/B)");
    }
    // The largest tensor the device's ops take (lavapipe: 128 MiB), asked of the device itself.
    if (gpu != nullptr) {
      if (auto limit = engine::max_op_tensor_bytes(gpu->name)) {
        t.max_tensor_bytes = *limit;
      } else {
        rep.notes.push_back("the largest tensor " + gpu->name + "'s ops take is unknown (" + limit.error().message +
                            "): planned as if it took any size, so tensors llama.cpp would keep on the host may "
                            "be counted on the device");
      }
    }
    // The table names it "this machine"; what it is goes above the table.
    rep.preamble.push_back("device: " + t.name);
    t.name = "this machine";
    targets.push_back(std::move(t));
  } else {
    auto catalog = hw::load_catalog(hw::catalog_path());
    if (!catalog) return std::unexpected(catalog.error());
    fit::HostChoice host = host_choice(o, machine);
    std::vector<hw::CatalogDevice> chosen;
    if (o.device == "all") {
      chosen = *catalog;
    } else {
      auto d = hw::find_device(*catalog, o.device);
      if (!d) return std::unexpected(d.error());
      chosen = {*d};
    }
    const bool stateless_gpu = std::any_of(
        chosen.begin(), chosen.end(), [](const hw::CatalogDevice& d) { return d.kind == "gpu" && d.host.empty(); });
    if (stateless_gpu && !host.bandwidth_gbps) host.machine_bandwidth_gbps = hw::host_bandwidth_gbps(machine);
    for (const auto& d : chosen) {
      targets.push_back(fit::catalog_target(d, *catalog, host));
      rep.usd_per_gib.push_back(d.usd_per_gib().value_or(-1.0));
    }
    if (!multi && shape->causal) {
      const SpeedBasis basis = load_speed_basis(*catalog);
      DevicePredictions pred = predict_devices(basis, *shape, o.preset.empty() ? "" : o.quant, chosen);
      rep.tg_predicted = std::move(pred.tg);
      rep.pp_predicted = std::move(pred.pp);
      if (!basis.note.empty()) rep.notes.push_back(basis.note);
    }
    rep.notes.push_back(std::string("a catalog GPU sits beside its stated host (`rigbench devices -o json`: its host; "
                                    "the RAM and bandwidth are that entry's)") +
                        (host.ram_bytes || host.bandwidth_gbps ? ", here with --host-ram/--host-bandwidth" : "") +
                        ": the tg bound of a partial offload counts that side too");
  }
  for (auto& t : targets) t.reserve_bytes = fit_reserve_bytes(o);
  for (const auto& t : targets) {
    if (multi) {
      const double price = rep.usd_per_gib.empty() ? -1.0 : rep.usd_per_gib.front();
      rep.usd_per_gib.clear();
      for (auto& r : o.ctx_size > 0
                         ? fit::plan_fit_split(*shape, t, ctx, *ngl, o.n_depth, o.count, split)
                         : fit::plan_fit_split_default_context(*shape, t, ctx, *ngl, o.n_depth, o.count, split)) {
        rep.results.push_back(std::move(r));
        rep.usd_per_gib.push_back(price);
      }
      continue;
    }
    rep.results.push_back(o.ctx_size > 0 ? fit::plan_fit(*shape, t, ctx, *ngl, o.n_depth)
                                         : fit::plan_fit_default_context(*shape, t, ctx, *ngl, o.n_depth));
  }
  if (!catalog_wanted && shape->causal && rep.results.size() == 1) {  // from this machine's own stored runs
    const OwnBasis own = load_own_basis(o.db_path, machine, rep.results.front().target);
    DevicePredictions pred =
        predict_this_machine(own, *shape, ctx, o.n_depth, o.preset.empty() ? "" : o.quant, rep.results.front());
    rep.tg_predicted = std::move(pred.tg);
    rep.pp_predicted = std::move(pred.pp);
    rep.notes.push_back(own.note);
  }
  if (!catalog_wanted && !rep.results.empty() && rep.results.front().target.backend == "cpu") {
    // The verdict uses total RAM (stable, as llama.cpp's --fit); what other processes hold now is a note.
    const uint64_t available = hw::available_ram_bytes(), needed = rep.results.front().device.total();
    if (available > 0 && needed > available) {
      rep.notes.push_back("this machine: the plan needs " + format_bytes(needed) + " and " + format_bytes(available) +
                          " of RAM is available now (other processes hold the rest): the OS may page or swap");
    }
  }
  rep.model = model_label(o, *shape);
  rep.model_path = model_source(o);
  rep.n_seq = ctx.n_seq;
  rep.kv_unified = ctx.kv_unified;
  rep.auto_slots = o.n_parallel == "auto";
  rep.weights_bytes = shape->tensor_bytes;
  if (shape->causal) {  // a model that generates no tokens one by one has no bound (fit_table says why)
    rep.notes.push_back(
        "tg bound = bandwidth / bytes read per token (weights on each device, MoE experts scaled by used/total, "
        "KV at n_depth " +
        std::to_string(o.n_depth) + ", -d): an upper bound, not a measurement");
  }
  // The dataset holds full offloads: a plan that leaves layers in host RAM has no basis.
  for (std::size_t i = 0; i < rep.results.size() && i < rep.tg_predicted.size(); ++i) {
    if (rep.results[i].verdict == fit::Verdict::kFits) continue;
    rep.tg_predicted[i] = rep.pp_predicted[i] = no_prediction_for_partial_offload();
  }
  if (catalog_wanted)
    rep.notes.push_back(
        "a discrete GPU's weights exclude the input embeddings (token_embd), which llama.cpp keeps in host RAM");
  if (catalog_wanted && shape->causal && std::none_of(shape->tensors.begin(), shape->tensors.end(), [](const auto& t) {
        return t.name == "output.weight";
      })) {
    rep.notes.push_back(
        "tied embeddings: the output layer is a copy of token_embd, and llama.cpp puts that copy on the device "
        "holding the output layer (counted there)");
  }
  // Only where a plan keeps repackable weights on the CPU (a CPU row, a partial offload, -ot):
  // with every layer on a GPU the CPU multiplies none, and repacks none.
  uint64_t repack = 0;
  for (const fit::FitResult& r : rep.results) repack = std::max(repack, r.device.repack + r.host.repack);
  if (repack > 0) {
    rep.notes.push_back("on a CPU with AVX2, llama.cpp keeps an interleaved copy of " +
                        std::string(rep.results.size() > 1 ? "up to " : "") + format_bytes(repack) +
                        " of the weights the CPU multiplies (CPU_REPACK); the mapped originals become "
                        "reclaimable page cache, so the process RSS may show both until memory is needed");
  }
  // --check compares on this machine's backend.
  if (o.check) {
    auto c = check_of(path, o.mmproj, ctx, rep.results.front(), local->devices_spec());
    if (c) answer.check = std::move(*c);
    else answer.check_error = std::unexpected(c.error());
  }
  return answer;
}

fit::HostChoice host_choice(const FitRequest& o, const MachineInfo& machine) {
  fit::HostChoice host;
  if (o.host_ram_gib > 0) host.ram_bytes = static_cast<uint64_t>(o.host_ram_gib * (1ull << 30));
  if (o.host_bandwidth_gbps > 0) host.bandwidth_gbps = o.host_bandwidth_gbps;
  host.machine_ram_bytes = machine.ram_bytes;
  return host;
}

engine::SimulationSpec simulation_spec(const std::string& path, const fit::ContextParams& ctx, int n_ctx) {
  engine::SimulationSpec sim;
  sim.path = path;
  sim.n_ctx = n_ctx;
  sim.n_batch = ctx.n_batch;
  sim.n_ubatch = ctx.n_ubatch;
  sim.n_seq = ctx.n_seq;
  sim.kv_unified = ctx.kv_unified;
  sim.swa_full = ctx.swa_full;
  sim.tensor_buft_overrides = tensor_overrides_text(ctx.tensor_overrides);  // -ot, -cmoe, -ncmoe, as planned
  sim.type_k = ctx.type_k;
  sim.type_v = ctx.type_v;
  sim.flash_attn = ctx.flash_attn ? "on" : "off";
  sim.no_kv_offload = ctx.offload_kqv ? 0 : 1;
  return sim;
}

}  // namespace rigbench::measure
