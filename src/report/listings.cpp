#include "report/listings.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "fit/usable.h"
#include "model/tensor_layout.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

uint64_t count_params(const model::Preset& p) {
  uint64_t n = 0;
  for (const auto& t : model::tensor_layout(p)) n += t.n_elements();
  return n;
}

std::string features(const model::Preset& p) {
  std::vector<std::string> f;
  if (p.arch == "bert") f.push_back("embeddings");
  if (p.n_head_kv && p.n_head_kv < p.n_head && !p.is_mla())
    f.push_back("GQA " + std::to_string(p.n_head / p.n_head_kv) + ":1");
  if (p.n_swa) f.push_back("SWA " + std::to_string(p.n_swa));
  if (p.n_expert) f.push_back("MoE " + std::to_string(p.n_expert_used) + "/" + std::to_string(p.n_expert));
  if (p.is_mla()) f.push_back("MLA");
  return join(f, ", ");
}

TableCell optional_number(const std::optional<double>& v, int decimals) {
  return v ? TableCell::number(*v, decimals) : TableCell::absent();
}

std::string gib_text(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / (1ull << 30));
  return buf;
}

}  // namespace

Table presets_table(const std::vector<model::Preset>& presets) {
  Table t({{"name", "preset"},
           {"arch", "arch"},
           {"n_params", "params", Align::kRight},
           {"n_layer", "layers", Align::kRight},
           {"n_embd", "n_embd", Align::kRight},
           {"n_head", "heads", Align::kRight},
           {"n_head_kv", "kv heads", Align::kRight},
           {"n_ff", "n_ff", Align::kRight, true},
           {"n_vocab", "n_vocab", Align::kRight, true},
           {"n_ctx_train", "n_ctx_train", Align::kRight},
           {"features", "features"},
           {"source", "", Align::kLeft, false, true}});
  for (const auto& p : presets) {
    const uint64_t n = count_params(p);
    t.add_row({TableCell::str(p.name), TableCell::str(p.arch), TableCell::count(n, format_count(n)),
               TableCell::count(p.n_layer), TableCell::count(p.n_embd), TableCell::count(p.n_head),
               TableCell::count(p.n_head_kv), TableCell::count(p.n_ff), TableCell::count(p.n_vocab),
               TableCell::count(p.n_ctx_train), TableCell::str(features(p)), TableCell::str(p.source)});
  }
  t.add_note("each preset's config.json address: -o json or -o csv (source)");
  return t;
}

void print_presets(const std::vector<model::Preset>& presets, OutputFormat format, std::ostream& out) {
  render(presets_table(presets), format, out);
}

Table devices_table(const std::vector<hw::CatalogDevice>& catalog, const std::string& catalog_path) {
  // fit's usable: what the device reports less the reserve llama.cpp's --fit keeps free.
  auto usable = [](const hw::CatalogDevice& d) { return fit::usable_bytes(d.visible_bytes()); };
  Table t({{"name", "device"},
           {"kind", "kind", Align::kLeft, false, true},
           {"backend", "backend"},
           {"memory_bytes", "memory GiB", Align::kRight},
           {"visible_bytes", "visible GiB", Align::kRight, false, true},
           {"usable_bytes", "usable GiB", Align::kRight},
           {"bandwidth_gbps", "bandwidth GB/s", Align::kRight},
           {"board_power_w", "board W", Align::kRight},
           {"price_usd", "price USD", Align::kRight},
           {"usd_per_gib", "USD/GiB", Align::kRight},
           {"host", "host", Align::kLeft, false, true}});
  for (const auto& d : catalog) {
    t.add_row({TableCell::str(d.name), TableCell::str(d.kind), TableCell::str(d.backend),
               TableCell::count(d.memory_bytes, gib_text(d.memory_bytes)),
               TableCell::count(d.visible_bytes(), gib_text(d.visible_bytes())),
               TableCell::count(usable(d), gib_text(usable(d))), TableCell::number(d.bandwidth_gbps, 1),
               optional_number(d.board_power_w, 0), optional_number(d.price_usd, 0),
               optional_number(d.usd_per_gib(), 2), d.host.empty() ? TableCell::absent() : TableCell::str(d.host)});
  }
  t.add_note(fit::usable_definition() + ", as fit plans against; what the device reports: visible_bytes in -o csv/json");
  t.add_note("sources: " + catalog_path + " (every figure's source is in -o json)");
  return t;
}

namespace {

// json/jsonl of `t` with `extra(i, row)` adding what a cell cannot hold; other formats as render().
template <typename Extra>
void render_with(const Table& t, OutputFormat format, std::ostream& out, Extra extra) {
  if (format != OutputFormat::kJson && format != OutputFormat::kJsonl) {
    render(t, format, out);
    return;
  }
  Json rows = table_rows_json(t);
  for (std::size_t i = 0; i < rows.size(); ++i) extra(i, rows[i]);
  if (format == OutputFormat::kJson) {
    out << rows.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    for (const auto& r : rows) out << r.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  }
  out << std::flush;
}

}  // namespace

void print_devices(const std::vector<hw::CatalogDevice>& catalog, const std::string& catalog_path, OutputFormat format,
                   std::ostream& out) {
  render_with(devices_table(catalog, catalog_path), format, out,
              [&](std::size_t i, Json& row) { row["sources"] = catalog[i].sources; });
}

Table import_table(const std::vector<store::ImportBatch>& batches, const std::vector<store::ImportCounts>& counts) {
  Table t({{"file", "file"},
           {"format", "format"},
           {"records", "records", Align::kRight},
           {"added", "added", Align::kRight},
           {"already_stored", "already stored", Align::kRight},
           {"samples_added", "gained samples", Align::kRight},
           {"skipped", "skipped", Align::kRight}});
  for (std::size_t i = 0; i < batches.size() && i < counts.size(); ++i) {
    t.add_row({TableCell::str(batches[i].path), TableCell::str(store::format_name(batches[i].format)),
               TableCell::count(batches[i].records.size()), TableCell::count(counts[i].added),
               TableCell::count(counts[i].already_stored), TableCell::count(counts[i].samples_added),
               TableCell::count(batches[i].skipped.size())});
  }
  if (std::any_of(counts.begin(), counts.end(), [](const store::ImportCounts& c) { return c.samples_added > 0; }))
    t.add_note(
        "gained samples: records stored earlier as summaries without their samples (llama-bench csv or sql) "
        "that this file holds with them; the stored copy now has the samples, nothing was lost.");
  return t;
}

void print_import(const std::vector<store::ImportBatch>& batches, const std::vector<store::ImportCounts>& counts,
                  OutputFormat format, std::ostream& out) {
  render_with(import_table(batches, counts), format, out,
              [&](std::size_t i, Json& row) { row["skipped_reasons"] = batches[i].skipped; });
}

}  // namespace rigbench::report
