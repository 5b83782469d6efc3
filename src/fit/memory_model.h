// rigbench: the memory llama.cpp allocates for a model and context, estimated from the
// model's shape alone (docs/fit.md), split between the host and one offload device.
//
// Components, each in bytes:
//   weights  exact per-tensor bytes from GGUF tensor infos; token_embd stays on the host;
//            with -ngl N the last N blocks and the output layer (which counts inside N and is
//            offloaded first) go to the device
//   kv       per layer: K = row_size(type_k, head_k x n_head_kv) x kv_size, V likewise with
//            head_v (none for MLA, whose K holds kv_lora + rope); kv_size = n_ctx padded to
//            256 (per sequence when --parallel > 1); sliding-window layers use
//            PAD(min(kv_size, n_swa x n_seq + n_ubatch), 256); encoders keep none
//   compute  the scheduler's worst-case graph (n_tokens = min(n_ctx, n_ubatch), every token an
//            output), the largest of three phases of live tensors:
//              attention: mask (F16 with flash attention, else F32) + activations
//                         (4 n_embd + q + 2 kv per token) + without flash attention the
//                         KQ scores (n_kv x n_tokens x n_head, F32); MLA adds the absorbed
//                         query and output (2 x n_head x (kv_lora + rope) per token)
//              FFN:       mask + (2 n_embd + 3 n_ff) per token, for MoE 3 x (used experts x
//                         expert n_ff + shared) per token
//              output:    (n_vocab + 2 n_embd) per token (F32 logits of every token)
//            derived from llama.cpp's graph and checked against its no_alloc simulation
//            (tests/unit/fit/fit_memory_model_test.cpp, bench/fit_accuracy)
//   output   host logits buffer: n_vocab x n_seq x 4 (+ n_embd x n_seq x 4 for embeddings)
//   overhead per backend, not reserved by llama.cpp (CUDA context, cuBLAS workspace): a stated
//            figure per backend, see backend_overhead_bytes(). On the CPU, llama.cpp also
//            keeps interleaved copies (CPU_REPACK: Q4_0, Q4_K, IQ4_NL and MXFP4 matrices whose
//            row count is a multiple of 8, on x86 CPUs with AVX2); the mapped originals of those
//            tensors become page cache the OS can reclaim, so they are not counted twice here
//            (its breakdown and the process RSS do show both): see repack_bytes()
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model_shape.h"

namespace rigbench::fit {

struct ContextParams {
  int n_ctx = 4096;          // tokens (before padding)
  int n_batch = 2048;
  int n_ubatch = 512;
  int n_seq = 1;             // --parallel
  std::string type_k = "f16";
  std::string type_v = "f16";
  bool flash_attn = true;    // llama.cpp's "auto" resolves to on for these backends
  bool offload_kqv = true;   // false = --no-kv-offload: the KV cache stays on the host
};

struct Components {
  uint64_t weights = 0, kv = 0, compute = 0, output = 0, overhead = 0;
  uint64_t total() const { return weights + kv + compute + output + overhead; }
};

struct MemorySplit {
  Components host;    // CPU RAM
  Components device;  // the offload device (zero when n_gpu_layers = 0)
  int n_gpu_layers = 0;  // blocks + output layer offloaded, as llama.cpp counts them (0..n_layer+1)
  int kv_size = 0;       // cells per full-attention layer (n_ctx after padding)
};

// llama.cpp's context padding: n_ctx rounded up to 256 (per sequence when n_seq > 1).
int padded_context(int n_ctx, int n_seq);

// Estimates the memory of `shape` with `ctx`, offloading `n_gpu_layers` (clamped to
// 0..n_layer+1; -1 = all) to a device of backend `backend` ("cpu" keeps everything on the
// host). Unknown cache type names count as f16.
MemorySplit estimate_memory(const model::ModelShape& shape, const ContextParams& ctx, int n_gpu_layers,
                            const std::string& backend);

// As estimate_memory, with the offloaded layers split over several devices of `backend` in
// the proportions `split` (llama.cpp's -ts: layer il goes to the device whose share of the
// cumulative split covers (il - first offloaded layer) / offloaded layers; the output layer
// is the last one counted). Each device gets its layers' weights and KV, a compute buffer
// (with the output phase where the output layer is) and the backend's overhead. `host`
// receives what stays on the host. An empty or all-zero split is an equal split.
std::vector<Components> estimate_split(const model::ModelShape& shape, const ContextParams& ctx, int n_gpu_layers,
                                       const std::string& backend, std::vector<double> split, Components& host);

// Runtime memory a backend needs beyond llama.cpp's own buffers, bytes (stated figures):
// cuda 400 MiB (context ~300 MiB + cuBLAS workspace, docs/fit.md), rocm 400 MiB,
// vulkan 256 MiB, metal 64 MiB, cpu 0.
uint64_t backend_overhead_bytes(const std::string& backend);

// Bytes of the interleaved copies llama.cpp's CPU backend makes of the weights it multiplies
// on the host (x86 with AVX2; see above). The input embeddings are looked up, not repacked.
uint64_t repack_bytes(const model::ModelShape& shape);

}  // namespace rigbench::fit
