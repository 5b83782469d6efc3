// rigbench: the `fit` use case's split over machines: `fit --rpc HOST:PORT,...` (live
// rpc-servers asked for their device memory, measure/rpc_probe.h) and `fit --device NAME
// --rpc-device NAME,...` (catalog devices on other machines): a model split as llama.cpp's RPC
// backend places it (fit/device_split.h), a verdict per device, and a tg bound with the
// network term. measure/fit_job.h's answer_fit calls it; nothing here prints.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "fit/context_params.h"
#include "measure/fit_job.h"
#include "model/model_shape.h"

namespace rigbench::measure {

// Whether `r` asks for a split over machines (--rpc or --rpc-device).
bool wants_rpc_fit(const FitRequest& r);

// Plans `shape` at ctx (-ngl `ngl`: layers, -1 all, -2 auto) over the split `r` names, beside
// `machine` (this machine, for --rpc), into answer.report: one result per device of the split
// (its verdict fits or does not fit), the split, the verdict over all devices and the tg bound
// with the network in the preamble, the link in report.network; `model_label` and
// `model_path` name the model there. With r.check (and --rpc), llama.cpp's own no_alloc plan
// of the file `model_path_for_check` with the same servers and split goes to
// answer.rpc_check, or why not to answer.check_error (kUsage with --rpc-device; the
// simulation's error). Errors: kUsage for flags that do not go together (-c is required, one
// of --rpc/--rpc-device, no --count, --device auto with --rpc and a catalog --device with
// --rpc-device, --rpc none, -ts with one share per device); the probe's kRuntime naming the
// endpoint (refused, silent, another protocol version); a catalog file or name not found.
Status answer_rpc_fit(const FitRequest& r, const BenchParams& knobs, const model::ModelShape& shape,
                      const fit::ContextParams& ctx, int ngl, const MachineInfo& machine,
                      const std::string& model_label, const std::string& model_path,
                      const std::string& model_path_for_check, FitAnswer& answer);

// As answer_rpc_fit over this machine's own devices `gpus` (fit -dev A/B, llama.cpp's -dev, in
// that order; each its free memory, backend from its name), beside its RAM: no network term.
// `knobs`: fit's normalized shared knobs (-sm none keeps the -mg'th device alone, here and in
// answer_rpc_fit). With r.check, llama.cpp's own plan over the same -dev. Errors (kUsage):
// --count, no -c, -ts not one share per device, -mg not a device of the split.
Status answer_machine_split_fit(const FitRequest& r, const BenchParams& knobs, const model::ModelShape& shape,
                                const fit::ContextParams& ctx, int ngl, const MachineInfo& machine,
                                const std::vector<const DeviceInfo*>& gpus, const std::string& model_label,
                                const std::string& model_path, const std::string& model_path_for_check,
                                FitAnswer& answer);

}  // namespace rigbench::measure
