#include "report/fit_printer.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace rigbench::report {

namespace {

std::string verdict_text(const fit::FitResult& f) {
  switch (f.verdict) {
    case fit::Verdict::kFits: return "fits";
    case fit::Verdict::kPartial:
      return "partial: " + std::to_string(f.n_gpu_layers) + " layers on the device, " + format_gib(static_cast<int64_t>(f.host.total())) +
             " GiB in RAM";
    case fit::Verdict::kNo: break;
  }
  return "does not fit";
}

}  // namespace

void print_fit_json(const FitReport& r, std::ostream& out) {
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    const auto& f = r.results[i];
    nlohmann::ordered_json d = {
        {"name", f.target.name},
        {"backend", f.target.backend},
        {"capacity_bytes", f.target.capacity_bytes},
        {"weights_bytes", f.device.weights},
        {"kv_bytes", f.device.kv},
        {"compute_bytes", f.device.compute},
        {"output_bytes", f.device.output},
        {"overhead_bytes", f.device.overhead},
        {"total_bytes", f.device.total()},
        {"host_bytes", f.host.total()},
        {"n_ctx", f.n_ctx},
        {"n_gpu_layers", f.n_gpu_layers},
        {"verdict", fit::verdict_name(f.verdict)},
        {"margin_bytes", f.margin_bytes},
        {"max_ctx", f.max_ctx},
        {"tg_bound_tps", f.tg_bound_tps},
        {"tg_bound_is_measurement", false},
        {"note", f.note},
    };
    if (i < r.usd_per_gib.size() && r.usd_per_gib[i] >= 0) d["usd_per_gib"] = r.usd_per_gib[i];
    else d["usd_per_gib"] = nullptr;
    devices.push_back(std::move(d));
  }
  nlohmann::ordered_json j = {{"model", r.model}, {"model_path", r.model_path}, {"weights_bytes", r.weights_bytes},
                              {"devices", devices}, {"notes", r.notes}};
  out << j.dump(2) << "\n";
}

void print_fit_markdown(const FitReport& r, std::ostream& out) {
  out << "model: " << r.model << " (" << format_gib(static_cast<int64_t>(r.weights_bytes)) << " GiB of weights)\n\n";
  const bool priced = !r.usd_per_gib.empty();
  out << "| device | capacity GiB | n_ctx | weights | KV | compute | output | overhead | total GiB | verdict | margin GiB | max n_ctx | tg bound t/s |"
      << (priced ? " USD/GiB |" : "") << "\n";
  out << "|---|---|---|---|---|---|---|---|---|---|---|---|---|" << (priced ? "---|" : "") << "\n";
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    const auto& f = r.results[i];
    char bound[32];
    std::snprintf(bound, sizeof bound, "<= %.1f", f.tg_bound_tps);
    out << "| " << f.target.name << " | " << format_gib(static_cast<int64_t>(f.target.capacity_bytes)) << " | " << f.n_ctx << " | "
        << format_gib(static_cast<int64_t>(f.device.weights)) << " | " << format_gib(static_cast<int64_t>(f.device.kv)) << " | "
        << format_gib(static_cast<int64_t>(f.device.compute)) << " | " << format_gib(static_cast<int64_t>(f.device.output)) << " | "
        << format_gib(static_cast<int64_t>(f.device.overhead)) << " | " << format_gib(static_cast<int64_t>(f.device.total())) << " | "
        << verdict_text(f) << " | " << format_gib(f.margin_bytes) << " | " << f.max_ctx << " | " << bound << " |";
    if (priced) {
      if (r.usd_per_gib[i] >= 0) {
        char usd[32];
        std::snprintf(usd, sizeof usd, "%.2f", r.usd_per_gib[i]);
        out << " " << usd << " |";
      } else {
        out << " - |";
      }
    }
    out << "\n";
  }
  out << "\n";
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    if (!r.results[i].note.empty() && (i == 0 || r.results[i].note != r.results[i - 1].note)) {
      out << "note: " << r.results[i].target.name << ": " << r.results[i].note << "\n";
    }
  }
  for (const auto& n : r.notes) out << "note: " << n << "\n";
}

}  // namespace rigbench::report
