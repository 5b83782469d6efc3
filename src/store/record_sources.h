// rigbench: the records that `compare`, `report` and `export` read, from one or more
// results databases (`--db PATH`, repeatable; the default database when none is given),
// and the one selection they share (`--model`, `--machine`, `--tag`).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "store/sqlite_store.h"

namespace rigbench::store {

// Which records to keep. Each value is a case-insensitive substring; the values of one flag
// are alternatives (any may match), the flags together must all match. Empty = all.
struct RecordFilter {
  std::vector<std::string> models;    // --model: model name, file type, file name
  std::vector<std::string> machines;  // --machine: hostname, CPU, GPU names and descriptions
  std::vector<std::string> tags;      // --tag: a tag given to `bench --tag` (or set by import)
  bool empty() const { return models.empty() && machines.empty() && tags.empty(); }
};

// The records of `records` that `filter` selects, in their order.
// Errors: kUsage naming the flag and value that matches no record at all ("--model 'x':
// matches no stored record (models: a, b)"), or, when each matches something but not
// together, naming them all.
Result<std::vector<RunRecord>> select_records(std::vector<RunRecord> records, const RecordFilter& filter);

// The results database a reader (compare, report, export, cost --run) reads: `path`, or
// default_db_path() when empty, opened read-only (SqliteStore::open_readonly). Reading never
// creates a database nor its folder. Errors: kNotFound "database 'P': no such file (run
// rigbench bench or rigbench import first, or give --db PATH)"; open_readonly's.
Result<std::unique_ptr<SqliteStore>> open_records_db(const std::string& path);

// Every record of each database in `db_paths` (the default database, default_db_path(),
// when empty), database by database, oldest first within each; a record_id seen before is
// dropped (the first copy kept); then select_records(filter). Reading never creates a
// database. Errors: open_records_db's for each path; SqliteStore's errors
// (kRuntime, kInvalidInput); select_records's.
// `view` says which parts of each record the reader needs (SqliteStore::load_all);
// `pooling` whether the repetitions of a configuration are one record (SqliteStore::load_all),
// honoured for one database only: records of several are told apart by record_id.
Result<std::vector<RunRecord>> load_records(const std::vector<std::string>& db_paths, const RecordFilter& filter = {},
                                            RecordView view = RecordView::kFull, Pooling pooling = Pooling::kNone);

}  // namespace rigbench::store
