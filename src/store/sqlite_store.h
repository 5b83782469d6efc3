// rigbench: the results database, a SQLite file.
//
// Layout (schema version in PRAGMA user_version, forward migrations in sqlite_store.cpp):
//   runs     one row per record: identity, time, machine, model, every knob, headline
//            figures (avg pp/tg tokens/s, avg TTFT ms) for queries, and the full record JSON
//   samples  one row per raw sample: (run_id, test 'pp'|'tg'|'ttft', idx, duration_ns)
//   run_parts each distinct part of a record (store/record_parts.h: setup, figures) once, as
//            JSON; runs.setup_part and runs.figures_part point into it (version 4)
// WAL journal; one transaction per record; parameterized statements only, each prepared once
// per open store (an import of many records prepares them once).
//
// Thread safety: one Store per thread. Several processes may write the same file (SQLite
// locking, 5 s busy timeout).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

struct sqlite3;

namespace rigbench::store {

// The schema version this build writes.
inline constexpr int kSchemaVersion = 4;

// Default database path: $XDG_DATA_HOME/rigbench/results.db, else
// $HOME/.local/share/rigbench/results.db. Errors: kRuntime when neither variable is set.
Result<std::string> default_db_path();

class SqliteStore;
// The results database a measuring subcommand (bench, embed, serve-bench) writes to, opened
// before its first run so that a bad --db fails early: `path`, or default_db_path() when empty;
// nullptr when `no_db` (--no-db). Errors as SqliteStore::open, with the hint "use --db PATH or
// --no-db".
Result<std::unique_ptr<SqliteStore>> open_results_db(const std::string& path, bool no_db);

// What a reader needs of each record. The parts a view does not show stay in the database,
// unread. From a version 4 file a view is read from the record's parts (each distinct part
// parsed once, samples from the samples table); from an older one SQLite removes what the
// view does not show from the record JSON before it is parsed.
enum class RecordView {
  kFull,     // every field (export, import, cost --run)
  kReport,   // without what no view shows: energy notes, meters and domains; samples_tps
             // (recomputed from samples_ns); roofline; cost notes; devices_used
  kCompare,  // kReport without the power trace (energy.power_trace) too
};

// Whether a reader gets one record per stored run or pools repetitions.
enum class Pooling {
  kNone,  // one record per stored run
  // compare and report: the runs of one setup part whose figures part is the same (the
  // repetitions of one configuration that measured no energy per run, or the same) are one
  // record: its samples are all of theirs in run order, its statistics recomputed from them,
  // RunRecord::runs their count, record_id the first stored run's, test_time the latest run's
  // and first_test_time the earliest run's (the span they were measured over), peak_rss_bytes
  // the highest. Every figure a view draws from them is the same as from the runs one by one
  // (report/comparison.h counts a per-run value RunRecord::runs times). Runs that are kept
  // apart: a power trace (kReport shows it), a summary-only result (its statistics are stated,
  // not samples), a prompt suite, embeddings, a serve-bench run. Only for a view other than
  // kFull of a database of version 4 or later; else as kNone.
  kRepetitions,
};

class SqliteStore {
 public:
  // Opens (creating the file and its directory if needed) and migrates to kSchemaVersion.
  // First checks that the folder (and an existing file) can be written (store/writable.h):
  // "database 'P': permission denied: cannot create files in DIR; <hint>".
  // Errors: kRuntime naming the path (cannot create, with errno's reason and `hint`; not an
  // SQLite file, store/sqlite_read.h's not_sqlite_reason, and `hint`; newer schema than this
  // build knows; locked for more than 5 s).
  static Result<std::unique_ptr<SqliteStore>> open(const std::string& path, const std::string& hint = "use --db PATH");

  // Opens an existing database to read (import, compare, report): the file is not changed,
  // not migrated, not switched to WAL, so another machine's older rigbench can still use it.
  // Any schema version up to kSchemaVersion reads (records are read from their JSON). save()
  // fails on it. A file this user may only read, or in a folder it cannot write, reads all the
  // same (store/sqlite_read.h). Errors: kRuntime "database 'P': <reason>": cannot open (errno's
  // text), not an SQLite file ("a text file, not an SQLite database"), "an empty file, not a
  // rigbench database", "an SQLite database, but not rigbench's (...)", a newer schema.
  static Result<std::unique_ptr<SqliteStore>> open_readonly(const std::string& path);
  ~SqliteStore();
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  // Saves one record and its samples in one transaction: all or nothing. A record whose
  // record_id is already stored is left as it is (returns success; importing twice
  // changes nothing), but for one case: a stored copy without raw samples (a llama-bench
  // csv or sql import) is replaced by one that has them (the same run's json or jsonl), so
  // the order files are imported in does not decide whether the samples are kept.
  // Errors: kRuntime with SQLite's message.
  enum class Saved { kAdded, kAlreadyStored, kReplacedSummary };
  Result<Saved> save_record(const RunRecord& rec);
  Status save(const RunRecord& rec);  // save_record, the outcome dropped
  // Whether `rec` has raw samples (pp, tg or TTFT durations) to store in the samples table.
  static bool holds_samples(const RunRecord& rec);

  // Every stored record, oldest first, holding what `view` needs (the fields it leaves out
  // at their defaults). Errors: kRuntime; kInvalidInput for a row whose JSON does not parse.
  // With Pooling::kRepetitions, the repetitions of a configuration as one record (above).
  Result<std::vector<RunRecord>> load_all(RecordView view = RecordView::kFull,
                                          Pooling pooling = Pooling::kNone) const;

  // The schema version of the open file (PRAGMA user_version).
  int schema_version() const;

  const std::string& path() const { return path_; }

 private:
  struct Statements;  // the statements save() and part_id() run, prepared once per open store

  SqliteStore(sqlite3* db, std::string path);
  // Opens `path` with sqlite3_open_v2 `flags` and a 5 s busy timeout.
  static Result<std::unique_ptr<SqliteStore>> connect(const std::string& path, int flags);
  Status migrate();
  Status add_knob_columns();  // a column per knob of core/knobs.h that the table lacks
  Status fill_parts();        // the parts (store/record_parts.h) of rows that lack them
  // The id in run_parts of the part `json`, added when new; nullopt on an SQLite error.
  std::optional<int64_t> part_id(const std::string& json);
  // load_all for a view other than kFull from a database of version 4 or later.
  Result<std::vector<RunRecord>> load_from_parts(RecordView view, Pooling pooling) const;
  Status exec(const char* sql);
  // The prepared statements, prepared on first use (after migrate(): the knob columns exist);
  // nullptr when one does not prepare (sqlite3_errmsg says why).
  Statements* statements();

  sqlite3* db_;
  std::string path_;
  std::unique_ptr<Statements> statements_;
};

}  // namespace rigbench::store
