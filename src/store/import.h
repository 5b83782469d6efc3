// rigbench: importing result files into the results database (`rigbench import`).
//
// Formats, told apart by content (never by file name):
//   rigbench jsonl    one record per line, as `rigbench bench -o jsonl` and `rigbench export` print
//   rigbench json     an array of records, as `rigbench bench -o json` prints
//   rigbench db       a rigbench SQLite results database (opened with SqliteStore, load_all)
//   llama-bench json, jsonl, csv, sql, and an SQLite file holding llama-bench's sql output
//                     (store/llama_bench_rows.h, mapped by store/llama_bench_record.h)
//   llama-bench md    its markdown tables, alone or within other text (a pasted comment):
//                     rounded summaries without samples (store/llama_bench_markdown.h)
// A file is read whole and checked before anything is saved: a bad file saves nothing.
// Records merge by record_id (SqliteStore::save keeps the stored one), so importing a file
// twice, or the same llama-bench run in two of its formats, changes nothing.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "store/sqlite_store.h"

namespace rigbench::store {

enum class ImportFormat {
  kRigbenchJsonl,
  kRigbenchJson,
  kRigbenchDb,
  kLlamaBenchJson,
  kLlamaBenchJsonl,
  kLlamaBenchCsv,
  kLlamaBenchSql,
  kLlamaBenchDb,
  kLlamaBenchMarkdown,
};

// "rigbench jsonl", "llama-bench csv", ...
std::string format_name(ImportFormat format);

// What one file holds.
struct ImportBatch {
  std::string path;
  ImportFormat format = ImportFormat::kRigbenchJsonl;
  std::vector<RunRecord> records;    // in file order
  std::vector<std::string> skipped;  // one line per row that maps to no record, with the reason
  // One line each about the file as a whole: the log lines skipped before its JSON, the machine
  // named from llama-bench's cpu_info and gpu_info.
  std::vector<std::string> notes;
};

struct ImportOptions {
  // machine.hostname of records from llama-bench output, which names no host ("" = named from
  // each row's cpu_info and gpu_info, llama_bench_machine_name, with a note saying so).
  std::string llama_bench_hostname;
  // Repetitions of the llama-bench run (its -r), the n of summary-only rows (csv, sql),
  // whose files do not say it; 0 = unknown.
  int llama_bench_repetitions = 0;
  // gpu_info of llama-bench markdown rows, whose table does not name the GPU ("" = the
  // device lines printed above the table, if any).
  std::string llama_bench_gpu;
  // Where a llama-bench markdown table was published (a URL), kept in each record's
  // source_fields["source_url"]; "" = not said.
  std::string source_url;
};

// Reads the file at `path`, detecting its format. Lines before a JSON file's JSON (a backend's
// log on standard output, store/foreign_file.h) are skipped, counted in a note. Errors:
// kNotFound when it does not exist; kInvalidInput naming the file and the line or key that is
// wrong (unknown format, a line that is not JSON, a record missing a key, a rigbench CSV,
// which holds no raw samples; rigbench's own markdown output, saying to `rigbench export -o
// jsonl` where its runs are stored; a GGUF model or another tool's JSON, saying what it is and
// which subcommand takes it; a llama-bench markdown cell that does not read:
// store/llama_bench_markdown.h).
Result<ImportBatch> read_import_file(const std::string& path, const ImportOptions& options = {});

struct ImportCounts {
  std::size_t added = 0;           // records that were new to the database
  std::size_t already_stored = 0;  // records whose record_id was there already (left as they were)
  std::size_t samples_added = 0;   // records stored without raw samples (llama-bench csv or sql) that
                                   // this file's copy of the same run, with them, replaced
  // Of the records already stored, those stored under another machine name than this file's
  // (an import again with --machine): that name -> how many. The stored name stays.
  std::map<std::string, std::size_t> stored_as;
};

// Saves every record of `batch` into `db`, one transaction each. Errors: SqliteStore's.
Result<ImportCounts> save_batch(SqliteStore& db, const ImportBatch& batch);

}  // namespace rigbench::store
