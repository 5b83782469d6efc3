#include "engine/llama_simulate.h"

#include <llama.h>

#include <memory>

#if RIGBENCH_HAVE_MTMD
#include <ggml-backend.h>
#include <mtmd.h>
#endif

#include "engine/llama_placement.h"
#include "engine/llama_rpc.h"
#include "engine/llama_support.h"

namespace rigbench::engine {

Result<Simulation> simulate_memory(const SimulationSpec& spec) {
  init_llama();
  llama_model_params mp = llama_model_default_params();
  mp.no_alloc = true;
  mp.load_mode = LLAMA_LOAD_MODE_NONE;  // with mmap, no_alloc asserts
  mp.n_gpu_layers = spec.n_gpu_layers < 0 ? 999 : spec.n_gpu_layers;
  auto placed = model_placement(spec);  // as bench loads: rpc-servers, -ts, -dev, -sm, -mg, -ot, -cmoe, -ncmoe
  struct EndRpcRun {
    ~EndRpcRun() { end_rpc_run(); }  // SIGPIPE as it was before the servers were attached
  } end_rpc;
  if (!placed) return std::unexpected(placed.error());
  placed->apply(mp);
  clear_errors();
  ModelHandle model(llama_model_load_from_file(spec.path.c_str(), mp));
  if (!model) {
    return fail(ErrorCode::kInvalidInput,
                "model '" + spec.path + "': llama.cpp cannot load it: " + last_error("load failed"));
  }
  auto made = run_context_params(spec);  // as bench opens it, then a server's sequences
  if (!made) return std::unexpected(made.error());
  llama_context_params cp = *made;
  cp.n_seq_max = static_cast<uint32_t>(spec.n_seq);
  cp.kv_unified = spec.kv_unified;
  cp.swa_full = spec.swa_full;
  cp.n_threads = cp.n_threads_batch = 1;
  clear_errors();
  std::unique_ptr<llama_context, decltype(&llama_free)> ctx(llama_init_from_model(model.get(), cp), &llama_free);
  if (!ctx) {
    return fail(ErrorCode::kRuntime, "model '" + spec.path + "': cannot create a context (n_ctx " +
                                         std::to_string(spec.n_ctx) +
                                         "): " + last_error("llama_init_from_model failed"));
  }
  Simulation out;
  out.buffers = memory_breakdown(ctx.get());
  out.n_ctx = static_cast<int>(llama_n_ctx(ctx.get()));
  return out;
}

Result<std::vector<ProjectorMemory>> simulate_projector(const std::string& path, bool flash_attn, bool use_gpu) {
#if RIGBENCH_HAVE_MTMD
  init_llama();
  mtmd_context_params p = mtmd_context_params_default();
  p.use_gpu = use_gpu;
  p.flash_attn_type = flash_attn ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  p.warmup = true;  // the warm-up reserves the compute buffer
  p.n_threads = 1;
  const auto usage = mtmd_get_memory_usage(path.c_str(), p);
  if (usage.empty()) return fail(ErrorCode::kInvalidInput, "mmproj '" + path + "': llama.cpp's mtmd cannot load it");
  std::vector<ProjectorMemory> out;
  for (const auto& [dev, bytes] : usage) out.push_back({dev ? ggml_backend_dev_name(dev) : "CPU", bytes});
  return out;
#else
  (void)path, (void)flash_attn, (void)use_gpu;
  return fail(ErrorCode::kRuntime, "this build's llama.cpp has no mtmd (tools/mtmd): the projector cannot be checked");
#endif
}

}  // namespace rigbench::engine
