#include "report/fit_printer.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "core/strings.h"
#include "fit/memory_model.h"
#include "fit/usable.h"
#include "report/prediction_columns.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

// The prediction columns (fit/speed_prediction.h) after the tg bound, only in a report that has
// predictions (catalog devices planned whole): other plans keep their columns.
constexpr std::size_t kAfterBound = 20;  // index of the column after tg_bound_is_measurement

std::vector<TableColumn> with_predictions(const FitReport& r, std::vector<TableColumn> cols) {
  if (r.tg_predicted.empty() && r.pp_predicted.empty()) return cols;
  // One device: beside the bound; the whole catalog: with --wide (the table keeps to 120 columns).
  const std::vector<TableColumn> pred = prediction_columns(r.results.size() != 1);
  cols.insert(cols.begin() + kAfterBound, pred.begin(), pred.end());
  return cols;
}

std::vector<TableCell> with_predictions(const FitReport& r, std::size_t i, std::vector<TableCell> cells) {
  if (r.tg_predicted.empty() && r.pp_predicted.empty()) return cells;
  const std::vector<TableCell> pred = prediction_cells(r.tg_predicted, r.pp_predicted, i);
  cells.insert(cells.begin() + kAfterBound, pred.begin(), pred.end());
  return cells;
}

// A size column: its unit is chosen from every value in it.
struct SizeColumn {
  const char* key;
  const char* header;
  bool wide_only;
  int64_t (*get)(const fit::FitResult&);
};

const SizeColumn kMemory{"capacity_bytes", "memory", true,
                         [](const fit::FitResult& f) { return static_cast<int64_t>(f.target.capacity_bytes); }};
const SizeColumn kUsable{"usable_bytes", "usable", false,
                         [](const fit::FitResult& f) { return static_cast<int64_t>(f.target.usable_bytes()); }};
const SizeColumn kWeights{"weights_bytes", "weights", true,
                          [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.weights); }};
const SizeColumn kKv{"kv_bytes", "KV", false,
                     [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.kv); }};
const SizeColumn kState{"recurrent_bytes", "state", true,
                        [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.recurrent); }};
const SizeColumn kCompute{"compute_bytes", "compute", true,
                          [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.compute); }};
const SizeColumn kOutput{"output_bytes", "output", true,
                         [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.output); }};
const SizeColumn kOverhead{"overhead_bytes", "overhead", true,
                           [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.overhead); }};
const SizeColumn kTotal{"total_bytes", "total", false,
                        [](const fit::FitResult& f) { return static_cast<int64_t>(f.device.total()); }};
const SizeColumn kHost{"host_bytes", "host RAM", true,
                       [](const fit::FitResult& f) { return static_cast<int64_t>(f.host.total()); }};
const SizeColumn kMargin{"margin_bytes", "margin", true, [](const fit::FitResult& f) { return f.margin_bytes; }};

SizeUnit unit_of(const FitReport& r, const SizeColumn& c) {
  std::vector<int64_t> values;
  for (const auto& f : r.results) values.push_back(c.get(f));
  return size_unit_for(values);
}

TableColumn size_column(const FitReport& r, const SizeColumn& c) {
  return {c.key, std::string(c.header) + " " + size_unit_name(unit_of(r, c)), Align::kRight, c.wide_only};
}

TableCell size_cell(const FitReport& r, const SizeColumn& c, const fit::FitResult& f) {
  const int64_t v = c.get(f);
  const std::string text = size_in(v, unit_of(r, c));
  return v < 0 ? TableCell::integer(v, text) : TableCell::count(static_cast<uint64_t>(v), text);
}

// Backends with a stated runtime overhead that some device of the plan runs on.
std::string overhead_note(const FitReport& r) {
  std::set<std::string> seen;
  std::vector<std::string> parts;
  for (const auto& f : r.results) {
    if (f.device.overhead == 0 || !seen.insert(to_lower(f.target.backend)).second) continue;
    parts.push_back(f.target.backend + " " + format_bytes(f.device.overhead));
  }
  if (parts.empty()) return "";
  return "overhead = runtime memory outside llama.cpp's reservation (stated, per device): " + join(parts, ", ");
}

// How the context is shared by the sequences (llama-server's slots), when there are several.
std::string slots_note(const FitReport& r) {
  if (r.n_seq <= 1 || r.results.empty()) return "";
  const fit::FitResult& f = r.results.front();
  const std::string slots =
      std::to_string(r.n_seq) + " sequences (llama-server's slots" + (r.auto_slots ? ", as without -np" : "") + ")";
  if (r.kv_unified) {
    return slots + " share one KV cache of " + std::to_string(f.n_ctx) + " cells (-kvu): each may fill up to " +
           std::to_string(f.n_ctx_seq) + " tokens (n_ctx_seq), all of them together no more";
  }
  return slots + ", a KV cache each: " + std::to_string(f.n_ctx_seq) + " tokens per sequence (n_ctx_seq = n_ctx / " +
         std::to_string(r.n_seq) + "; -kvu shares one cache instead)";
}

// A plan that does not fit runs at no speed: its tg bound is "-" (null in json), as is an
// encoder's; "unknown" where it would run but a bandwidth is missing.
TableCell tg_bound_cell(const fit::FitResult& f) {
  if (f.verdict == fit::Verdict::kNo || !f.generates) return TableCell::absent("-");
  if (f.tg_bound_tps > 0) return TableCell::number_text(f.tg_bound_tps, "<= " + format_fixed(f.tg_bound_tps, 1));
  return TableCell::absent("unknown");
}

}  // namespace

Table fit_table(const FitReport& r) {
  Table t(with_predictions(r, {{"name", "device"},
                               {"backend", "backend", Align::kLeft, true},
                               {"n_ctx", "n_ctx", Align::kRight},
                               {"n_ctx_seq", "n_ctx/seq", Align::kRight, true},
                               {"n_gpu_layers", "ngl", Align::kRight, true},
                               size_column(r, kWeights),
                               size_column(r, kKv),
                               size_column(r, kState),
                               size_column(r, kCompute),
                               size_column(r, kOutput),
                               size_column(r, kOverhead),
                               size_column(r, kTotal),
                               size_column(r, kMemory),
                               size_column(r, kUsable),
                               size_column(r, kHost),
                               {"verdict", "verdict"},
                               size_column(r, kMargin),
                               {"max_ctx", "max n_ctx", Align::kRight},
                               {"tg_bound_tps", "tg bound t/s", Align::kRight},
                               {"tg_bound_is_measurement", "", Align::kLeft, false, true},
                               {"usd_per_gib", "USD/GiB", Align::kRight, true},
                               {"note", "", Align::kLeft, false, true}}));
  t.add_preamble("model: " + r.model + " (" + format_bytes(r.weights_bytes) + " of weights)");
  for (const auto& line : r.preamble) t.add_preamble(line);
  std::string split_partial;  // a split's partial offload: said once, after its devices' notes
  for (std::size_t i = 0; i < r.results.size(); ++i) {
    const auto& f = r.results[i];
    // A device of a split says what it holds before its own note.
    std::string note = fit::split_layers_text(f);
    if (!f.note.empty()) note += (note.empty() ? "" : "; ") + f.note;
    const double usd = i < r.usd_per_gib.size() ? r.usd_per_gib[i] : -1.0;
    t.add_row(with_predictions(r, i,
                               {TableCell::str(f.target.name),
                                TableCell::str(f.target.backend),
                                TableCell::integer(f.n_ctx),
                                TableCell::integer(f.n_ctx_seq),
                                TableCell::integer(f.n_gpu_layers),
                                size_cell(r, kWeights, f),
                                size_cell(r, kKv, f),
                                size_cell(r, kState, f),
                                size_cell(r, kCompute, f),
                                size_cell(r, kOutput, f),
                                size_cell(r, kOverhead, f),
                                size_cell(r, kTotal, f),
                                size_cell(r, kMemory, f),
                                size_cell(r, kUsable, f),
                                size_cell(r, kHost, f),
                                TableCell::str(fit::verdict_name(f.verdict)),
                                size_cell(r, kMargin, f),
                                TableCell::integer(f.max_ctx, f.max_ctx > 0 ? "" : "-"),
                                tg_bound_cell(f),
                                TableCell::boolean(false),
                                usd >= 0 ? TableCell::number(usd) : TableCell::absent(),
                                TableCell::str(note)}));
    if (!note.empty()) t.add_note(f.target.name + ": " + note);
    if (const std::string b = prediction_basis(r.tg_predicted, r.pp_predicted, i); !b.empty() && r.results.size() == 1)
      t.add_note(f.target.name + ": predicted " + b);
    const std::string host = format_bytes(f.host.total()) + " in host RAM" +
                             (f.target.host_name.empty() ? "" : " (host: " + f.target.host_name + ")");
    if (f.verdict == fit::Verdict::kPartial && f.split_layers < 0) {
      // The row's total is the device's part alone (22.67 GiB beside 39.59 GiB of weights): said so.
      t.add_note(f.target.name + ": partial: " + std::to_string(f.n_gpu_layers) + " layers on the device, whose part " +
                 format_bytes(f.device.total()) + " is the row's total; " + host);
    } else if (f.verdict == fit::Verdict::kPartial && split_partial.empty()) {
      // A split shares one host: said once, for the plan.
      split_partial = "partial: " + std::to_string(f.n_gpu_layers) +
                      " layers offloaded, split over the devices as each one's note says (each row's total is that "
                      "device's part); " +
                      host;
    }
  }
  if (!split_partial.empty()) t.add_note(split_partial);
  if (const std::string s = slots_note(r); !s.empty()) t.add_note(s);
  if (const std::string o = overhead_note(r); !o.empty()) t.add_note(o);
  if (!r.results.empty() && !r.results.front().generates) t.add_note(kNoGenerationNote);
  if (!r.results.empty()) {
    t.add_note(fit::usable_definition(r.results.front().target.reserve_bytes));
  }
  for (const auto& n : r.notes) t.add_note(n);
  return t;
}

void print_fit(const FitReport& r, OutputFormat format, std::ostream& out, RenderOptions options) {
  const Table t = fit_table(r);
  if (format != OutputFormat::kJson) {
    render(t, format, out, options);
    return;
  }
  Json j = {{"model", r.model},
            {"model_path", r.model_path},
            {"weights_bytes", r.weights_bytes},
            {"n_seq", r.n_seq},
            {"kv_unified", r.kv_unified},
            {"devices", table_rows_json(t)},
            {"notes", as_written(t.notes())}};
  if (r.network) {
    const FitNetwork& n = *r.network;
    auto tps = [](double v) { return v > 0 ? Json(v) : Json(nullptr); };  // null: unknown
    j["network"] = {{"link_gbps", n.link_gbps},
                    {"link_gbps_source", n.link_gbps_source},
                    {"link_rtt_ms", n.link_rtt_ms},
                    {"link_rtt_source", n.link_rtt_source},
                    {"hops", n.hops},
                    {"round_trips_per_token", n.round_trips_per_token},
                    {"network_bytes_per_token", n.bytes_per_token},
                    {"network_ms_per_token", n.ms_per_token},
                    {"memory_bound_tps", tps(n.memory_bound_tps)},
                    {"tg_bound_tps", tps(n.tg_bound_tps)}};
  }
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
}

void print_fit_check(const FitCheck& c, OutputFormat format, std::ostream& out) {
  const uint64_t est_total = c.estimate_weights + c.estimate_kv + c.estimate_compute + c.estimate_projector;
  const uint64_t real_total = c.llama_weights + c.llama_kv + c.llama_compute + c.llama_projector;
  if (format == OutputFormat::kJson) {
    Json j = {{"n_ctx", c.n_ctx},
              {"estimate",
               {{"weights_bytes", c.estimate_weights},
                {"kv_bytes", c.estimate_kv},
                {"compute_bytes", c.estimate_compute},
                {"total_bytes", est_total}}},
              {"llama_cpp",
               {{"weights_bytes", c.llama_weights},
                {"kv_bytes", c.llama_kv},
                {"compute_bytes", c.llama_compute},
                {"total_bytes", real_total}}}};
    if (c.projector) {
      j["estimate"]["projector_bytes"] = c.estimate_projector;
      j["llama_cpp"]["projector_bytes"] = c.llama_projector;
    }
    if (!c.device.empty()) {
      j["device"] = c.device;
      j["estimate"]["device_bytes"] = c.estimate_device;
      j["estimate"]["host_bytes"] = c.estimate_host;
      j["llama_cpp"]["device_bytes"] = c.llama_device;
      j["llama_cpp"]["host_bytes"] = c.llama_host;
    }
    out << j.dump(2) << "\n" << std::flush;
    return;
  }
  Table t({{"component", "component"},
           {"n_ctx", "n_ctx", Align::kRight, false, true},
           {"estimate_bytes", "estimate MiB", Align::kRight},
           {"llama_cpp_bytes", "llama.cpp MiB", Align::kRight},
           {"difference_percent", "difference %", Align::kRight}});
  t.add_preamble("llama.cpp's own plan (no_alloc simulation, n_ctx " + std::to_string(c.n_ctx) + "):");
  auto row = [&](const char* what, uint64_t est, uint64_t real) {
    const double diff =
        real ? 100.0 * (static_cast<double>(est) - static_cast<double>(real)) / static_cast<double>(real) : 0;
    char d[32];
    std::snprintf(d, sizeof d, "%+.2f", diff);
    t.add_row({TableCell::str(what), TableCell::integer(c.n_ctx),
               TableCell::count(est, size_in(static_cast<int64_t>(est), SizeUnit::kMiB)),
               TableCell::count(real, size_in(static_cast<int64_t>(real), SizeUnit::kMiB)),
               TableCell::number_text(diff, d)});
  };
  row("weights", c.estimate_weights, c.llama_weights);
  row("KV cache", c.estimate_kv, c.llama_kv);
  row("compute", c.estimate_compute, c.llama_compute);
  if (c.projector) row("projector (mmproj)", c.estimate_projector, c.llama_projector);
  row("total", est_total, real_total);
  if (!c.device.empty()) {
    row(("on " + c.device).c_str(), c.estimate_device, c.llama_device);
    row("on the host", c.estimate_host, c.llama_host);
  }
  if (format == OutputFormat::kMarkdown) out << "\n";
  render(t, format, out);
}

void print_fit_rpc_check(const FitRpcCheck& c, OutputFormat format, std::ostream& out) {
  Table t({{"device", "device"},
           {"fit_bytes", "fit MiB", Align::kRight},
           {"llama_cpp_bytes", "llama.cpp MiB", Align::kRight},
           {"fit_per_llama_cpp", "fit / llama.cpp", Align::kRight}});
  t.add_preamble("llama.cpp's own plan (no_alloc, the same servers and split) per device, beside fit's:");
  for (const FitRpcCheck::Row& r : c.rows) {
    const double ratio = r.llama_bytes > 0 ? static_cast<double>(r.fit_bytes) / static_cast<double>(r.llama_bytes) : 0;
    t.add_row({TableCell::str(r.device), TableCell::count(r.fit_bytes, format_fixed(r.fit_bytes / 1048576.0, 2)),
               TableCell::count(r.llama_bytes, format_fixed(r.llama_bytes / 1048576.0, 2)),
               r.llama_bytes > 0 ? TableCell::number_text(ratio, format_fixed(ratio, 4)) : TableCell::absent()});
  }
  if (format == OutputFormat::kMarkdown) out << "\n";
  render(t, format, out);
}

}  // namespace rigbench::report
