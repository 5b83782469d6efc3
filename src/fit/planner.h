// rigbench: will a model fit a device, and how fast could it generate there: the memory plan
// per device, the offload that fits, the verdict, and a roofline bound on tg.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fit/memory_model.h"
#include "model/model_shape.h"

namespace rigbench::fit {

// A device to plan for: this machine or a catalog entry.
struct Target {
  std::string name;
  std::string backend;            // "cpu" plans everything in host RAM
  bool unified = false;           // Apple: device and host share one memory pool
  uint64_t capacity_bytes = 0;    // bytes the model may use on the device (RAM for "cpu";
                                  // the working-set limit on Apple, not installed RAM)
  uint64_t host_ram_bytes = 0;    // bytes of host RAM for what is not offloaded
  double bandwidth_gbps = 0;      // device memory bandwidth, GB/s
  double host_bandwidth_gbps = 0; // host memory bandwidth, GB/s (for partial offload)
};

enum class Verdict { kFits, kPartial, kNo };
const char* verdict_name(Verdict v);  // "fits", "partial", "does not fit" (the word in every output)

struct FitResult {
  Target target;
  Components device;         // on the device (for a "cpu" target: in RAM)
  Components host;           // in host RAM beside the device (zero for "cpu")
  int n_ctx = 0;             // the context planned (before padding)
  int n_gpu_layers = 0;      // as llama.cpp counts them: blocks + the output layer
  Verdict verdict = Verdict::kNo;
  int64_t margin_bytes = 0;  // capacity - device total (negative when it does not fit)
  int max_ctx = 0;           // the largest context (multiple of 256, <= n_ctx_train) that fits whole
  double tg_bound_tps = 0;   // upper bound on tg, tokens/s: bandwidth / bytes read per token
  std::string note;          // e.g. why the context was capped
};

// Plans `shape` on `target` with `ctx`. n_gpu_layers: -1 = all, -2 = auto (the most that
// fit), else that many. `depth`: tokens in the KV cache for the tg bound (each generated
// token reads the weights resident on each device plus the KV of `depth` cells).
// Verdicts: fits = everything on the device within capacity (and host RAM); partial = some
// layers on the device and the rest in host RAM that has room; no = otherwise.
FitResult plan_fit(const model::ModelShape& shape, const Target& target, const ContextParams& ctx, int n_gpu_layers,
                   int depth);

// As plan_fit, with llama.cpp's default context: n_ctx_train, capped as llama.cpp's --fit
// does (down to the largest context that fits, not below 4096) when it does not fit whole;
// the note says so.
FitResult plan_fit_default_context(const model::ModelShape& shape, const Target& target, ContextParams ctx,
                                   int n_gpu_layers, int depth);

// Plans `shape` over `count` devices like `target` (each with target.capacity_bytes) with the
// offloaded layers split in the proportions `split` (-ts; empty = equal). One result per
// device, named "<target> #<i>"; every result carries the same host part. Verdict: fits when
// every device has room for everything offloaded (and the host for the rest), partial when
// some layers stay on the host, else no. n_gpu_layers -2 = auto: the most layers for which
// every device has room. The tg bound adds each device's share of the bytes at its bandwidth.
std::vector<FitResult> plan_fit_split(const model::ModelShape& shape, const Target& target, const ContextParams& ctx,
                                      int n_gpu_layers, int depth, int count, const std::vector<double>& split);

// Bytes read from memory per generated token at `depth` cells of context: every weight but
// the input embeddings once (MoE expert tensors scaled by used / total experts), and the KV
// cells (sliding-window layers at most their window).
uint64_t bytes_per_token(const model::ModelShape& shape, const ContextParams& ctx, int depth);

}  // namespace rigbench::fit
