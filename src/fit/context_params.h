// rigbench: the context a memory plan is made for (llama.cpp's context parameters).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/tensor_overrides.h"

namespace rigbench::fit {

// A weight placement the user sets (-ot, --cpu-moe, --n-cpu-moe): core/tensor_overrides.h.
using TensorOverride = rigbench::TensorOverride;

// The batch sizes and cache types default to bench's knobs (core/knobs.h: BenchParams{}).
struct ContextParams {
  int n_ctx = 4096;  // tokens (before padding)
  int n_batch = BenchParams{}.n_batch;
  int n_ubatch = BenchParams{}.n_ubatch;
  int n_seq = 1;            // --parallel: sequences (llama-server's slots)
  bool kv_unified = false;  // -kvu: one KV stream shared by the sequences (llama.cpp's kv_unified), else one each
  bool swa_full = false;    // --swa-full: sliding-window layers keep the whole context, not the window
  std::string type_k = BenchParams{}.type_k;
  std::string type_v = BenchParams{}.type_v;
  bool flash_attn = true;                        // llama.cpp's "auto" resolves to on for these backends
  bool offload_kqv = true;                       // false = --no-kv-offload: the KV cache stays on the host
  std::vector<TensorOverride> tensor_overrides;  // -ot, --cpu-moe, --n-cpu-moe (a model parameter in llama.cpp)
  // A multimodal projector loaded beside the model (--mmproj): bytes of its weights and of its
  // compute buffer (fit/compute_buffer.h projector_compute_bytes). llama.cpp's mtmd puts both
  // on the main GPU when there is one (whatever -ngl), else in host RAM.
  uint64_t mmproj_weights_bytes = 0;
  uint64_t mmproj_compute_bytes = 0;
};

}  // namespace rigbench::fit
