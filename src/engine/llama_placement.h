// rigbench: where a load puts the model, as llama-bench and llama-server place it: the
// devices (-dev, --rpc), the split over them (-sm, -mg, -ts) and the weights the user moves
// (-ot, -cmoe, -ncmoe), turned into llama_model_params; the context's -nkvo and -nopo.
// One placement for bench's engine and for llama.cpp's no_alloc plan (engine/llama_simulate).
#pragma once

#include <llama.h>

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "core/tensor_overrides.h"
#include "engine/llama_rpc.h"

namespace rigbench::engine {

// What llama_model_params points at for one load: kept alive for as long as the load runs.
// Movable; apply() again after a move.
struct ModelPlacement {
  std::vector<ggml_backend_dev_t> devices;  // null-terminated; empty = llama.cpp's own choice; {nullptr} = CPU only
  std::vector<float> split;                 // llama_max_devices() shares; empty = by free memory
  llama_split_mode split_mode = LLAMA_SPLIT_MODE_LAYER;
  int main_gpu = 0;
  std::vector<TensorOverride> overrides;                    // -ot, then -cmoe, -ncmoe (core/tensor_overrides.h)
  std::vector<llama_model_tensor_buft_override> buft;       // `overrides` for llama.cpp, null-terminated
  std::vector<RpcDevice> remote;                            // the rpc-servers' devices, attached

  // Sets `mp`'s devices, tensor_split, split_mode, main_gpu and tensor_buft_overrides.
  void apply(llama_model_params& mp) const;
};

// The placement of `p` (rpc, tensor_split, devices, split_mode, main_gpu,
// tensor_buft_overrides, cpu_moe, n_cpu_moe). -dev names ggml devices of this build
// (`rigbench hw` lists them); "none" keeps everything on the CPU.
// Errors (kUsage, one line): a -dev name this build has no device of (naming the build that
// has: "Vulkan0 needs the Vulkan build (RIGBENCH_BACKENDS=vulkan scripts/setup)"), a CPU
// device named in -dev (as llama-bench refuses it), an -ot buffer type no device of this
// build has, -sm row or tensor where this build's backends have no such split
// (llama.cpp: CUDA, SYCL for row); placement_for's (--rpc, -ts).
Result<ModelPlacement> model_placement(const BenchParams& p);

// check_placement (model_placement's checks alone, before anything runs) is declared in
// engine/llama_engine.h, for callers that do not see llama.h.

// Whether `p` asks llama.cpp to fit the placement itself (-fitt or -fitc set, as llama-bench).
bool fits_itself(const BenchParams& p);

// What llama.cpp's fitting chose for a load, in the knobs' own text (core/knobs.h): the record
// keeps these instead of what was asked.
struct FittedPlacement {
  int n_gpu_layers = -1;
  std::string tensor_split = "0.00";          // "a/b/..." to 2 decimals, as llama-bench prints -ts
  std::string tensor_buft_overrides = "none";  // "PATTERN=BUFT;...", as llama-bench prints -ot
};

// llama.cpp's own fitting of -ngl, -ts and -ot to the devices' free memory (common_fit_params,
// what llama-bench's -fitt MiB / -fitc N run): `mp` gets the placement for a context of
// max(n_ctx, fit_min_ctx) tokens with -fitt MiB kept free per device; `split` and `overrides`
// are the buffers it points into (kept alive by the caller for the load). llama.cpp's log of
// the fitting is not printed (it would go to standard output).
// Errors: kUsage with -ot, -cmoe, -ncmoe or -ts also set (llama.cpp chooses those itself),
// or in a build whose llama.cpp has no common_fit_params (an installed one); kRuntime when
// llama.cpp's fitting fails hard (the model cannot be read).
Result<FittedPlacement> fit_placement(const std::string& path, const BenchParams& p, const llama_context_params& cp,
                                      llama_model_params& mp, std::vector<float>& split,
                                      std::vector<llama_model_tensor_buft_override>& overrides);

// llama.cpp's split mode for -sm's canonical name (none, layer, row, tensor).
llama_split_mode split_mode_of(const std::string& name);

// The context's placement knobs: offload_kqv = !no_kv_offload, op_offload = !no_op_offload.
void apply_context_placement(const BenchParams& p, llama_context_params& cp);

}  // namespace rigbench::engine
