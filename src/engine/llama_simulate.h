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

struct SimulationSpec {
  std::string path;
  int n_ctx = 4096;
  int n_batch = 2048;
  int n_ubatch = 512;
  int n_seq = 1;  // parallel sequences (n_seq_max)
  std::string type_k = "f16";
  std::string type_v = "f16";
  std::string flash_attn = "auto";  // auto | on | off
  int n_gpu_layers = -1;
  bool offload_kqv = true;
  std::string rpc = "none";            // rpc-servers whose devices take part (bench's --rpc value)
  std::string tensor_split = "0.00";   // -ts as bench takes it ("3/1"); "0.00" = by free memory
};

struct Simulation {
  std::vector<BufferMemory> buffers;  // per buffer type, from llama_get_memory_breakdown
  int n_ctx = 0;                      // the context llama.cpp created (after padding)
};

// Errors: kInvalidInput when llama.cpp cannot load the model; kRuntime when the context
// cannot be created; kRuntime when this build lacks llama-ext.h.
Result<Simulation> simulate_memory(const SimulationSpec& spec);

}  // namespace rigbench::engine
