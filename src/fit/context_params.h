// rigbench: the context a memory plan is made for (llama.cpp's context parameters).
#pragma once

#include <string>
#include <vector>

namespace rigbench::fit {

// A weight placement the user sets, as llama.cpp's -ot/--override-tensor PATTERN=BUFT: a
// tensor whose name matches `pattern` (std::regex_search, ECMAScript; the first override that
// matches wins) goes to buffer type `buft`: "CPU" (any case) is host RAM, any other name
// (CUDA0, ROCm0, Vulkan0, Metal, ...) the offload device (its trailing digits pick the device
// of a split). --cpu-moe and --n-cpu-moe N are overrides too (see memory_model.h).
struct TensorOverride {
  std::string pattern;
  std::string buft;
};

struct ContextParams {
  int n_ctx = 4096;  // tokens (before padding)
  int n_batch = 2048;
  int n_ubatch = 512;
  int n_seq = 1;  // --parallel
  std::string type_k = "f16";
  std::string type_v = "f16";
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
