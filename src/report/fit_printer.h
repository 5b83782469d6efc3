// rigbench: the output of `rigbench fit`: one row per device planned (report/table.h).
//   md     "model: NAME (SIZE of weights)", the table, then the notes. Default columns fit in
//          120 characters: device, n_ctx, KV, total, usable, verdict, max n_ctx, tg bound;
//          --wide adds backend, ngl, weights, compute, output, overhead, memory, host RAM,
//          margin and USD/GiB. Sizes are in the unit of their column header (KiB, MiB or GiB, whichever
//          the column's largest value needs); a real size never reads 0.00.
//   csv    one line per device, every column (bytes, t/s, USD per GiB)
//   json   {"model", "model_path", "weights_bytes", "devices": [one object per device, keyed as
//          the csv header], "notes"}
//   jsonl  one object per device
// The verdict is one of "fits", "partial", "does not fit", the same word in every format.
#pragma once

#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "fit/planner.h"
#include "report/table.h"

namespace rigbench::report {

// fit's and fit --rank's note for a model that generates no tokens one by one
// (fit::FitResult::generates false): why its tg bound is "-".
inline constexpr const char* kNoGenerationNote =
    "no tg bound: the model is not causal (an encoder: an embedding or reranking model; or a diffusion model), so it "
    "generates no tokens one by one; `rigbench embed` measures an embedding model";

// A plan split over machines (fit --rpc, --rpc-device): the link and the network's part of the
// tg bound, for -o json ("network").
struct FitNetwork {
  double link_gbps = 0;
  std::string link_gbps_source;     // "stated" (--link-gbps) or "assumed"
  double link_rtt_ms = 0;
  std::string link_rtt_source;      // "stated" (--link-rtt-ms), "measured" (probe) or "assumed"
  int hops = 0;                     // remote splits per token
  int round_trips_per_token = 0;
  uint64_t bytes_per_token = 0;     // both ways, all hops
  double ms_per_token = 0;          // the network's part of a token
  double memory_bound_tps = 0;      // the bound without the network; 0 = unknown
  double tg_bound_tps = 0;          // with it; 0 = unknown
};

struct FitReport {
  std::string model;  // name shown
  std::string model_path;
  uint64_t weights_bytes = 0;  // all weights, from GGUF tensor infos
  std::vector<fit::FitResult> results;
  std::vector<double> usd_per_gib;    // per result; < 0 when the device has no price
  std::vector<std::string> preamble;  // md lines under the model line (e.g. what "this machine" is)
  std::vector<std::string> notes;     // assumptions, stated once
  std::optional<FitNetwork> network;  // a split over machines; json: "network"
  int n_seq = 1;            // sequences planned (-np; llama-server's slots)
  bool kv_unified = false;  // one KV cache shared by them (-kvu)
  bool auto_slots = false;  // n_seq is llama-server's automatic choice (no -np)
};

// The table: columns name (header "device"), backend, n_ctx (as allocated: padded), n_ctx_seq
// (what one sequence may fill: n_ctx, or n_ctx / n_seq without -kvu; md: --wide), n_gpu_layers, weights_bytes, kv_bytes, compute_bytes, output_bytes, overhead_bytes,
// total_bytes, capacity_bytes ("memory": what llama.cpp sees on the device), usable_bytes
// ("usable": that less the --fit reserve), host_bytes, verdict, margin_bytes (the tightest of
// device and host RAM), max_ctx, tg_bound_tps, tg_bound_is_measurement (false), usd_per_gib,
// note (a split's device: the layers it holds first, fit::split_layers_text, then its own
// note); the notes: each device's note, what a partial offload leaves in host RAM (and the
// host; once for a split, which shares one host), with several sequences how they share the
// context (n_ctx_seq), the backend overhead (only when a device with
// one is planned), what usable means, then `r.notes`.
Table fit_table(const FitReport& r);

// Writes the report in `format` (md: with `options.wide`, every column).
void print_fit(const FitReport& r, OutputFormat format, std::ostream& out, RenderOptions options = {});

// fit --check: fit's estimate for the host beside llama.cpp's own no_alloc plan.
struct FitCheck {
  int n_ctx = 0;
  uint64_t estimate_weights = 0, estimate_kv = 0, estimate_compute = 0;
  uint64_t llama_weights = 0, llama_kv = 0, llama_compute = 0;
  // With an offload device: the same totals split by where they live, the device's memory and
  // host RAM (llama.cpp's buffers by BufferMemory::device: a GPU's pinned host type is host RAM).
  std::string device;  // the device's ggml name ("Vulkan0"); empty when the plan has none
  uint64_t estimate_device = 0, estimate_host = 0, llama_device = 0, llama_host = 0;
};

// md: a table (component, estimate MiB, llama.cpp MiB, difference %) under a title line, with a
// device the rows "on DEVICE" and "on the host" after the total;
// json: {"n_ctx", "estimate": {weights_bytes, kv_bytes, compute_bytes, total_bytes[, device_bytes,
// host_bytes]}, "llama_cpp": {...}[, "device"]}; csv/jsonl: one row per component.
void print_fit_check(const FitCheck& c, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
