// rigbench: what every subcommand that stores records (bench, embed, serve-bench, tune) shares,
// declared once: the flags --db PATH, --no-db, --tag TEXT (repeatable) and --machine NAME, and
// the sink their records go through as they come (the database, then -o json|jsonl's printer).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "report/printer.h"
#include "report/table.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

// Declares --db, --no-db, --tag and --machine on `cmd` into the given fields. `what`: what is
// stored, in --no-db's help ("results", "trials").
void add_record_flags(CLI::App& cmd, std::string& db_path, bool& no_db, std::vector<std::string>& tags,
                      std::string& machine, const std::string& what = "results");

// "rigbench: N records stored in PATH" on stderr (`what`: "record", "trial record"), when
// `db` is open and any were stored.
void say_stored(const store::SqliteStore* db, int stored, const std::string& what = "record");

// A run's records as they come: each saved in `db` (when one is open: --no-db gives none) and,
// for -o json|jsonl, printed. A record the database refuses is the error of add() and stops
// there; the printer's output is then left as it was (finish() writes no closing "]" after it).
class RecordSink {
 public:
  RecordSink(store::SqliteStore* db, report::OutputFormat format, std::ostream& out);
  // Saves `rec` (a refused save: that error, nothing printed), then prints it.
  Status add(const RunRecord& rec);
  // Ends the printer's output (json: "]") unless the database refused a record.
  void finish();
  bool printing() const { return printer_ != nullptr; }  // -o json|jsonl
  // say_stored of the records it stored.
  void say_stored() const { cli::say_stored(db_, stored_); }

 private:
  store::SqliteStore* db_;
  std::unique_ptr<report::Printer> printer_;
  int stored_ = 0;
  bool store_failed_ = false;
};

}  // namespace rigbench::cli
