#include "store/sqlite_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

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

// The first text value of `sql`; "" when there is no row.
std::string query_text(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
  std::string v;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
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
  ASSERT_EQ(sqlite3_exec(db, "INSERT INTO samples VALUES (1, 'tg', 0, 2000000000)", nullptr, nullptr, nullptr), SQLITE_OK);
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
  EXPECT_EQ((*store)->schema_version(), 3);
  EXPECT_EQ(count_rows(path, "PRAGMA user_version"), 3);
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
  EXPECT_EQ((*again)->schema_version(), 3);
  EXPECT_EQ(count_rows(path, "SELECT COUNT(*) FROM runs"), 2);
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

TEST(SqliteStore, RefusesANewerSchema) {
  testing::TempDir dir;
  const std::string path = dir.file("new.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
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
