// rigbench: will a model fit a device, and how fast could it generate there: the memory plan
// per device, the offload that fits, the verdict, and a roofline bound on tg.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fit/memory_model.h"
#include "fit/usable.h"
#include "model/model_shape.h"

namespace rigbench::fit {

// The smallest context llama.cpp's --fit shrinks a default context to (--fit-ctx, default 4096).
constexpr int kMinFitContext = 4096;

// A device to plan for: this machine or a catalog entry.
struct Target {
  std::string name;
  std::string backend;                       // "cpu" plans everything in host RAM
  bool unified = false;                      // device and host share one memory pool (Apple, DGX Spark, Strix Halo)
  uint64_t capacity_bytes = 0;               // the memory llama.cpp sees on the device, bytes: total RAM for
                                             // "cpu" (as ggml's CPU device reports it), the Metal working set
                                             // on Apple, the card's memory (free memory for this machine's GPU)
  uint64_t reserve_bytes = kFitMarginBytes;  // kept free, as llama.cpp's --fit does
  uint64_t host_ram_bytes = 0;               // bytes of host RAM for what is not offloaded
  double bandwidth_gbps = 0;                 // device memory bandwidth, GB/s
  double host_bandwidth_gbps = 0;            // host memory bandwidth, GB/s (for partial offload)
  std::string host_name;                     // what the host is, for notes ("" = not stated)
  uint64_t max_tensor_bytes = 0;             // the largest tensor the device's ops accept, bytes (0 = no
                                             // limit known; lavapipe: 128 MiB): see estimate_memory

  // Bytes a plan may use on the device: capacity less the reserve (fit::usable_bytes).
  uint64_t usable_bytes() const { return fit::usable_bytes(capacity_bytes, reserve_bytes); }
};

enum class Verdict { kFits, kPartial, kNo };
const char* verdict_name(Verdict v);  // "fits", "partial", "does not fit" (the word in every output)

struct FitResult {
  Target target;
  Components device;     // on the device (for a "cpu" target: in RAM)
  Components host;       // in host RAM beside the device (zero for "cpu" and unified)
  int n_ctx = 0;         // the context llama.cpp allocates: the request padded to 256 per KV stream
  int n_ctx_seq = 0;     // tokens one sequence (a server slot) may fill: llama.cpp's n_ctx_seq (n_ctx / streams)
  int n_gpu_layers = 0;  // as llama.cpp counts them: blocks + the output layer
  Verdict verdict = Verdict::kNo;
  int64_t margin_bytes = 0;  // the tightest room left: usable - device total, or host RAM - host
                             // part when that is smaller (negative when it does not fit)
  int max_ctx = 0;           // the largest context (a multiple of 256 per sequence, up to
                             // n_ctx_train x sequences or the request when larger) at which the
                             // row's plan (its n_gpu_layers; over several devices, the whole split:
                             // every device and the host RAM) still has room; 0 = none
  double tg_bound_tps = 0;   // upper bound on tg, tokens/s: bandwidth / bytes read per token;
                             // 0 = unknown, or none where `generates` is false
  // Whether the model generates tokens one after another (model::ModelShape::causal): false
  // for an encoder (BERT-like: embedding and reranking models) and a non-causal decoder
  // (diffusion models), which have no tg and so no tg bound (tg_bound_tps 0).
  bool generates = true;
  int split_layers = -1;     // in a split over several devices (plan_fit_split, plan_device_split):
                             // the repeating layers this device holds, as llama.cpp places them
                             // (split_layer_devices); -1 = not a split (n_gpu_layers are all here)
  bool split_output = false; // in a split: this device holds the output layer
  std::string note;          // e.g. why the context was capped ("; " between notes)
};

// What a device of a split holds: "22 layers", "21 layers + output"; "" when `r` is not a split.
std::string split_layers_text(const FitResult& r);

// The note of a plan whose host part does not fit the host's RAM, both sizes in GiB and the
// host named (`host.host_name`, else "this machine"): "the 349.12 GiB left in host RAM exceed
// its 96.00 GiB (host: Threadripper 7980X at 332.8 GB/s, the entry's stated host)".
std::string host_ram_note(uint64_t host_part_bytes, const Target& host);

// The largest context (a multiple of 256 per sequence, from 256 up to n_ctx_train x sequences,
// or ctx.n_ctx when larger) for which has_room(ctx at that n_ctx) holds; 0 when none does.
// has_room must be monotonic (true up to some context, false above it).
int largest_context_with_room(const model::ModelShape& shape, const ContextParams& ctx,
                              const std::function<bool(const ContextParams&)>& has_room);

// Plans `shape` on `target` with `ctx`. n_gpu_layers: -1 = all, -2 = auto (the most that
// fit), else that many. `depth`: tokens in the KV cache for the tg bound (each generated
// token reads the weights resident on each device plus the KV of `depth` cells).
// Verdicts: fits = everything on the device within its usable bytes (and the host part within
// host RAM); partial = some layers on the device and the rest in host RAM that has room;
// no = otherwise. Notes: a context above n_ctx_train, a padded context.
FitResult plan_fit(const model::ModelShape& shape, const Target& target, const ContextParams& ctx, int n_gpu_layers,
                   int depth);

// As plan_fit, with llama.cpp's default context, chosen as its --fit chooses it
// (common/fit.cpp): n_ctx_train x sequences when that fits the usable bytes; otherwise the
// line between the memory at that context and at kMinFitContext x sequences, evaluated where
// it meets the usable bytes, rounded down to 256 x sequences (not below the minimum). The
// memory compared is the device's (all of it on "cpu" and unified targets). The note says so.
FitResult plan_fit_default_context(const model::ModelShape& shape, const Target& target, ContextParams ctx,
                                   int n_gpu_layers, int depth);

// Plans `shape` over `count` devices like `target` (each with target.usable_bytes()) with the
// offloaded layers split in the proportions `split` (-ts; empty = equal). One result per
// device, named "<target> #<i>", with its split_layers and split_output (llama.cpp's
// split_layer_devices); every result carries the same host part. Verdict: fits when
// every device has room for everything offloaded (and the host for the rest), partial when
// some layers stay on the host, else no. n_gpu_layers -2 = auto: the most layers for which
// every device has room. The tg bound adds each device's share of the bytes at its bandwidth.
std::vector<FitResult> plan_fit_split(const model::ModelShape& shape, const Target& target, const ContextParams& ctx,
                                      int n_gpu_layers, int depth, int count, const std::vector<double>& split);

// As plan_fit_split, with llama.cpp's default context for several devices (common/fit.cpp,
// step 2 with more than one device): as plan_fit_default_context on the devices' summed
// memory and usable bytes, less llama.cpp's allowance for whole layers that do not divide
// evenly ((devices + 1) x weights per layer / 2, / 6 for MoE). The note says so.
std::vector<FitResult> plan_fit_split_default_context(const model::ModelShape& shape, const Target& target,
                                                      ContextParams ctx, int n_gpu_layers, int depth, int count,
                                                      const std::vector<double>& split);

// Bytes read from memory per generated token at `depth` cells of context: every weight but
// the input embeddings once (MoE expert tensors scaled by used / total experts), and the KV
// cells (sliding-window layers at most their window).
uint64_t bytes_per_token(const model::ModelShape& shape, const ContextParams& ctx, int depth);

}  // namespace rigbench::fit
