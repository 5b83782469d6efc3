// rigbench: `rigbench import FILE...`, results from other machines and from llama-bench
// into the results database (formats and identity: store/import.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::cli {

struct ImportOptions {
  std::vector<std::string> files;  // FILE...: rigbench jsonl/json/db, llama-bench json/jsonl/csv/sql
  std::string db_path;             // --db: the database imported into ("" = the default database)
  std::string hostname;            // --machine (--hostname): machine.hostname of llama-bench rows, which name no host
  std::string gpu;                 // --gpu: gpu_info of a llama-bench markdown table ("" = its device lines)
  std::string source;              // --source: where a markdown table was published (kept as source_url)
  int repetitions = 0;             // -r: repetitions of summary-only llama-bench rows (csv, sql); 0 = unknown
  std::string output = "md";       // -o: md | json (what was imported, per file)
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_import_command(CLI::App& app, ImportOptions& opts);

// Reads every file ("-" is standard input; a bad file imports nothing of itself: one file
// given fails with its error; among several, each bad one is named on its own line, the
// others import, and the command fails at the end), then saves each record not stored yet
// and prints, per file, its format and how many records were added, already stored, or
// skipped (with the reasons, on stderr). Errors: store::read_import_file's, SqliteStore's,
// kInvalidInput counting the files skipped.
Status run_import_command(const ImportOptions& opts);

}  // namespace rigbench::cli
