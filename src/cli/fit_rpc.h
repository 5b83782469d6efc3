// rigbench: `fit --rpc HOST:PORT,...` (live rpc-servers asked for their device memory) and
// `fit --device NAME --rpc-device NAME,...` (catalog devices on other machines): a model split
// over machines as llama.cpp's RPC backend places it (fit/device_split.h), a verdict per
// device, and a tg bound with the network term.
#pragma once

#include <string>

#include "cli/fit_command.h"
#include "core/record.h"
#include "core/status.h"
#include "fit/context_params.h"
#include "fit/device_split.h"
#include "model/model_shape.h"
#include "report/table.h"

namespace rigbench::cli {

// Whether `o` asks for a split over machines (--rpc or --rpc-device).
bool wants_rpc_fit(const FitOptions& o);

// Probes each rpc-server of `rpc` (a --rpc value, "HOST:PORT,..."; "none": none) for its devices'
// free memory and its round trip: what fit::rpc_split_setup makes the split of, as fit --rpc and
// bench --rpc both plan it. Errors: kUsage for a malformed value; the probe's kRuntime naming
// the endpoint (refused, silent, another protocol version).
Result<std::vector<fit::RpcServerMemory>> probe_rpc_memory(const std::string& rpc, double timeout_s);

// Plans and prints it; with --check (and --rpc), llama.cpp's own no_alloc plan of the file
// `model_path_for_check` with the same servers and split, per device beside fit's. Errors: kUsage for flags that do not go together (-c is required, one
// of --rpc/--rpc-device, -ts with one share per device); the probe's kRuntime naming the
// endpoint (refused, silent, another protocol version); a catalog name not found.
Status run_rpc_fit(const FitOptions& o, const model::ModelShape& shape, const fit::ContextParams& ctx, int ngl,
                   const MachineInfo& machine, report::OutputFormat format, const std::string& model_label,
                   const std::string& model_path, const std::string& model_path_for_check);

}  // namespace rigbench::cli
