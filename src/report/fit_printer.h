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

#include "fit/fit_report.h"
#include "fit/planner.h"
#include "report/table.h"

namespace rigbench::report {

// fit's and fit --rank's note for a model that generates no tokens one by one
// (fit::FitResult::generates false): why its tg bound is "-".
inline constexpr const char* kNoGenerationNote =
    "no tg bound: the model is not causal (an encoder: an embedding or reranking model; or a diffusion model), so it "
    "generates no tokens one by one; `rigbench embed` measures an embedding model";

// The data (fit/fit_report.h), by the names the printers have always used.
using FitNetwork = fit::FitNetwork;
using FitReport = fit::FitReport;
using FitCheck = fit::FitCheck;
using FitRpcCheck = fit::FitRpcCheck;

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

// md: a table (component, estimate MiB, llama.cpp MiB, difference %) under a title line, with a
// device the rows "on DEVICE" and "on the host" after the total;
// json: {"n_ctx", "estimate": {weights_bytes, kv_bytes, compute_bytes, total_bytes[, device_bytes,
// host_bytes]}, "llama_cpp": {...}[, "device"]}; csv/jsonl: one row per component.
void print_fit_check(const FitCheck& c, OutputFormat format, std::ostream& out);

// fit --rpc --check: a table (device, fit MiB, llama.cpp MiB, fit / llama.cpp) under the line
// "llama.cpp's own plan (no_alloc, the same servers and split) per device, beside fit's:",
// after an empty line in md; the ratio is absent where llama.cpp put nothing on the device.
void print_fit_rpc_check(const FitRpcCheck& c, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
