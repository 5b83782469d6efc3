// rigbench: before anything loads, fit's plan for each run on this machine: refuse a run
// that will not fit (instead of swapping the machine to death) and compute the roofline
// bound on tg that bench prints beside the measured tg.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "fit/device_split.h"
#include "fit/planner.h"
#include "measure/plan.h"
#include "model/model_shape.h"

namespace rigbench::measure {

struct Preflight {
  std::vector<Roofline> rooflines;    // one per plan entry, same order
  std::vector<std::string> refusals;  // one per plan entry: "" when it fits (or --force), else why
                                      // not, with the numbers: "model 'x' at n_ctx N will not fit
                                      // this machine: needs A GiB (weights, KV, compute, output, overhead),
                                      // B GiB usable (llama.cpp keeps 1.00 GiB free); --force runs it anyway"
  bool any_refused() const;
};

// The KV cache types of every entry of `plan`, checked as fit checks them
// (fit::check_cache_types: the combinations llama.cpp refuses to create a context for, e.g. a
// quantized K cache whose block size does not divide the model's head size under flash
// attention), before anything runs. Errors: kInvalidInput "model '<path>': <fit's reason>".
Status check_cache_types(const std::vector<TestCase>& plan, const std::map<std::string, model::ModelShape>& shapes);

// fit's plan for every entry of `plan` on `target`. `shapes` maps model paths to shapes.
// An entry whose --rpc value is a key of `rpc_splits` is planned as `fit --rpc` plans it
// (fit::plan_device_split over that split, its -ts shares, the same link): its tg bound is fit's,
// the network term included (its two terms in Roofline::memory_bound_tps and
// network_ms_per_token), and it is refused when that plan does not fit. `n_seq`: the
// sequences planned (fit::ContextParams::n_seq, llama-server's -np: one KV stream of
// PAD(n_ctx) / n_seq cells each, the output buffer for n_seq); bench runs one, tune plans the
// user's -np.
Preflight preflight(const std::vector<TestCase>& plan, const std::map<std::string, model::ModelShape>& shapes,
                    const fit::Target& target, bool force,
                    const std::map<std::string, fit::SplitSetup>& rpc_splits = {}, int n_seq = 1);

}  // namespace rigbench::measure
