// rigbench: the memory llama.cpp allocates for a model and context, estimated from the
// model's shape alone (docs/fit.md), split between the host and one offload device.
//
// Components, each in bytes:
//   weights  exact per-tensor bytes from GGUF tensor infos; token_embd stays on the host;
//            with -ngl N the last N blocks and the output layer (which counts inside N and is
//            offloaded first) go to the device; the user's overrides (ContextParams::
//            tensor_overrides: -ot, --cpu-moe, --n-cpu-moe) come first. A decoder without
//            output.weight (tied embeddings): llama.cpp duplicates token_embd into the output
//            layer's buffer type, so the copy counts again where that buffer differs from the
//            input's: on the device when the output layer is offloaded, on the CPU when the type
//            is repackable (the CPU_REPACK copy; Q4_0, Q4_K, IQ4_NL, MXFP4 with rows % 8 == 0)
//   kv       per layer, see fit/kv_cache.h
//   recurrent per recurrent layer and sequence, see fit/kv_cache.h
//   compute  the worst-case graph per device, see fit/compute_buffer.h; with every layer on
//            devices the host keeps the graph's inputs and the embedding lookup
//            (offloaded_host_compute_bytes)
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

#include "core/status.h"
#include "fit/compute_buffer.h"
#include "fit/context_params.h"
#include "fit/kv_cache.h"
#include "model/model_shape.h"

namespace rigbench::fit {

struct Components {
  uint64_t weights = 0, kv = 0, compute = 0, output = 0, overhead = 0;
  uint64_t recurrent = 0;  // recurrent state (mamba, rwkv, hybrids), with its layer; see fit/kv_cache.h
  // Of `weights`, on the host only: the bytes of the weights llama.cpp's CPU backend keeps an
  // interleaved copy of (CPU_REPACK, repack_bytes' rule) because the CPU multiplies them here;
  // 0 where every such weight is on a device. Not in total(): the mapped originals become
  // reclaimable page cache (see above).
  uint64_t repack = 0;
  uint64_t total() const { return weights + kv + recurrent + compute + output + overhead; }
};

struct MemorySplit {
  Components host;       // CPU RAM
  Components device;     // the offload device (zero when n_gpu_layers = 0)
  int n_gpu_layers = 0;  // blocks + output layer offloaded, as llama.cpp counts them (0..n_layer+1)
  int kv_size = 0;       // cells per full-attention layer (n_ctx after padding)
};

// Estimates the memory of `shape` with `ctx`, offloading `n_gpu_layers` (clamped to
// 0..n_layer+1; -1 = all) to a device of backend `backend` ("cpu" keeps everything on the
// host). Unknown cache type names count as f16. `max_tensor_bytes`: the largest tensor the
// device's ops accept (0: no limit; ggml-vulkan refuses tensors beyond the device's
// maxStorageBufferRange, 128 MiB on Mesa's lavapipe): a weight beyond it, or whose product
// with 512 tokens is (llama.cpp's test when it places weights), stays on the host with its op,
// so a tied token_embd is then not copied to the device; where the output layer's weight or
// its logits are beyond it, the host runs the output layer (and reserves its phase).
MemorySplit estimate_memory(const model::ModelShape& shape, const ContextParams& ctx, int n_gpu_layers,
                            const std::string& backend, uint64_t max_tensor_bytes = 0);

// As estimate_memory, with the offloaded layers split over several devices of `backend` in
// the proportions `split` (llama.cpp's -ts: layer il goes to the device whose share of the
// cumulative split covers (il - first offloaded layer) / offloaded layers; the output layer
// is the last one counted). Each device gets its layers' weights and KV, a compute buffer
// (with the output phase where the output layer is; under pipeline parallelism, where
// backend_pipelines(backend), its copies: see estimate_split_devices) and the backend's
// overhead. `host` receives what stays on the host. An empty or all-zero split is an equal split.
std::vector<Components> estimate_split(const model::ModelShape& shape, const ContextParams& ctx, int n_gpu_layers,
                                       const std::string& backend, std::vector<double> split, Components& host);

// As estimate_split over unlike devices, each with its own backend (`backends`, one per
// share; the last repeats when fewer; it gives each device its overhead): llama.cpp's split over
// rpc-servers and local GPUs. `async_devices`: every device reports async compute and events
// (backend_pipelines of the backend llama.cpp sees: "rpc" for an rpc-server's device, whatever
// runs behind it).
//
// Pipeline parallelism (llama-context.cpp): with more than one device, every layer and the output
// layer offloaded (-ngl > n_layer), the KV cache offloaded, no tensor overrides (-ot, --cpu-moe)
// and async_devices, llama.cpp's scheduler keeps kPipelineCopies of what crosses into each split:
// the host's compute is then pipeline_host_compute_bytes, each device's holding layers
// pipeline_device_compute_bytes for its place in the split (compute_buffer.h). estimate_split
// applies the same rule to `count` devices of one backend (fit --device NAME --count N).
std::vector<Components> estimate_split_devices(const model::ModelShape& shape, const ContextParams& ctx,
                                               int n_gpu_layers, const std::vector<std::string>& backends,
                                               bool async_devices, std::vector<double> split, Components& host);

// Whether ggml's device of `backend` reports async compute and events (ggml_backend_dev_props
// caps, each backend's get_props in third_party/llama.cpp/ggml/src), which llama.cpp asks of every
// device before it pipelines: true for "cuda" and "rocm" (ggml-cuda and ggml-hip; false only in a
// build with GGML_CUDA_NO_PEER_COPY, off by default), "vulkan" (every device, lavapipe included),
// "sycl", "metal" and "rpc"; false for "cpu" (not a device llama.cpp splits over) and every other
// name (OpenCL, CANN, WebGPU report no async compute; "gpu", a backend not known, is not assumed to).
bool backend_pipelines(const std::string& backend);

// llama.cpp's split rule alone: for each layer 0..n_layer (n_layer = the output layer) the
// index of the device in `split` that holds it, -1 for the host (not offloaded). An empty or
// all-zero split is an equal split.
std::vector<int> split_layer_devices(int n_layer, int n_gpu_layers, std::vector<double> split);

// -ot, --cpu-moe and --n-cpu-moe are parsed in core/tensor_overrides.h (parse_tensor_overrides,
// cpu_moe_overrides), one parse for bench, fit and the engine.

// Runtime memory a backend needs beyond llama.cpp's own buffers, bytes (stated figures):
// cuda 400 MiB (context ~300 MiB + cuBLAS workspace, docs/fit.md), rocm 400 MiB,
// vulkan 256 MiB, metal 64 MiB, cpu 0.
uint64_t backend_overhead_bytes(const std::string& backend);

// Bytes of the interleaved copies llama.cpp's CPU backend makes of the weights it multiplies
// on the host (x86 with AVX2; see above) when every weight stays on the host (-ngl 0 or a CPU
// target). The input embeddings are looked up, not repacked. A plan's own figure, with its
// offload and overrides, is its host Components::repack.
uint64_t repack_bytes(const model::ModelShape& shape);

}  // namespace rigbench::fit
