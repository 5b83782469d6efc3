// rigbench: `rigbench export`, every stored record in the one serialized form
// (store/record_json.h), so that another machine can `rigbench import` it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/status.h"
#include "store/record_sources.h"

namespace rigbench::cli {

struct ExportOptions {
  std::vector<std::string> db_paths;  // --db (repeatable): databases read ("" = the default database)
  store::RecordFilter filter;         // --model, --machine, --tag: which records (store::select_records)
  std::string output = "jsonl";       // -o: jsonl (what import reads back) | json | csv | md | sql
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_export_command(CLI::App& app, ExportOptions& opts);

// Prints every record (store::load_records: oldest first, duplicates dropped) to stdout
// (report/export_printer.h). Errors: store::load_records's.
Status run_export_command(const ExportOptions& opts);

}  // namespace rigbench::cli
