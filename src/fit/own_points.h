// rigbench: the user's own stored runs on this machine as points of the speed prediction
// (fit/speed_prediction.h), so that `fit` on this machine predicts a model from what this
// machine measured before (a device measured is predicted from its own results first). Pure
// functions: the records come from the results database (measure/speed_predict_job.h).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "fit/speed_prediction.h"

namespace rigbench::fit {

// The device name of this machine's points and queries.
inline constexpr const char* kThisMachine = "this machine";

// The class of this machine's points on `backend` ("cpu", "vulkan", a ggml device name such as
// "Vulkan0" or "CPU"): speed_class(kThisMachine, backend), "this machine/cpu". No catalog class
// shares it, so this machine is predicted from its own points alone.
std::string this_machine_class(const std::string& backend);

// The ggml device a stored run's layers ran on: its first non-CPU devices_used entry
// ("Vulkan0"), or "CPU" where none (-ngl 0, -dev none, a CPU build).
std::string run_device(const RunRecord& r);

// Whether a noise note of `r` says the whole run was disturbed (core/noise_note.h disturbs_run:
// another process, steal, the governor, heat): its rate is not this machine's.
bool disturbed(const RunRecord& r);

// Whether `r` is a run this machine's speed is learned from: it ran on `machine` (the same
// hostname and CPU), it is a bench run (no server, prompt suite or embedding; no tune trial,
// whose candidates are not the user's settings) that ran (not refused nor failed) undisturbed
// (disturbed), at depth 0,
// with every layer on its device (-ngl -1 or at least 99, or a CPU run), and with llama.cpp's
// placement (no -ot, -cmoe, -ncmoe, -nkvo), a pp test of at most 2048 tokens or a tg test of at
// most 512 as the published points (fit/speed_points.h learnable).
bool own_learnable(const RunRecord& r, const MachineInfo& machine);

// The learnable runs of `records` as points, a pp and a tg point per run that has them:
// device = kThisMachine, class = this_machine_class(run_device), model = the run's name and
// file type, tokens/s = the result's mean, work per token: tg the run's roofline.bytes_per_token
// (fit::bytes_per_token at its depth: what the query of this machine's plan takes, MoE experts
// scaled), pp 2 x model.n_params (every parameter, as the query takes total_params); peak =
// tg_peak_per_s / pp_peak_per_s (the query's own, so a peak that is only a unit cancels);
// source "stored run <record_id>", date = the day of test_time, own = true. A run without
// bytes per token (0) has no tg point.
std::vector<SpeedPoint> own_points(const std::vector<RunRecord>& records, const MachineInfo& machine,
                                   double tg_peak_per_s, double pp_peak_per_s);

}  // namespace rigbench::fit
