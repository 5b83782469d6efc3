#include "store/sqlite_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

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
