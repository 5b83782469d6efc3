#include "cli/import_command.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "report/escape.h"
#include "store/import.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

CLI::App* add_import_command(CLI::App& app, ImportOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "import", "Import results: rigbench jsonl/json/database from other machines, llama-bench json/jsonl/csv/sql");
  cmd->add_option("files", o.files, "files to import (the format is read from the content)")->required();
  cmd->add_option("--db", o.db_path, "database to import into (default: $XDG_DATA_HOME/rigbench/results.db)")->take_last();
  cmd->add_option("--hostname", o.hostname, "machine name for llama-bench rows, whose output names no host");
  cmd->add_option("-o,--output", o.output, "md or json")->check(CLI::IsMember({"md", "json"}))->capture_default_str();
  return cmd;
}

Status run_import_command(const ImportOptions& o) {
  // 1. Every file read and checked before anything is saved.
  store::ImportOptions read_options;
  read_options.llama_bench_hostname = o.hostname;
  std::vector<store::ImportBatch> batches;
  for (const std::string& file : o.files) {
    auto batch = store::read_import_file(file, read_options);
    if (!batch) return std::unexpected(batch.error());
    batches.push_back(std::move(*batch));
  }

  // 2. The target database.
  std::string path = o.db_path;
  if (path.empty()) {
    auto p = store::default_db_path();
    if (!p) return std::unexpected(p.error());
    path = *p;
  }
  auto db = store::SqliteStore::open(path);
  if (!db) return std::unexpected(db.error());

  // 3. Save, then say what happened.
  std::vector<store::ImportCounts> counts;
  for (const store::ImportBatch& batch : batches) {
    auto c = store::save_batch(**db, batch);
    if (!c) return std::unexpected(c.error());
    counts.push_back(*c);
    for (const std::string& why : batch.skipped) std::fprintf(stderr, "rigbench: note: %s: %s\n", batch.path.c_str(), why.c_str());
  }
  if (o.output == "json") {
    nlohmann::ordered_json summary = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < batches.size(); ++i) {
      summary.push_back({{"file", batches[i].path},
                         {"format", store::format_name(batches[i].format)},
                         {"records", batches[i].records.size()},
                         {"added", counts[i].added},
                         {"already_stored", counts[i].already_stored},
                         {"skipped", batches[i].skipped}});
    }
    std::cout << summary.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return {};
  }
  std::cout << "| file | format | records | added | already stored | skipped |\n|---|---|---:|---:|---:|---:|\n";
  for (std::size_t i = 0; i < batches.size(); ++i) {
    std::cout << "| " << report::md_escape(batches[i].path) << " | " << store::format_name(batches[i].format) << " | "
              << batches[i].records.size() << " | " << counts[i].added << " | " << counts[i].already_stored << " | "
              << batches[i].skipped.size() << " |\n";
  }
  return {};
}

}  // namespace rigbench::cli
