// rigbench: printers of fit plans (markdown table, JSON).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "fit/planner.h"

namespace rigbench::report {

struct FitReport {
  std::string model;        // name shown
  std::string model_path;
  uint64_t weights_bytes = 0;  // all weights, from GGUF tensor infos
  std::vector<fit::FitResult> results;
  std::vector<double> usd_per_gib;  // per result; < 0 when the device has no price
  std::vector<std::string> notes;   // assumptions, stated once
};

// JSON: {"model", "model_path", "devices": [{name, capacity_bytes, weights_bytes, kv_bytes,
// compute_bytes, output_bytes, overhead_bytes, total_bytes, host_bytes, n_ctx, n_gpu_layers,
// verdict, margin_bytes, max_ctx, tg_bound_tps, tg_bound_is_measurement: false,
// usd_per_gib, note}], "notes"}.
void print_fit_json(const FitReport& r, std::ostream& out);

// A markdown table, one row per device, and the notes below it.
void print_fit_markdown(const FitReport& r, std::ostream& out);

}  // namespace rigbench::report
