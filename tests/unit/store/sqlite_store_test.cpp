#include "store/sqlite_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "core/results.h"
#include "store/record_json.h"
#include "support/sample_record.h"
#include "support/temp_dir.h"

namespace rigbench::store {
namespace {

int64_t count_rows(const std::string& db_path, const char* sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK);
  EXPECT_EQ(sqlite3_step(st), SQLITE_ROW);
  const int64_t n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

// Runs `sql` on the SQLite file at `db_path` (made when missing), as another program or an
// older rigbench would have written it.
void exec_sql(const std::string& db_path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

// The first text value of `sql`; "" when there is no row.
std::string query_text(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
  std::string v;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
    v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

// A database as rigbench wrote it at schema version 1 (before runs.load_mode): the version 1
// CREATE statements as they shipped, one run with one sample, and the record JSON of that
// time (no params.load_mode).
void write_version_1_database(const std::string& path) {
  constexpr const char* kVersion1 = R"sql(
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
PRAGMA user_version=1;
)sql";
  Json old = to_json(testing::sample_record("old"));
  old["params"].erase("load_mode");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, kVersion1, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, R"sql(
INSERT INTO runs (record_id, test_time, model_name, model_synthetic, n_prompt, n_gen, n_depth, n_batch, n_ubatch,
  n_threads, n_gpu_layers, flash_attn, type_k, type_v, tg_avg_tps, interrupted, record_json)
VALUES ('old', '2026-11-29T14:08:04Z', 'm', 0, 512, 128, 0, 2048, 512, 8, -1, 'auto', 'f16', 'f16', 96.0, 0, ?1))sql",
                               -1, &st, nullptr),
            SQLITE_OK);
  const std::string text = old.dump();
  sqlite3_bind_text(st, 1, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_exec(db, "INSERT INTO samples VALUES (1, 'tg', 0, 2000000000)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
}

TEST(SqliteStore, CreatesVersionedSchemaInNewDirectory) {
  testing::TempDir dir;
  const std::string path = dir.file("sub/dir/results.db");
  auto store = SqliteStore::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  EXPECT_EQ(count_rows(path, "PRAGMA user_version"), kSchemaVersion);
}

TEST(SqliteStore, SavesRecordAndSamplesAndLoadsThemBack) {
  testing::TempDir dir;
  const std::string path = dir.file("r.db");
  {
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->save(testing::sample_record()));
  }
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 1);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM samples"), 6);  // 2 pp + 2 tg + 2 ttft
  EXPECT_EQ(count_rows(path, "SELECT CAST(pp_avg_tps AS INTEGER) FROM runs"), 768);
  auto store = SqliteStore::open(path);
  ASSERT_TRUE(store);
  auto all = (*store)->load_all();
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].model.name, testing::sample_record().model.name);
  EXPECT_DOUBLE_EQ((*all)[0].results.tg->tps.mean, 96.0);
}

// compare and report read the record in parts: the noise notes and the precision travel
// with the figures, so that their cells can show them.
TEST(SqliteStore, ComparesViewReadsTheNoiseNotesAndPrecision) {
  testing::TempDir dir;
  const std::string path = dir.file("r.db");
  RunRecord r = testing::sample_record();
  r.precision.repetitions_mode = "auto";
  r.precision.ci_target_pct = 2;
  r.precision.stopped_by = "target";
  r.precision.reached = true;
  r.noise = {{"machine_busy", "", "machine busy: 60 %", "stop other programs"}};
  {
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->save(r));
  }
  auto store = SqliteStore::open_readonly(path);
  ASSERT_TRUE(store);
  for (RecordView view : {RecordView::kCompare, RecordView::kReport}) {
    auto all = (*store)->load_all(view);
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 1u);
    ASSERT_EQ((*all)[0].noise.size(), 1u);
    EXPECT_EQ((*all)[0].noise[0].code, "machine_busy");
    EXPECT_EQ((*all)[0].noise[0].remedy, "stop other programs");
    EXPECT_DOUBLE_EQ((*all)[0].precision.ci_target_pct, 2);
    EXPECT_TRUE((*all)[0].precision.reached);
  }
}

TEST(SqliteStore, SavingTheSameRecordTwiceKeepsOne) {
  testing::TempDir dir;
  auto store = SqliteStore::open(dir.file("r.db"));
  ASSERT_TRUE(store);
  ASSERT_TRUE((*store)->save(testing::sample_record("a")));
  ASSERT_TRUE((*store)->save(testing::sample_record("a")));
  ASSERT_TRUE((*store)->save(testing::sample_record("b")));
  EXPECT_EQ(count_rows(dir.file("r.db"), "SELECT COUNT(*) FROM runs"), 2);
  EXPECT_EQ(count_rows(dir.file("r.db"), "SELECT COUNT(*) FROM samples"), 12);
}

TEST(SqliteStore, StoresTheLoadModeInItsColumn) {
  testing::TempDir dir;
  RunRecord rec = testing::sample_record();
  rec.params.load_mode = "none";
  {
    auto store = SqliteStore::open(dir.file("r.db"));
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->save(rec));
  }
  EXPECT_EQ(query_text(dir.file("r.db"), "SELECT load_mode FROM runs"), "none");
  auto store = SqliteStore::open(dir.file("r.db"));
  ASSERT_TRUE(store);
  auto all = (*store)->load_all();
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].params.load_mode, "none");
}

TEST(SqliteStore, UpgradesAVersion1DatabaseInPlaceAndOldRowsReadLoadModeAuto) {
  testing::TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(write_version_1_database(path));
  ASSERT_EQ(count_rows(path, "PRAGMA user_version"), 1);

  auto store = SqliteStore::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ((*store)->schema_version(), kSchemaVersion);
  EXPECT_EQ(count_rows(path, "PRAGMA user_version"), kSchemaVersion);
  // The old row and its sample are kept; the new columns read what those runs used: load
  // mode and poll llama.cpp's defaults, status "ok".
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 1);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM samples"), 1);
  EXPECT_EQ(query_text(path, "SELECT load_mode FROM runs WHERE record_id = 'old'"), "auto");
  EXPECT_EQ(count_rows(path, "SELECT poll FROM runs WHERE record_id = 'old'"), 50);
  EXPECT_EQ(query_text(path, "SELECT status FROM runs WHERE record_id = 'old'"), "ok");
  // #11: the knobs llama-bench records read llama.cpp's defaults, which those runs used.
  EXPECT_EQ(count_rows(path, "SELECT n_cpu_moe FROM runs WHERE record_id = 'old'"), 0);
  EXPECT_EQ(query_text(path, "SELECT split_mode FROM runs WHERE record_id = 'old'"), "layer");
  EXPECT_EQ(query_text(path, "SELECT tensor_buft_overrides FROM runs WHERE record_id = 'old'"), "none");
  auto all = (*store)->load_all();
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].record_id, "old");
  EXPECT_EQ((*all)[0].params.load_mode, "auto");
  EXPECT_EQ((*all)[0].params.n_cpu_moe, 0);
  EXPECT_EQ((*all)[0].params.split_mode, "layer");
  EXPECT_DOUBLE_EQ((*all)[0].results.tg->tps.mean, 96.0);

  // New records go in beside it with their own load mode and knobs.
  RunRecord rec = testing::sample_record("new");
  rec.params.load_mode = "mmap";
  rec.params.n_cpu_moe = 30;
  rec.params.poll = 0;
  rec.failed = "model 'm.gguf': llama_decode failed";
  ASSERT_TRUE((*store)->save(rec));
  EXPECT_EQ(query_text(path, "SELECT load_mode FROM runs WHERE record_id = 'new'"), "mmap");
  EXPECT_EQ(count_rows(path, "SELECT poll FROM runs WHERE record_id = 'new'"), 0);
  EXPECT_EQ(count_rows(path, "SELECT n_cpu_moe FROM runs WHERE record_id = 'new'"), 30);
  EXPECT_EQ(query_text(path, "SELECT status FROM runs WHERE record_id = 'new'"), "failed");
  EXPECT_EQ(query_text(path, "SELECT failed FROM runs WHERE record_id = 'new'"), "model 'm.gguf': llama_decode failed");
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 2);
  store->reset();
  // Opening again migrates nothing more.
  auto again = SqliteStore::open(path);
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)->schema_version(), kSchemaVersion);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 2);
}

// Records of every shape: measured, summary-only (llama-bench csv), refused, failed, with
// energy (a power trace, notes), cost and tags, and two of one configuration.
std::vector<RunRecord> varied_records() {
  std::vector<RunRecord> v;
  v.push_back(testing::sample_record("measured"));
  v.push_back(testing::sample_record("same-configuration"));
  v.back().results.tg = make_throughput(128, {1'500'000'000, 1'250'000'000, 1'000'000'000});
  v.back().test_time = "2026-11-29T15:00:00Z";
  v.back().memory.peak_rss_bytes = 99;
  RunRecord summary = testing::sample_record("summary-only");
  summary.results.pp.reset();
  summary.results.ttft.reset();
  summary.results.tg = make_summary_throughput(128, 5, 96.5, 1.25);
  summary.tags = {"source:llama-bench", "llama-bench:summary-only"};
  v.push_back(summary);
  RunRecord refused = testing::sample_record("refused");
  refused.results = {};
  refused.refused = "does not fit: 30 GiB needed, 24 GiB usable";
  v.push_back(refused);
  RunRecord failed = testing::sample_record("failed");
  failed.results.tg.reset();
  failed.failed = "llama_decode failed";
  failed.interrupted = true;
  v.push_back(failed);
  RunRecord energy = testing::sample_record("energy");
  energy.energy.method = "counter";
  energy.energy.meters = {"rapl"};
  energy.energy.domains = {"rapl:package-0"};
  energy.energy.idle_power_w = 12.5;
  energy.energy.tg = PhaseEnergyInfo{2.0, 100.0, 50.0, 0.39};
  energy.energy.power_trace = {{0.0, 12.0}, {0.5, 48.25}, {1.0, 51.0}};
  energy.energy.notes = {"nvml: no NVIDIA driver"};
  energy.cost = CostInfo{};
  energy.cost->currency = "EUR";
  energy.cost->price_per_kwh = 0.3;
  energy.cost->gross_per_mtok = 0.0325;
  energy.cost->notes = {"flat price"};
  v.push_back(energy);
  return v;
}

// The parts of version 4 taken away: the database as a version 3 rigbench left it.
void downgrade_to_version_3(const std::string& path) {
  exec_sql(path,
           "DROP INDEX IF EXISTS runs_view; DROP INDEX IF EXISTS runs_traced; "
           "ALTER TABLE runs DROP COLUMN setup_part; ALTER TABLE runs DROP COLUMN figures_part; "
           "ALTER TABLE runs DROP COLUMN power_trace_json; DROP TABLE run_parts; PRAGMA user_version=3;");
}

std::vector<std::string> dumps(const std::vector<RunRecord>& records) {
  std::vector<std::string> out;
  for (const RunRecord& r : records) out.push_back(to_json(r).dump(1));
  return out;
}

// compare and report read version 4's parts (each distinct part parsed once, samples from
// the samples table); what they get equals what the whole JSON gives, view by view, for a
// version 3 database read as it is and the same database migrated to version 4.
TEST(SqliteStore, MigratesAVersion3DatabaseAndTheViewsReadFromPartsWhatTheJsonHolds) {
  testing::TempDir dir;
  const std::string path = dir.file("v3.db");
  {
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store);
    for (const RunRecord& r : varied_records()) ASSERT_TRUE((*store)->save(r));
  }
  ASSERT_NO_FATAL_FAILURE(downgrade_to_version_3(path));
  std::vector<std::string> from_json_compare, from_json_report, full;
  {
    auto v3 = SqliteStore::open_readonly(path);
    ASSERT_TRUE(v3) << v3.error().message;
    ASSERT_EQ((*v3)->schema_version(), 3);
    auto c = (*v3)->load_all(RecordView::kCompare);
    auto r = (*v3)->load_all(RecordView::kReport);
    auto f = (*v3)->load_all(RecordView::kFull);
    ASSERT_TRUE(c && r && f);
    from_json_compare = dumps(*c);
    from_json_report = dumps(*r);
    full = dumps(*f);
  }
  ASSERT_EQ(full.size(), varied_records().size());
  EXPECT_EQ(count_rows(path, "PRAGMA user_version"), 3);  // reading changed nothing

  auto store = SqliteStore::open(path);  // to write: migrates, filling the parts of the old rows
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ((*store)->schema_version(), 4);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs WHERE setup_part IS NULL OR figures_part IS NULL"), 0);
  EXPECT_EQ(
      count_rows(path,
                 "SELECT COUNT(DISTINCT setup_part) FROM runs WHERE record_id IN ('measured', 'same-configuration')"),
      1);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(power_trace_json) FROM runs"), 1);
  RunRecord later = testing::sample_record("saved-at-version-4");
  later.results.pp = make_throughput(512, {250'000'000});
  ASSERT_TRUE((*store)->save(later));
  store->reset();

  auto v4 = SqliteStore::open_readonly(path);
  ASSERT_TRUE(v4);
  auto c = (*v4)->load_all(RecordView::kCompare);
  auto r = (*v4)->load_all(RecordView::kReport);
  auto f = (*v4)->load_all(RecordView::kFull);
  ASSERT_TRUE(c && r && f) << (c ? r ? f.error().message : r.error().message : c.error().message);
  ASSERT_EQ(c->size(), full.size() + 1);
  // The migrated rows read as the version 3 file read them, in the same order.
  auto head = [&](const std::vector<RunRecord>& v) {
    return dumps(std::vector<RunRecord>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(full.size())));
  };
  EXPECT_EQ(head(*c), from_json_compare);
  EXPECT_EQ(head(*r), from_json_report);
  EXPECT_EQ(head(*f), full);
  // The new row too: its view is the whole record less what the view leaves out.
  RunRecord expected = f->back();
  expected.roofline = {};
  expected.devices_used.clear();
  EXPECT_EQ(to_json(c->back()).dump(1), to_json(expected).dump(1));
  EXPECT_EQ(c->back().results.pp->tps.mean, 2048.0);
  EXPECT_EQ((*r)[5].energy.power_trace, varied_records()[5].energy.power_trace);
  EXPECT_TRUE((*c)[5].energy.power_trace.empty());
  EXPECT_TRUE((*r)[5].energy.notes.empty());
  ASSERT_TRUE((*c)[2].results.tg && (*c)[2].results.tg->summary_only);
  EXPECT_EQ((*c)[2].results.tg->tps.mean, 96.5);
}

// import, compare and report read other machines' files: reading changes nothing in them.
TEST(SqliteStore, ReadOnlyOpenReadsAVersion1DatabaseAndLeavesItAsItWas) {
  testing::TempDir dir;
  const std::string path = dir.file("v1.db");
  ASSERT_NO_FATAL_FAILURE(write_version_1_database(path));
  const std::string journal = query_text(path, "PRAGMA journal_mode");
  auto store = SqliteStore::open_readonly(path);
  ASSERT_TRUE(store) << store.error().message;
  auto all = (*store)->load_all();
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].record_id, "old");
  EXPECT_DOUBLE_EQ((*all)[0].results.tg->tps.mean, 96.0);
  EXPECT_FALSE((*store)->save(testing::sample_record("new")));  // read-only
  store->reset();
  EXPECT_EQ(count_rows(path, "PRAGMA user_version"), 1);
  EXPECT_EQ(query_text(path, "PRAGMA journal_mode"), journal);
  EXPECT_NE(journal, "wal");
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 1);
}

TEST(SqliteStore, RefusesAFileThatIsNotADatabase) {
  testing::TempDir dir;
  testing::write_file(dir.file("x.db"), std::string(4096, 'x'));
  auto store = SqliteStore::open(dir.file("x.db"));
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kRuntime);
  EXPECT_NE(store.error().message.find("x.db"), std::string::npos);
}

// What a file given to --db is when it is not a rigbench database, in one line naming it; never
// "schema version -1" (what a reader said of every one of them before).
TEST(SqliteStore, ReadersSayWhatAFileIsWhenItIsNotARigbenchDatabase) {
  testing::TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"notes.txt", "hello\n"},
      {"runs.jsonl", "{\"record_id\": \"a\"}\n{\"record_id\": \"b\"}\n"},
      {"runs.json", "[{\"record_id\": \"a\"}]"},
      {"blob.bin", std::string("\x01\x02\x00\x03", 4)},
      {"empty.db", ""},
  };
  const std::vector<std::string> reasons = {
      "a text file, not an SQLite database",
      "a JSON or JSON lines file, not an SQLite database (rigbench import reads it into one)",
      "a JSON file, not an SQLite database (rigbench import reads it into one)",
      "not an SQLite database (it does not begin with SQLite's header)",
      "an empty file, not a rigbench database",
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string path = dir.file(cases[i].first);
    testing::write_file(path, cases[i].second);
    auto store = SqliteStore::open_readonly(path);
    ASSERT_FALSE(store) << path;
    EXPECT_EQ(store.error().message, "database '" + path + "': " + reasons[i]);
  }
  // An SQLite file of another program's.
  const std::string other = dir.file("other.db");
  exec_sql(other, "CREATE TABLE t (a)");
  auto store = SqliteStore::open_readonly(other);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().message,
            "database '" + other + "': an SQLite database, but not rigbench's (no schema version, no results)");
  // Opening to write says it too (bench --db notes.txt), with the hint.
  auto written = SqliteStore::open(dir.file("notes.txt"), "use --db PATH or --no-db");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().message,
            "database '" + dir.file("notes.txt") + "': a text file, not an SQLite database; use --db PATH or --no-db");
  EXPECT_EQ(testing::read_file(dir.file("notes.txt")), "hello\n");  // untouched
}

TEST(SqliteStore, RefusesANewerSchema) {
  testing::TempDir dir;
  const std::string path = dir.file("new.db");
  exec_sql(path, "PRAGMA user_version=99");
  auto store = SqliteStore::open(path);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("99"), std::string::npos);
}

TEST(SqliteStore, DefaultPathFollowsXdgDataHome) {
  setenv("XDG_DATA_HOME", "/data/x", 1);
  auto p = default_db_path();
  unsetenv("XDG_DATA_HOME");
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, "/data/x/rigbench/results.db");
}

}  // namespace
}  // namespace rigbench::store

namespace rigbench::store {
namespace {

// One store saves many records through the statements it prepared once (reset between
// uses), and the views read every record's own samples back, also from a file whose samples
// table is not in run order (faked: rows copied back in reverse).
TEST(SqliteStore, ManyRecordsThroughOneSetOfStatementsAndSamplesReadInAnyTableOrder) {
  testing::TempDir dir;
  const std::string path = dir.file("many.db");
  {
    auto store = SqliteStore::open(path);
    ASSERT_TRUE(store);
    for (int i = 0; i < 20; ++i) {
      RunRecord r = testing::sample_record("r" + std::to_string(100 + i));
      r.results.tg = make_throughput(128, {1'000'000'000 + 1'000'000 * i, 1'000'000'000});
      ASSERT_TRUE((*store)->save(r));
      ASSERT_TRUE((*store)->save(r));  // already stored: left as it is
    }
  }
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 20);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM run_parts"), 2);  // one setup, one figures shape
  exec_sql(path,
           "CREATE TEMP TABLE s AS SELECT * FROM samples; DELETE FROM samples; "
           "INSERT INTO samples SELECT * FROM s ORDER BY run_id DESC, test DESC, idx DESC;");
  auto store = SqliteStore::open_readonly(path);
  ASSERT_TRUE(store);
  for (RecordView view : {RecordView::kCompare, RecordView::kReport, RecordView::kFull}) {
    auto all = (*store)->load_all(view);
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_EQ(all->size(), 20u);
    for (int i = 0; i < 20; ++i) {
      const RunRecord& r = (*all)[static_cast<std::size_t>(i)];
      EXPECT_EQ(r.record_id, "r" + std::to_string(100 + i));
      EXPECT_EQ(r.results.tg->samples_ns, (std::vector<int64_t>{1'000'000'000 + 1'000'000 * i, 1'000'000'000}));
      EXPECT_EQ(r.results.pp->samples_ns, testing::sample_record().results.pp->samples_ns);
    }
  }
}

}  // namespace
}  // namespace rigbench::store
