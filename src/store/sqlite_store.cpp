#include "store/sqlite_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/knobs.h"
#include "core/results.h"
#include "core/strings.h"
#include "store/record_json.h"
#include "store/record_parts.h"
#include "store/sqlite_read.h"
#include "store/writable.h"

namespace rigbench::store {

namespace fs = std::filesystem;

namespace {

// Each entry migrates from version i to i+1. Version 1: the first schema; 2: runs.load_mode
// (rows stored before it read 'auto', llama.cpp's default, which those runs used); 3:
// runs.status (ok, refused, failed, interrupted) and runs.failed (the error of a failed run);
// 4: the record in parts (store/record_parts.h), which compare and report read: the table
// run_parts holds each distinct part's JSON once, runs.setup_part and runs.figures_part
// point into it, runs.power_trace_json keeps the power trace; migrate() fills older rows.
// Beyond these, every knob of core/knobs.h has a column of its key, added when missing (at
// the knob's default, which runs stored before it used): a new knob needs no migration.
constexpr const char* kMigrations[] = {
    R"sql(
CREATE TABLE runs (
  id                INTEGER PRIMARY KEY,
  record_id         TEXT NOT NULL UNIQUE,
  test_time         TEXT NOT NULL,
  machine_hostname  TEXT,
  machine_cpu       TEXT,
  machine_os        TEXT,
  rigbench_version  TEXT,
  llama_cpp_commit  TEXT,
  model_name        TEXT NOT NULL,
  model_path        TEXT,
  model_arch        TEXT,
  model_file_type   TEXT,
  model_fingerprint TEXT,
  model_synthetic   INTEGER NOT NULL,
  n_prompt          INTEGER NOT NULL,
  n_gen             INTEGER NOT NULL,
  n_depth           INTEGER NOT NULL,
  n_batch           INTEGER NOT NULL,
  n_ubatch          INTEGER NOT NULL,
  n_threads         INTEGER NOT NULL,
  n_gpu_layers      INTEGER NOT NULL,
  flash_attn        TEXT NOT NULL,
  type_k            TEXT NOT NULL,
  type_v            TEXT NOT NULL,
  pp_avg_tps        REAL,
  tg_avg_tps        REAL,
  ttft_avg_ms       REAL,
  peak_rss_bytes    INTEGER,
  interrupted       INTEGER NOT NULL,
  refused           TEXT,
  energy_method     TEXT,
  tg_j_per_token    REAL,
  cost_currency     TEXT,
  cost_gross_per_mtok REAL,
  tags              TEXT,
  record_json       TEXT NOT NULL
);
CREATE INDEX runs_model ON runs(model_fingerprint, test_time);
CREATE TABLE samples (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  test        TEXT NOT NULL CHECK (test IN ('pp', 'tg', 'ttft')),
  idx         INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL,
  PRIMARY KEY (run_id, test, idx)
);
)sql",
    R"sql(
ALTER TABLE runs ADD COLUMN load_mode TEXT NOT NULL DEFAULT 'auto';
)sql",
    R"sql(
ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT 'ok';
ALTER TABLE runs ADD COLUMN failed TEXT;
UPDATE runs SET status = 'refused' WHERE refused IS NOT NULL;
UPDATE runs SET status = 'interrupted' WHERE refused IS NULL AND interrupted = 1;
)sql",
    R"sql(
CREATE TABLE run_parts (
  id   INTEGER PRIMARY KEY,
  json TEXT NOT NULL UNIQUE
);
ALTER TABLE runs ADD COLUMN setup_part INTEGER;
ALTER TABLE runs ADD COLUMN figures_part INTEGER;
ALTER TABLE runs ADD COLUMN power_trace_json TEXT;
)sql",
};
constexpr int kMigrationCount = sizeof(kMigrations) / sizeof(kMigrations[0]);
static_assert(kMigrationCount == kSchemaVersion);

// A prepared statement, finalized on scope exit.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  sqlite3_stmt* get() const { return s_; }
  // Ready to bind and step again (a statement kept prepared across calls).
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  void bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  void bind(int i, double v) { sqlite3_bind_double(s_, i, v); }
  void bind_null(int i) { sqlite3_bind_null(s_, i); }

 private:
  sqlite3_stmt* s_ = nullptr;
  int rc_ = SQLITE_ERROR;
};

// How many rows `table` holds, to size a vector before reading them; 0 when the count fails.
std::size_t row_count(sqlite3* db, const char* table) {
  const std::string sql = std::string("SELECT COUNT(*) FROM ") + table;
  Stmt count(db, sql.c_str());
  if (!count.ok() || sqlite3_step(count.get()) != SQLITE_ROW) return 0;
  return static_cast<std::size_t>(sqlite3_column_int64(count.get(), 0));
}

// The error for a file at schema `version`, above what this build knows.
std::string newer_schema(int version) {
  return "schema version " + std::to_string(version) + " is newer than this rigbench knows (" +
         std::to_string(kSchemaVersion) + ")";
}

// The INSERT of a run: the headline columns, then one per knob (core/knobs.h), then the record itself.
const std::string& insert_run_sql() {
  static const std::string kInsert = [] {
    std::string cols =
        "record_id, test_time, machine_hostname, machine_cpu, machine_os, rigbench_version, "
        "llama_cpp_commit, model_name, model_path, model_arch, model_file_type, model_fingerprint, "
        "model_synthetic, n_prompt, n_gen, pp_avg_tps, tg_avg_tps, ttft_avg_ms, peak_rss_bytes, "
        "interrupted, refused, failed, status, energy_method, tg_j_per_token, cost_currency, "
        "cost_gross_per_mtok, tags, record_json, setup_part, figures_part, power_trace_json";
    int n = 32;
    for (const Knob& k : knobs()) {
      cols += ", " + k.key;
      ++n;
    }
    std::string marks;
    for (int i = 1; i <= n; ++i) marks += (i > 1 ? ", ?" : "?") + std::to_string(i);
    return "INSERT INTO runs (" + cols + ") VALUES (" + marks + ") ON CONFLICT(record_id) DO NOTHING";
  }();
  return kInsert;
}

}  // namespace

struct SqliteStore::Statements {
  explicit Statements(sqlite3* db)
      : insert_run(db, insert_run_sql().c_str()),
        insert_sample(db, "INSERT INTO samples (run_id, test, idx, duration_ns) VALUES (?1, ?2, ?3, ?4)"),
        insert_part(db, "INSERT INTO run_parts (json) VALUES (?1) ON CONFLICT(json) DO NOTHING"),
        select_part(db, "SELECT id FROM run_parts WHERE json = ?1"),
        drop_summary(db,
                     "DELETE FROM runs WHERE record_id = ?1 AND NOT EXISTS "
                     "(SELECT 1 FROM samples WHERE run_id = runs.id)") {}
  bool ok() const {
    return insert_run.ok() && insert_sample.ok() && insert_part.ok() && select_part.ok() && drop_summary.ok();
  }

  // drop_summary: a stored copy of a run without raw samples (save_record replaces it).
  Stmt insert_run, insert_sample, insert_part, select_part, drop_summary;
};

SqliteStore::SqliteStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

SqliteStore::Statements* SqliteStore::statements() {
  if (!statements_) {
    auto s = std::make_unique<Statements>(db_);
    if (!s->ok()) return nullptr;  // not kept: the next call prepares again
    statements_ = std::move(s);
  }
  return statements_.get();
}

Result<std::string> default_db_path() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg && *xdg) return (fs::path(xdg) / "rigbench" / "results.db").string();
  const char* home = std::getenv("HOME");
  if (home && *home) return (fs::path(home) / ".local" / "share" / "rigbench" / "results.db").string();
  return fail(ErrorCode::kRuntime, "database: neither XDG_DATA_HOME nor HOME is set; use --db PATH or --no-db");
}

Result<std::unique_ptr<SqliteStore>> open_results_db(const std::string& path, bool no_db) {
  if (no_db) return std::unique_ptr<SqliteStore>{};
  std::string p = path;
  if (p.empty()) {
    auto d = default_db_path();
    if (!d) return std::unexpected(d.error());
    p = *d;
  }
  return SqliteStore::open(p, "use --db PATH or --no-db");
}

Result<std::unique_ptr<SqliteStore>> SqliteStore::open(const std::string& path, const std::string& hint) {
  const std::string where = "database '" + path + "'";
  // WAL needs the folder writable too (the -wal and -shm files), even for an existing file.
  if (Status s = check_writable("database", path, hint, WriteMode::kInPlace); !s) {
    return std::unexpected(s.error());
  }
  if (const std::string why = not_sqlite_reason(path); !why.empty()) {
    return fail(ErrorCode::kRuntime, where + ": " + why + "; " + hint);
  }

  auto store = connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!store) return store;
  for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL"}) {
    if (Status s = (*store)->exec(pragma); !s) return fail(ErrorCode::kRuntime, where + ": " + s.error().message);
  }
  if (Status s = (*store)->migrate(); !s) return fail(ErrorCode::kRuntime, where + ": " + s.error().message);
  return store;
}

Result<std::unique_ptr<SqliteStore>> SqliteStore::open_readonly(const std::string& path) {
  const std::string where = "database '" + path + "': ";
  auto db = open_sqlite_to_read(path);  // a text file said so; a read-only folder read all the same
  if (!db) return fail(ErrorCode::kRuntime, where + db.error().message);
  std::unique_ptr<SqliteStore> store(new SqliteStore(db->release(), path));
  // Readers scan every row: mapped pages are read in place rather than copied (1 GiB at most).
  (void)store->exec("PRAGMA mmap_size=1073741824");
  Stmt st(store->db_, "PRAGMA user_version");
  if (!st.ok() || sqlite3_step(st.get()) != SQLITE_ROW)
    return fail(ErrorCode::kRuntime, where + "cannot read its schema version: " + sqlite3_errmsg(store->db_));
  const int version = sqlite3_column_int(st.get(), 0);
  if (version < 1) {
    std::error_code ec;
    if (fs::file_size(path, ec) == 0 && !ec) return fail(ErrorCode::kRuntime, where + "an empty file, not a rigbench database");
    return fail(ErrorCode::kRuntime, where + "an SQLite database, but not rigbench's (no schema version, no results)");
  }
  if (version > kSchemaVersion) return fail(ErrorCode::kRuntime, where + newer_schema(version));
  return store;
}

Result<std::unique_ptr<SqliteStore>> SqliteStore::connect(const std::string& path, int flags) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return fail(ErrorCode::kRuntime, "database '" + path + "': " + msg);
  }
  sqlite3_busy_timeout(db, 5000);
  return std::unique_ptr<SqliteStore>(new SqliteStore(db, path));
}

SqliteStore::~SqliteStore() {
  statements_.reset();  // finalized before the connection closes
  sqlite3_close(db_);
}

Status SqliteStore::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    return fail(ErrorCode::kRuntime, msg);
  }
  return {};
}

Status SqliteStore::add_knob_columns() {
  std::set<std::string> have;
  Stmt info(db_, "PRAGMA table_info(runs)");
  if (!info.ok()) return fail(ErrorCode::kRuntime, sqlite3_errmsg(db_));
  while (sqlite3_step(info.get()) == SQLITE_ROW) {
    have.insert(reinterpret_cast<const char*>(sqlite3_column_text(info.get(), 1)));
  }
  for (const Knob& k : knobs()) {
    if (have.count(k.key)) continue;
    const bool is_int = k.type == Knob::Type::kInt;
    const std::string def = knob_default(k);
    const std::string sql = "ALTER TABLE runs ADD COLUMN " + k.key + (is_int ? " INTEGER" : " TEXT") +
                            " NOT NULL DEFAULT " + (is_int ? def : "'" + def + "'");
    if (Status s = exec(sql.c_str()); !s) return s;
  }
  return {};
}

Status SqliteStore::fill_parts() {
  // In batches, so that neither a statement reads rows it is updating nor memory holds them all.
  Stmt update(db_, "UPDATE runs SET setup_part = ?1, figures_part = ?2, power_trace_json = ?3 WHERE id = ?4");
  if (!update.ok()) return fail(ErrorCode::kRuntime, sqlite3_errmsg(db_));
  for (;;) {
    std::vector<std::pair<int64_t, RecordParts>> batch;
    {
      Stmt rows(
          db_,
          "SELECT id, record_json FROM runs WHERE setup_part IS NULL OR figures_part IS NULL ORDER BY id LIMIT 1000");
      if (!rows.ok()) return fail(ErrorCode::kRuntime, sqlite3_errmsg(db_));
      while (sqlite3_step(rows.get()) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(rows.get(), 1));
        const auto j = Json::parse(text ? text : "", nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded() || !j.is_object()) {
          return fail(ErrorCode::kInvalidInput, "run " + std::to_string(sqlite3_column_int64(rows.get(), 0)) +
                                                    ": the record's JSON does not parse");
        }
        batch.emplace_back(sqlite3_column_int64(rows.get(), 0), split_record(j));
      }
    }
    if (batch.empty()) return {};
    for (const auto& [id, parts] : batch) {
      const auto setup = part_id(parts.setup);
      const auto figures = part_id(parts.figures);
      if (!setup || !figures) return fail(ErrorCode::kRuntime, sqlite3_errmsg(db_));
      sqlite3_reset(update.get());
      update.bind(1, *setup);
      update.bind(2, *figures);
      if (parts.power_trace.empty()) update.bind_null(3);
      else update.bind(3, parts.power_trace);
      update.bind(4, id);
      if (sqlite3_step(update.get()) != SQLITE_DONE) return fail(ErrorCode::kRuntime, sqlite3_errmsg(db_));
    }
  }
}

std::optional<int64_t> SqliteStore::part_id(const std::string& json) {
  Statements* st = statements();
  if (!st) return std::nullopt;
  Stmt& ins = st->insert_part;
  Stmt& sel = st->select_part;
  ins.reset();
  ins.bind(1, json);
  const int rc = sqlite3_step(ins.get());
  ins.reset();
  if (rc != SQLITE_DONE) return std::nullopt;
  sel.reset();
  sel.bind(1, json);
  if (sqlite3_step(sel.get()) != SQLITE_ROW) {
    sel.reset();
    return std::nullopt;
  }
  const int64_t id = sqlite3_column_int64(sel.get(), 0);
  sel.reset();
  return id;
}

int SqliteStore::schema_version() const {
  Stmt st(db_, "PRAGMA user_version");
  return (st.ok() && sqlite3_step(st.get()) == SQLITE_ROW) ? sqlite3_column_int(st.get(), 0) : -1;
}

Status SqliteStore::migrate() {
  if (Status s = exec("BEGIN IMMEDIATE"); !s) return s;
  const int version = schema_version();
  if (version < 0) {
    const std::string msg = std::string("cannot read its schema version: ") + sqlite3_errmsg(db_);
    (void)exec("ROLLBACK");
    return fail(ErrorCode::kRuntime, msg);
  }
  if (version > kSchemaVersion) {
    (void)exec("ROLLBACK");
    return fail(ErrorCode::kRuntime, newer_schema(version));
  }
  for (int v = version; v < kSchemaVersion; ++v) {
    if (Status s = exec(kMigrations[v]); !s) {
      (void)exec("ROLLBACK");
      return s;
    }
  }
  if (Status s = add_knob_columns(); !s) {
    (void)exec("ROLLBACK");
    return s;
  }
  if (Status s = fill_parts(); !s) {
    (void)exec("ROLLBACK");
    return s;
  }
  // What compare and report read of every run (load_from_parts), so that they read it from an
  // index rather than the rows, which hold each record's JSON; and the runs with a power trace.
  // A file without them (written by an older rigbench, or opened read-only) reads the same, slower.
  if (Status s = exec("CREATE INDEX IF NOT EXISTS runs_view ON runs(id, record_id, test_time, peak_rss_bytes, "
                      "setup_part, figures_part);"
                      "CREATE INDEX IF NOT EXISTS runs_traced ON runs(id) WHERE power_trace_json IS NOT NULL");
      !s) {
    (void)exec("ROLLBACK");
    return s;
  }
  const std::string set_version = "PRAGMA user_version=" + std::to_string(kSchemaVersion);
  if (Status s = exec(set_version.c_str()); !s) {
    (void)exec("ROLLBACK");
    return s;
  }
  return exec("COMMIT");
}

bool SqliteStore::holds_samples(const RunRecord& rec) {
  return (rec.results.pp && !rec.results.pp->samples_ns.empty()) ||
         (rec.results.tg && !rec.results.tg->samples_ns.empty()) ||
         (rec.results.ttft && !rec.results.ttft->samples_ns.empty());
}

Status SqliteStore::save(const RunRecord& rec) {
  auto saved = save_record(rec);
  if (!saved) return std::unexpected(saved.error());
  return {};
}

Result<SqliteStore::Saved> SqliteStore::save_record(const RunRecord& rec) {
  if (Status s = exec("BEGIN IMMEDIATE"); !s) return std::unexpected(s.error());
  auto rollback = [&](const std::string& what) -> Result<Saved> {
    std::string msg = what + ": " + sqlite3_errmsg(db_);
    (void)exec("ROLLBACK");
    return fail(ErrorCode::kRuntime, "database '" + path_ + "': " + msg);
  };

  Statements* st = statements();
  if (!st) return rollback("prepare");
  // A stored copy of this run without raw samples gives way to this one with them.
  bool replaced = false;
  if (holds_samples(rec)) {
    Stmt& drop = st->drop_summary;
    drop.reset();
    drop.bind(1, rec.record_id);
    const int rc = sqlite3_step(drop.get());
    drop.reset();
    if (rc != SQLITE_DONE) return rollback("replace a summary-only record");
    replaced = sqlite3_changes(db_) > 0;
  }
  Stmt& ins = st->insert_run;
  ins.reset();
  const auto& p = rec.params;
  int i = 1;
  ins.bind(i++, rec.record_id);
  ins.bind(i++, rec.test_time);
  ins.bind(i++, rec.machine.hostname);
  ins.bind(i++, rec.machine.cpu);
  ins.bind(i++, rec.machine.os);
  ins.bind(i++, rec.build.rigbench_version);
  ins.bind(i++, rec.build.llama_cpp_commit);
  ins.bind(i++, rec.model.name);
  ins.bind(i++, rec.model.path);
  ins.bind(i++, rec.model.arch);
  ins.bind(i++, rec.model.file_type);
  ins.bind(i++, rec.model.fingerprint);
  ins.bind(i++, int64_t{rec.model.synthetic});
  ins.bind(i++, int64_t{p.n_prompt});
  ins.bind(i++, int64_t{p.n_gen});
  if (rec.results.pp) ins.bind(i++, rec.results.pp->tps.mean);
  else ins.bind_null(i++);
  if (rec.results.tg) ins.bind(i++, rec.results.tg->tps.mean);
  else ins.bind_null(i++);
  if (rec.results.ttft) ins.bind(i++, rec.results.ttft->ms.mean);
  else ins.bind_null(i++);
  ins.bind(i++, static_cast<int64_t>(rec.memory.peak_rss_bytes));
  ins.bind(i++, int64_t{rec.interrupted});
  if (rec.refused.empty()) ins.bind_null(i++);
  else ins.bind(i++, rec.refused);
  if (rec.failed.empty()) ins.bind_null(i++);
  else ins.bind(i++, rec.failed);
  ins.bind(i++, std::string(run_status(rec)));
  ins.bind(i++, rec.energy.method);
  if (rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token)) ins.bind(i++, rec.energy.tg->j_per_token);
  else ins.bind_null(i++);
  if (rec.cost) ins.bind(i++, rec.cost->currency);
  else ins.bind_null(i++);
  if (rec.cost && std::isfinite(rec.cost->gross_per_mtok)) ins.bind(i++, rec.cost->gross_per_mtok);
  else ins.bind_null(i++);
  ins.bind(i++, join(rec.tags, ";"));
  const Json json = to_json(rec);
  ins.bind(i++, json.dump());
  const RecordParts parts = split_record(json);
  const auto setup = part_id(parts.setup);
  const auto figures = part_id(parts.figures);
  if (!setup || !figures) return rollback("insert run part");
  ins.bind(i++, *setup);
  ins.bind(i++, *figures);
  if (parts.power_trace.empty()) ins.bind_null(i++);
  else ins.bind(i++, parts.power_trace);
  for (const Knob& k : knobs()) {
    if (k.type == Knob::Type::kInt) ins.bind(i++, int64_t{p.*k.int_field});
    else ins.bind(i++, p.*k.text_field);
  }
  const int rc = sqlite3_step(ins.get());
  ins.reset();
  if (rc != SQLITE_DONE) return rollback("insert run");
  if (sqlite3_changes(db_) == 0) {  // already stored
    if (Status s = exec("COMMIT"); !s) return rollback("commit");
    return Saved::kAlreadyStored;
  }

  const int64_t run_id = sqlite3_last_insert_rowid(db_);
  Stmt& smp = st->insert_sample;
  auto add_samples = [&](const char* test, const std::vector<int64_t>& ns) -> bool {
    for (std::size_t k = 0; k < ns.size(); ++k) {
      smp.reset();
      smp.bind(1, run_id);
      smp.bind(2, std::string(test));
      smp.bind(3, static_cast<int64_t>(k));
      smp.bind(4, ns[k]);
      if (sqlite3_step(smp.get()) != SQLITE_DONE) return false;
    }
    smp.reset();
    return true;
  };
  if (rec.results.pp && !add_samples("pp", rec.results.pp->samples_ns)) return rollback("insert samples");
  if (rec.results.tg && !add_samples("tg", rec.results.tg->samples_ns)) return rollback("insert samples");
  if (rec.results.ttft && !add_samples("ttft", rec.results.ttft->samples_ns)) return rollback("insert samples");
  if (Status s = exec("COMMIT"); !s) return rollback("commit");
  return replaced ? Saved::kReplacedSummary : Saved::kAdded;
}

Result<std::vector<RunRecord>> SqliteStore::load_all(RecordView view, Pooling pooling) const {
  if (view != RecordView::kFull && schema_version() >= 4) return load_from_parts(view, pooling);
  // The paths each view leaves out (store/record_json.cpp reads every one as optional).
  static constexpr const char* kNotShown =
      "'$.energy.notes', '$.energy.meters', '$.energy.domains', "
      "'$.results.pp.samples_tps', '$.results.tg.samples_tps', '$.roofline', "
      "'$.cost.notes', '$.devices_used'";
  const std::string column = view == RecordView::kFull ? std::string("record_json")
                             : view == RecordView::kReport
                                 ? std::string("json_remove(record_json, ") + kNotShown + ")"
                                 : std::string("json_remove(record_json, ") + kNotShown + ", '$.energy.power_trace')";
  const std::string sql = "SELECT " + column + " FROM runs ORDER BY id";
  Stmt st(db_, sql.c_str());
  if (!st.ok()) return fail(ErrorCode::kRuntime, "database '" + path_ + "': " + sqlite3_errmsg(db_));
  std::vector<RunRecord> out;
  out.reserve(row_count(db_, "runs"));
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st.get(), 0));
    const auto j = Json::parse(text ? text : "", nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
      return fail(ErrorCode::kInvalidInput, "database '" + path_ + "': a record's JSON does not parse");
    auto rec = from_json(j);
    if (!rec) return std::unexpected(rec.error());
    out.push_back(std::move(*rec));
  }
  if (rc != SQLITE_DONE) return fail(ErrorCode::kRuntime, "database '" + path_ + "': " + sqlite3_errmsg(db_));
  return out;
}

namespace {

// A column's text, or "" for NULL.
std::string_view column_text(sqlite3_stmt* st, int i) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
  return text ? std::string_view(text, static_cast<std::size_t>(sqlite3_column_bytes(st, i))) : std::string_view();
}

}  // namespace

Result<std::vector<RunRecord>> SqliteStore::load_from_parts(RecordView view, Pooling pooling) const {
  const std::string where = "database '" + path_ + "'";
  // A row without parts (none after migrate(); kept for safety) is read from its JSON.
  // The columns a view reads of every run, which the index runs_view covers (a file written by
  // this rigbench): the rows themselves, which hold the record's JSON, are not read; a run
  // without parts, or with a power trace that the view shows, is looked up by its id.
  Stmt st(db_, "SELECT id, record_id, test_time, peak_rss_bytes, setup_part, figures_part FROM runs ORDER BY id");
  Stmt whole(db_, "SELECT record_json FROM runs WHERE id = ?1");
  Stmt traced(db_, view == RecordView::kReport
                       ? "SELECT id, power_trace_json FROM runs WHERE power_trace_json IS NOT NULL ORDER BY id"
                       : "SELECT 0, NULL WHERE 0");
  if (!st.ok() || !whole.ok() || !traced.ok()) return fail(ErrorCode::kRuntime, where + ": " + sqlite3_errmsg(db_));
  int traced_rc = sqlite3_step(traced.get());
  // In the table's own order (a scan, not a walk of the primary key's index with a lookup per
  // row), which is the order save() wrote them in: run by run, test by test, idx ascending.
  // Checked below; a file written otherwise is sorted here.
  Stmt smp(db_, "SELECT run_id, test, idx, duration_ns FROM samples");
  Stmt part(db_, "SELECT id, json FROM run_parts");
  if (!st.ok() || !smp.ok() || !part.ok()) return fail(ErrorCode::kRuntime, where + ": " + sqlite3_errmsg(db_));
  const auto bad_json = [&] { return fail(ErrorCode::kInvalidInput, where + ": a record's JSON does not parse"); };
  std::unordered_map<int64_t, Json> parts;  // each distinct part, parsed once
  while (sqlite3_step(part.get()) == SQLITE_ROW) {
    auto j = Json::parse(column_text(part.get(), 1), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return bad_json();
    parts.emplace(sqlite3_column_int64(part.get(), 0), std::move(j));
  }
  std::vector<RunRecord> out;
  // Pooled, a few records per configuration: the vector grows.
  if (pooling == Pooling::kNone) out.reserve(row_count(db_, "runs"));
  // (setup, figures) -> the record they describe, and whether its runs pool (Pooling::kRepetitions)
  struct Joined {
    RunRecord rec;
    bool poolable = false;
    std::size_t pooled_at = SIZE_MAX;  // index into `out` of the record pooling its runs
  };
  std::map<std::pair<int64_t, int64_t>, Joined> joined;

  // Every sample, sorted by run id, test and idx, then read alongside the runs (in run id order).
  struct Sample {  // 24 bytes: 1.5 million of them for 100,000 runs
    int64_t run_id;
    int64_t ns;
    int32_t idx;
    int32_t test;  // 0 pp, 1 tg, 2 ttft
    auto operator<=>(const Sample& o) const { return std::tie(run_id, test, idx) <=> std::tie(o.run_id, o.test, o.idx); }
  };
  std::vector<Sample> all_samples;
  {
    // Sized once: growing by doubling would touch (and the kernel zero) twice the memory.
    all_samples.reserve(row_count(db_, "samples"));
    int rc_s;
    while ((rc_s = sqlite3_step(smp.get())) == SQLITE_ROW) {
      const std::string_view test = column_text(smp.get(), 1);
      all_samples.push_back({sqlite3_column_int64(smp.get(), 0), sqlite3_column_int64(smp.get(), 3),
                             static_cast<int32_t>(sqlite3_column_int64(smp.get(), 2)),
                             test == "pp" ? 0 : test == "tg" ? 1 : 2});
    }
    if (rc_s != SQLITE_DONE) return fail(ErrorCode::kRuntime, where + ": " + sqlite3_errmsg(db_));
    if (!std::is_sorted(all_samples.begin(), all_samples.end())) std::sort(all_samples.begin(), all_samples.end());
  }
  std::size_t next_sample = 0;
  std::vector<int64_t> samples[3];  // pp, tg, ttft of the current run
  const auto take_samples = [&](int64_t run_id) {
    for (auto& s : samples) s.clear();
    while (next_sample < all_samples.size() && all_samples[next_sample].run_id < run_id) ++next_sample;
    for (; next_sample < all_samples.size() && all_samples[next_sample].run_id == run_id; ++next_sample) {
      samples[all_samples[next_sample].test].push_back(all_samples[next_sample].ns);
    }
  };

  // Per record of `out`: its samples (pp, tg, ttft; a pooled record's runs' in run order), from
  // which its statistics are recomputed at the end; empty for a record read from its JSON.
  std::vector<std::array<std::vector<int64_t>, 3>> record_samples;
  std::vector<bool> from_parts;  // per record of `out`
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    sqlite3_stmt* row = st.get();
    const int64_t id = sqlite3_column_int64(row, 0);
    if (sqlite3_column_type(row, 4) == SQLITE_NULL || sqlite3_column_type(row, 5) == SQLITE_NULL) {
      // no parts: the whole JSON
      whole.reset();
      whole.bind(1, id);
      if (sqlite3_step(whole.get()) != SQLITE_ROW) return fail(ErrorCode::kRuntime, where + ": " + sqlite3_errmsg(db_));
      const auto j = Json::parse(column_text(whole.get(), 0), nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) return bad_json();
      auto rec = from_json(j);
      if (!rec) return std::unexpected(rec.error());
      out.push_back(std::move(*rec));
      record_samples.emplace_back();
      from_parts.push_back(false);
      continue;
    }
    const int64_t setup = sqlite3_column_int64(row, 4), figure = sqlite3_column_int64(row, 5);
    auto it = joined.find({setup, figure});
    if (it == joined.end()) {
      const auto s = parts.find(setup), f = parts.find(figure);
      if (s == parts.end() || f == parts.end())
        return fail(ErrorCode::kInvalidInput, where + ": a record's part is missing");
      auto rec = join_parts(s->second, f->second);
      if (!rec) return std::unexpected(rec.error());
      const Results& r = rec->results;
      const bool poolable = pooling == Pooling::kRepetitions && !(r.pp && r.pp->summary_only) &&
                            !(r.tg && r.tg->summary_only) && !r.suite && !r.embedding && !rec->server;
      it = joined.emplace(std::pair{setup, figure}, Joined{std::move(*rec), poolable}).first;
    }
    take_samples(id);
    while (traced_rc == SQLITE_ROW && sqlite3_column_int64(traced.get(), 0) < id) traced_rc = sqlite3_step(traced.get());
    const bool has_trace = traced_rc == SQLITE_ROW && sqlite3_column_int64(traced.get(), 0) == id;
    Joined& proto = it->second;
    const std::string_view record_id = column_text(row, 1), test_time = column_text(row, 2);
    const auto peak_rss = static_cast<uint64_t>(sqlite3_column_int64(row, 3));
    if (proto.poolable && !has_trace && proto.pooled_at != SIZE_MAX) {
      // Another repetition of a configuration read before: its samples join that record's.
      RunRecord& rec = out[proto.pooled_at];
      ++rec.runs;
      if (rec.first_test_time.empty()) rec.first_test_time = rec.test_time;
      if (test_time < rec.first_test_time) rec.first_test_time = test_time;
      if (test_time > rec.test_time) rec.test_time = test_time;
      rec.memory.peak_rss_bytes = std::max(rec.memory.peak_rss_bytes, peak_rss);
      for (int t = 0; t < 3; ++t) {
        auto& into = record_samples[proto.pooled_at][t];
        into.insert(into.end(), samples[t].begin(), samples[t].end());
      }
      continue;
    }
    RunRecord& rec = out.emplace_back(proto.rec);
    rec.record_id = record_id;
    rec.test_time = test_time;
    rec.memory.peak_rss_bytes = peak_rss;
    record_samples.push_back({samples[0], samples[1], samples[2]});
    from_parts.push_back(true);
    if (proto.poolable && !has_trace) proto.pooled_at = out.size() - 1;
    if (has_trace) {
      const auto trace = Json::parse(column_text(traced.get(), 1), nullptr, /*allow_exceptions=*/false);
      if (trace.is_discarded()) return bad_json();
      for (const auto& p : trace) {
        if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number()) {
          rec.energy.power_trace.emplace_back(p[0].get<double>(), p[1].get<double>());
        }
      }
    }
  }
  if (rc != SQLITE_DONE) return fail(ErrorCode::kRuntime, where + ": " + sqlite3_errmsg(db_));
  // The statistics, recomputed from the samples (as from_json does).
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!from_parts[i]) continue;
    Results& r = out[i].results;
    auto& smp3 = record_samples[i];
    if (r.pp && !r.pp->summary_only) r.pp = make_throughput(r.pp->n_tokens, std::move(smp3[0]));
    if (r.tg && !r.tg->summary_only) r.tg = make_throughput(r.tg->n_tokens, std::move(smp3[1]), std::move(r.tg->itl_ns));
    if (r.ttft) r.ttft = make_latency(std::move(smp3[2]));
  }
  return out;
}

}  // namespace rigbench::store
