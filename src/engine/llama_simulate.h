// rigbench: llama.cpp's own memory plan for a model and context, without allocating:
// the model is loaded with no_alloc (simulated allocation; works on a header-only file)
// and llama_get_memory_breakdown() gives model, context and compute bytes per buffer type.
// The oracle against which fit's analytic estimate is checked (docs/fit.md).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::engine {

// The run to plan: bench's knobs (core/record.h BenchParams; their defaults are llama-bench's,
// declared once in core/knobs.h's table): n_ctx (tokens asked; here 4096 unless set), n_batch,
// n_ubatch, type_k, type_v, flash_attn, n_gpu_layers and the placement (-dev, -sm, -mg, -ts,
// --rpc, -ot, -cmoe, -ncmoe, -nkvo, -nopo; engine/llama_placement.h), plus what a server's
// context adds.
struct SimulationSpec : BenchParams {
  SimulationSpec() { n_ctx = 4096; }
  std::string path;
  int n_seq = 1;            // parallel sequences (n_seq_max, llama-server's -np)
  bool kv_unified = false;  // one KV buffer shared by the sequences (llama-server's -kvu)
  bool swa_full = false;    // a full-size cache for sliding-window layers (llama-server's --swa-full)
};

struct Simulation {
  std::vector<BufferMemory> buffers;  // per buffer type, from llama_get_memory_breakdown
  int n_ctx = 0;                      // the context llama.cpp created (after padding)
};

// Errors: kInvalidInput when llama.cpp cannot load the model; kRuntime when the context
// cannot be created; kRuntime when this build lacks llama-ext.h.
Result<Simulation> simulate_memory(const SimulationSpec& spec);

// A multimodal projector's memory as llama.cpp reserves it (--mmproj FILE): loaded by mtmd with
// no_alloc and warmed up, as llama-server's fitting does (mtmd_get_memory_usage): per ggml device,
// bytes of the weights clip loads (ggml_nbytes of each) plus the compute buffer reserved for its
// warm-up image.
struct ProjectorMemory {
  std::string device;  // ggml device name ("CPU", "Vulkan0", ...)
  uint64_t bytes = 0;  // bytes, weights + compute on that device
};

// `flash_attn`: the projector's attention with flash attention (mtmd's flash_attn_type, as
// llama-server passes its -fa); `use_gpu`: on the default GPU when there is one (mtmd's
// default), else on the CPU. Errors: kInvalidInput when mtmd cannot load the file (the message
// names it); kRuntime when this build has no mtmd (a llama.cpp without tools/mtmd).
Result<std::vector<ProjectorMemory>> simulate_projector(const std::string& path, bool flash_attn, bool use_gpu);

}  // namespace rigbench::engine
