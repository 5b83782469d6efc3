#include "engine/llama_placement.h"

#include <ggml-backend.h>
#ifdef RIGBENCH_HAVE_LLAMA_FIT
#include <fit.h>
#include <log.h>
#endif

#include <algorithm>

#include "core/knobs.h"
#include "core/rpc_endpoints.h"
#include "core/strings.h"
#include "engine/llama_engine.h"
#include "engine/llama_support.h"

namespace rigbench::engine {

namespace {

// The build that has a device named `name` ("Vulkan0", "CUDA1", "MTL0"), for the refusal.
std::string build_for(const std::string& name) {
  const std::string n = to_lower(name);
  if (n.rfind("vulkan", 0) == 0) return "the Vulkan build (RIGBENCH_BACKENDS=vulkan scripts/setup: build-vulkan/bin/rigbench)";
  if (n.rfind("cuda", 0) == 0) return "the CUDA build (RIGBENCH_BACKENDS=cuda scripts/setup: build-cuda/bin/rigbench)";
  if (n.rfind("mtl", 0) == 0 || n.rfind("metal", 0) == 0)
    return "the Metal build (RIGBENCH_BACKENDS=metal scripts/setup, macOS: build-metal/bin/rigbench)";
  return "a build with that backend";
}

// This build's devices other than the CPU, by name, for messages.
std::string offload_device_names() {
  std::vector<std::string> names;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    if (ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_CPU) names.emplace_back(ggml_backend_dev_name(dev));
  }
  return names.empty() ? "none but the CPU" : join(names, ", ");
}

// -dev's devices: {nullptr} for "none", the named ones null-terminated, empty for "auto".
Result<std::vector<ggml_backend_dev_t>> named_devices(const std::string& devices) {
  std::vector<ggml_backend_dev_t> out;
  const std::string v = trim(devices);
  if (v.empty() || v == "auto") return out;
  if (v == "none") return std::vector<ggml_backend_dev_t>{nullptr};
  for (const std::string& part : split(v, '/')) {
    const std::string name = trim(part);
    ggml_backend_dev_t dev = ggml_backend_dev_by_name(name.c_str());
    if (!dev) {
      return fail(ErrorCode::kUsage, "-dev/--device '" + v + "': this build has no device " + name + " (it has " +
                                         offload_device_names() + "); " + name + " needs " + build_for(name));
    }
    if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_CPU) {
      return fail(ErrorCode::kUsage, "-dev/--device '" + v + "': " + name +
                                         " is the CPU, which llama.cpp always uses; -dev none keeps everything on it");
    }
    out.push_back(dev);
  }
  out.push_back(nullptr);
  return out;
}

// The buffer type an -ot override names: "CPU" or a device's own buffer type (llama-bench
// looks them up the same way, by ggml_backend_buft_name).
Result<ggml_backend_buffer_type_t> buffer_type_named(const std::string& name, const std::string& ot) {
  if (to_lower(name) == "cpu") return ggml_backend_cpu_buffer_type();
  std::vector<std::string> known = {"CPU"};
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_buffer_type_t buft = ggml_backend_dev_buffer_type(ggml_backend_dev_get(i));
    if (!buft) continue;
    const std::string n = ggml_backend_buft_name(buft);
    if (n == name) return buft;
    if (n != "CPU") known.push_back(n);
  }
  return fail(ErrorCode::kUsage, "-ot/--override-tensor '" + ot + "': this build has no buffer type " + name +
                                     " (it has " + join(known, ", ") + "); " + name + " needs " + build_for(name));
}

// This build's GPUs (not the CPU, not an rpc-server's), counted.
int local_gpu_count() {
  int n = 0;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    const bool rpc = std::string(ggml_backend_reg_name(ggml_backend_dev_backend_reg(dev))) == "RPC";
    if (ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_CPU && !rpc) ++n;
  }
  return n;
}

// -sm row and tensor split over GPUs: refused where the run has none. -sm row needs a backend
// with split buffers (in llama.cpp v0.4.0 only SYCL exports ggml_backend_split_buffer_type;
// CUDA and Vulkan refuse it at load, which llama.cpp's own message then says). -mg names one of
// the run's GPUs.
Status check_split_mode(const BenchParams& p, const std::vector<ggml_backend_dev_t>& devices) {
  const bool cpu_only = devices.size() == 1 && devices[0] == nullptr;
  const int n_gpus = devices.empty() ? local_gpu_count() : static_cast<int>(devices.size()) - 1;
  if (p.main_gpu > 0 && p.main_gpu >= n_gpus) {
    return fail(ErrorCode::kUsage, "-mg/--main-gpu " + std::to_string(p.main_gpu) + ": this run has " +
                                       std::to_string(n_gpus) + " GPU" + (n_gpus == 1 ? "" : "s") +
                                       " (devices: " + offload_device_names() + "); -mg counts from 0");
  }
  const llama_split_mode mode = split_mode_of(p.split_mode);
  if (mode != LLAMA_SPLIT_MODE_ROW && mode != LLAMA_SPLIT_MODE_TENSOR) return {};
  if (!cpu_only && offload_device_names() != "none but the CPU") return {};
  return fail(ErrorCode::kUsage, "-sm/--split-mode " + p.split_mode + ": a split over GPUs, and this run has none (" +
                                     (cpu_only ? std::string("-dev none") : "this build has " + offload_device_names()) +
                                     "); it needs a GPU build whose backend splits " +
                                     (mode == LLAMA_SPLIT_MODE_ROW ? "rows (in llama.cpp v0.4.0: SYCL)"
                                                                   : "tensors (e.g. CUDA: RIGBENCH_BACKENDS=cuda scripts/setup)"));
}

// The ggml overrides of `p` (its -ot, -cmoe, -ncmoe) for `out`, which then owns the patterns.
Status resolve_overrides(const BenchParams& p, ModelPlacement& out) {
  out.overrides = run_tensor_overrides(p.tensor_buft_overrides, p.cpu_moe != 0, p.n_cpu_moe);
  out.buft.clear();
  for (const TensorOverride& o : out.overrides) {
    auto buft = buffer_type_named(o.buft, p.tensor_buft_overrides);
    if (!buft) return std::unexpected(buft.error());
    out.buft.push_back({nullptr, *buft});
  }
  // The patterns point into `overrides`, whose strings stay where they are when `out` moves.
  for (std::size_t i = 0; i < out.buft.size(); ++i) out.buft[i].pattern = out.overrides[i].pattern.c_str();
  if (!out.buft.empty()) out.buft.push_back({nullptr, nullptr});
  return {};
}

// -fitt/-fitc: llama.cpp's fitting sets -ngl, -ts and -ot itself, and needs common_fit_params.
Status check_fit_request(const BenchParams& p) {
  if (!fits_itself(p)) return {};
  if (p.tensor_buft_overrides != "none" || p.cpu_moe != 0 || p.n_cpu_moe != 0 ||
      !tensor_split_shares(p.tensor_split).empty()) {
    return fail(ErrorCode::kUsage, "-fitt/-fitc with -ot, -cmoe, -ncmoe or -ts: llama.cpp's fitting chooses the "
                                   "layers, split and overrides itself; give one or the other");
  }
#ifndef RIGBENCH_HAVE_LLAMA_FIT
  return fail(ErrorCode::kUsage, "-fitt/-fitc: this build's llama.cpp (an installed one) has no common_fit_params; "
                                 "build with RIGBENCH_LLAMA=bundled");
#else
  return {};
#endif
}

}  // namespace

Status check_placement(const BenchParams& p) {
  if (Status s = check_fit_request(p); !s) return s;
  const bool defaults = (trim(p.devices) == "auto" || trim(p.devices).empty()) && p.split_mode == "layer" &&
                        p.tensor_buft_overrides == "none" && p.main_gpu == 0;
  if (defaults) return {};
  init_llama();
  if (names_rpc_servers(p.rpc)) return {};  // the servers' devices exist once attached (model_placement)
  auto devices = named_devices(p.devices);
  if (!devices) return std::unexpected(devices.error());
  if (Status s = check_split_mode(p, *devices); !s) return s;
  ModelPlacement overrides;
  return resolve_overrides(p, overrides);
}

llama_split_mode split_mode_of(const std::string& name) {
  if (name == "none") return LLAMA_SPLIT_MODE_NONE;
  if (name == "row") return LLAMA_SPLIT_MODE_ROW;
  if (name == "tensor") return LLAMA_SPLIT_MODE_TENSOR;
  return LLAMA_SPLIT_MODE_LAYER;
}

void ModelPlacement::apply(llama_model_params& mp) const {
  if (!devices.empty()) mp.devices = const_cast<ggml_backend_dev_t*>(devices.data());
  if (!split.empty()) mp.tensor_split = split.data();
  mp.split_mode = split_mode;
  mp.main_gpu = main_gpu;
  mp.tensor_buft_overrides = buft.empty() ? nullptr : buft.data();
}

Result<ModelPlacement> model_placement(const BenchParams& p) {
  ModelPlacement out;
  auto placed = placement_for(p.rpc, p.tensor_split);
  if (!placed) return std::unexpected(placed.error());
  for (void* d : placed->devices) out.devices.push_back(static_cast<ggml_backend_dev_t>(d));
  out.split = std::move(placed->split);
  out.remote = std::move(placed->remote);
  if (trim(p.devices) != "auto" && !trim(p.devices).empty()) {
    auto named = named_devices(p.devices);
    if (!named) return std::unexpected(named.error());
    out.devices = std::move(*named);
  }
  out.split_mode = split_mode_of(p.split_mode);
  out.main_gpu = p.main_gpu;
  if (Status s = check_split_mode(p, out.devices); !s) return std::unexpected(s.error());
  if (Status s = resolve_overrides(p, out); !s) return std::unexpected(s.error());
  return out;
}

bool fits_itself(const BenchParams& p) { return p.fit_target > 0 || p.fit_min_ctx > 0; }

Result<FittedPlacement> fit_placement(const std::string& path, const BenchParams& p, const llama_context_params& cp,
                                      llama_model_params& mp, std::vector<float>& split,
                                      std::vector<llama_model_tensor_buft_override>& overrides) {
  if (Status s = check_fit_request(p); !s) return std::unexpected(s.error());
#ifndef RIGBENCH_HAVE_LLAMA_FIT
  (void)path, (void)cp, (void)mp, (void)split, (void)overrides;
  return fail(ErrorCode::kRuntime, "unreachable: check_fit_request refuses -fitt/-fitc in this build");
#else
  split.assign(llama_max_devices(), 0.0f);
  overrides.assign(llama_max_tensor_buft_overrides(), {nullptr, nullptr});
  // As llama-bench: the default -ngl, this buffer for -ts and -ot, so that fitting may change them.
  mp.n_gpu_layers = llama_model_default_params().n_gpu_layers;
  mp.tensor_split = split.data();
  mp.tensor_buft_overrides = overrides.data();
  llama_context_params fit_cp = cp;
  fit_cp.n_ctx = std::max<uint32_t>(cp.n_ctx, static_cast<uint32_t>(p.fit_min_ctx));
  std::vector<size_t> margins(llama_max_devices(), static_cast<size_t>(p.fit_target) << 20);
  common_log_pause(common_log_main());  // its INFO lines go to stdout, where rigbench's table or JSON goes
  const common_params_fit_status status =
      common_fit_params(path.c_str(), &mp, &fit_cp, split.data(), overrides.data(), margins.data(),
                        static_cast<uint32_t>(p.fit_min_ctx), nullptr, GGML_LOG_LEVEL_ERROR);
  if (status == COMMON_PARAMS_FIT_STATUS_ERROR) {
    return fail(ErrorCode::kRuntime, "model '" + path + "': llama.cpp's fitting (-fitt/-fitc) failed: " +
                                         last_error("common_fit_params failed"));
  }
  FittedPlacement out;
  out.n_gpu_layers = mp.n_gpu_layers;
  std::vector<std::string> shares;
  bool any = false;
  for (float s : split) any = any || s > 0;
  if (any) {
    std::size_t n = split.size();
    while (n > 1 && split[n - 1] == 0) --n;
    for (std::size_t i = 0; i < n; ++i) shares.push_back(format_fixed(split[i], 2));
    out.tensor_split = join(shares, "/");
  }
  std::vector<TensorOverride> chosen;
  for (const auto& o : overrides) {
    if (!o.pattern) break;
    chosen.push_back({o.pattern, o.buft ? ggml_backend_buft_name(o.buft) : "CPU"});
  }
  out.tensor_buft_overrides = tensor_overrides_text(chosen);
  return out;
#endif
}

void apply_context_placement(const BenchParams& p, llama_context_params& cp) {
  cp.offload_kqv = p.no_kv_offload == 0;
  cp.op_offload = p.no_op_offload == 0;
}

}  // namespace rigbench::engine
