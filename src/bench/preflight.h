// rigbench: before anything loads, fit's plan for each run on this machine: refuse a run
// that will not fit (instead of swapping the machine to death) and compute the roofline
// bound on tg that bench prints beside the measured tg.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/plan.h"
#include "core/record.h"
#include "core/status.h"
#include "fit/planner.h"
#include "model/model_shape.h"

namespace rigbench::bench {

// One Roofline per plan entry, same order. `shapes` maps each model path to its shape.
// Errors (unless `force`): kRuntime for the first run whose plan does not fit `target`,
// with the numbers: "model 'x' at n_ctx N will not fit this machine: needs A GiB (weights,
// KV, compute, output), B GiB available; --force runs it anyway".
Result<std::vector<Roofline>> preflight(const std::vector<TestCase>& plan, const std::map<std::string, model::ModelShape>& shapes,
                                        const fit::Target& target, bool force);

}  // namespace rigbench::bench
