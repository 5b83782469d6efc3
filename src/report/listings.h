// rigbench: the small listings as tables (report/table.h), each in md, csv, json and jsonl:
//   presets   one row per model preset (`rigbench presets`)
//   devices   one row per catalog device (`rigbench devices`); json rows also carry each
//             figure's "sources"
//   import    one row per file imported (`rigbench import`)
#pragma once

#include <ostream>
#include <vector>

#include "hw/catalog.h"
#include "model/preset.h"
#include "report/table.h"
#include "store/import.h"

namespace rigbench::report {

// Columns: name ("preset"), arch, n_params ("params"), n_layer ("layers"), n_embd, n_head
// ("heads"), n_head_kv ("kv heads"), n_ff, n_vocab, n_ctx_train, features, source (csv/json
// only: the config.json address).
Table presets_table(const std::vector<model::Preset>& presets);
void print_presets(const std::vector<model::Preset>& presets, OutputFormat format, std::ostream& out);

// Columns: name ("device"), kind, backend, memory_bytes ("memory GiB": installed),
// visible_bytes (csv/json only: what llama.cpp's device reports, CatalogDevice::visible_bytes),
// usable_bytes ("usable GiB": fit::usable_bytes of that, fit's usable), bandwidth_gbps ("bandwidth GB/s"), board_power_w ("board W"), price_usd ("price
// USD", the launch price), usd_per_gib ("USD/GiB"), host (csv/json only: a GPU's stated
// host, a "cpu" entry); absent figures null / "-". The md notes say what usable is and name
// the catalog file.
Table devices_table(const std::vector<hw::CatalogDevice>& catalog, const std::string& catalog_path);
void print_devices(const std::vector<hw::CatalogDevice>& catalog, const std::string& catalog_path, OutputFormat format,
                   std::ostream& out);

// Columns: file, format, records, added, already_stored ("already stored"), samples_added
// ("gained samples": stored summaries without raw samples that this file's copy replaced,
// explained in a note where any did),
// skipped (rows left out; the reasons go to stderr).
// json/jsonl rows also carry "skipped_reasons" (one line per row left out).
Table import_table(const std::vector<store::ImportBatch>& batches, const std::vector<store::ImportCounts>& counts);
void print_import(const std::vector<store::ImportBatch>& batches, const std::vector<store::ImportCounts>& counts,
                  OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
