// `-o sql`: the statements run in SQLite as they are and hold every column, typed.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <sstream>
#include <string>

#include "report/columns.h"
#include "report/printer.h"
#include "support/printed.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

std::string print_sql(const std::vector<RunRecord>& records) { return testing::printed(OutputFormat::kSql, records); }

// An in-memory database that has run `sql`.
class Db {
 public:
  explicit Db(const std::string& sql) {
    sqlite3_open(":memory:", &db_);
    char* err = nullptr;
    rc_ = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    if (err) error_ = err;
    sqlite3_free(err);
  }
  ~Db() { sqlite3_close(db_); }
  int rc() const { return rc_; }
  const std::string& error() const { return error_; }
  // The first column of the first row as text ("NULL" for NULL, "" when there is no row).
  std::string query(const std::string& sql) const {
    sqlite3_stmt* st = nullptr;
    std::string v;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(st, 0);
      v = text ? reinterpret_cast<const char*>(text) : "NULL";
    }
    sqlite3_finalize(st);
    return v;
  }

 private:
  sqlite3* db_ = nullptr;
  int rc_ = SQLITE_ERROR;
  std::string error_;
};

// The interval (ci95 of pp and tg), how the repetitions were decided and the noise notes
// are columns of -o sql, typed, with a quote in a note kept.
TEST(SqlPrinter, CarriesTheIntervalPrecisionAndNoiseNotes) {
  RunRecord r = testing::sample_record("c3");  // pp 512/1024 t/s, tg 64/128 t/s: ±423.5 % each
  r.precision.repetitions_mode = "auto";
  r.precision.ci_target_pct = 2;
  r.precision.max_time_s = 20;
  r.precision.stopped_by = "max_time";
  r.noise = {{"outliers", "tg", "1 of 2 repetitions are 'outliers'", "re-run on a quiet machine"},
             {"machine_busy", "", "machine busy: 40 %", "stop other programs"}};
  const Db db(print_sql({r, testing::sample_record("d4")}));
  ASSERT_EQ(db.rc(), SQLITE_OK) << db.error();
  EXPECT_EQ(db.query("SELECT typeof(tg_ci95_pct) FROM rigbench WHERE record_id = 'c3'"), "real");
  EXPECT_EQ(db.query("SELECT round(tg_ci95_pct, 1) FROM rigbench WHERE record_id = 'c3'"), "423.5");
  EXPECT_EQ(db.query("SELECT round(pp_ci95_high_tps, 1) FROM rigbench WHERE record_id = 'c3'"), "4020.8");
  EXPECT_EQ(db.query("SELECT repetitions_mode || ' ' || ci_target_pct || ' ' || max_time_s || ' ' || ci_reached || ' ' "
                     "|| stopped_by FROM rigbench WHERE record_id = 'c3'"),
            "auto 2.0 20.0 0 max_time");
  EXPECT_EQ(db.query("SELECT noise_codes FROM rigbench WHERE record_id = 'c3'"), "outliers;machine_busy");
  EXPECT_EQ(db.query("SELECT noise_notes FROM rigbench WHERE record_id = 'c3'"),
            "tg: 1 of 2 repetitions are 'outliers'; re-run on a quiet machine | machine busy: 40 %; stop other programs");
  // A fixed run without notes: no target (NULL), no notes ('' is NULL in -o sql).
  EXPECT_EQ(db.query("SELECT quote(ci_target_pct) || ' ' || quote(noise_codes) || ' ' || repetitions_mode FROM "
                     "rigbench WHERE record_id = 'd4'"),
            "NULL NULL fixed");
}

TEST(SqlPrinter, PrintsNothingWithoutRecords) { EXPECT_EQ(print_sql({}), ""); }

TEST(SqlPrinter, FormatNameIsSql) {
  const auto f = parse_output_format("sql", record_formats());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(*f, OutputFormat::kSql);
  const auto bad = parse_output_format("sqlite", record_formats());
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("md, csv, json, jsonl, sql"), std::string::npos) << bad.error().message;
}

TEST(SqlPrinter, CreatesTheTableOnceAndInsertsOneRowPerRecord) {
  const std::string sql = print_sql({testing::sample_record("a1"), testing::sample_record("b2")});
  EXPECT_EQ(sql.rfind("CREATE TABLE IF NOT EXISTS rigbench (\n  model_name TEXT,\n", 0), 0u) << sql;
  std::size_t creates = 0, inserts = 0;
  for (std::size_t at = 0; (at = sql.find("CREATE TABLE", at)) != std::string::npos; ++at) ++creates;
  for (std::size_t at = 0; (at = sql.find("\nINSERT OR IGNORE INTO rigbench (model_name, ", at)) != std::string::npos;
       ++at)
    ++inserts;
  EXPECT_EQ(creates, 1u);
  EXPECT_EQ(inserts, 2u);

  const Db db(sql);
  ASSERT_EQ(db.rc(), SQLITE_OK) << db.error() << "\n" << sql;
  EXPECT_EQ(db.query("SELECT COUNT(*) FROM rigbench"), "2");
  EXPECT_EQ(db.query("SELECT COUNT(*) FROM pragma_table_info('rigbench')"), std::to_string(columns().size()));
  EXPECT_EQ(db.query("SELECT group_concat(record_id) FROM rigbench"), "a1,b2");
  // Numbers are numbers, text is text, booleans are 0/1, with the declared types.
  EXPECT_EQ(db.query("SELECT model_name FROM rigbench"), "Model, \"quoted\" | piped");
  EXPECT_EQ(db.query("SELECT typeof(pp_avg_tps) || ' ' || pp_avg_tps FROM rigbench"), "real 768.0");
  EXPECT_EQ(db.query("SELECT typeof(n_prompt) || ' ' || n_prompt FROM rigbench"), "integer 512");
  EXPECT_EQ(db.query("SELECT typeof(model_size_bytes) || ' ' || model_size_bytes FROM rigbench"), "integer 1185376");
  EXPECT_EQ(db.query("SELECT typeof(model_synthetic) || ' ' || model_synthetic FROM rigbench"), "integer 0");
  EXPECT_EQ(db.query("SELECT type FROM pragma_table_info('rigbench') WHERE name = 'tg_avg_tps'"), "REAL");
  EXPECT_EQ(db.query("SELECT type FROM pragma_table_info('rigbench') WHERE name = 'test_time'"), "TEXT");
  EXPECT_EQ(db.query("SELECT pk FROM pragma_table_info('rigbench') WHERE name = 'record_id'"), "1");
}

TEST(SqlPrinter, QuotesTextAndWritesAbsentOrNonFiniteValuesAsNull) {
  RunRecord r = testing::sample_record();
  r.model.name = "O'Brien's \"model\"'); DROP TABLE rigbench; --";
  r.model.synthetic = true;
  r.interrupted = true;
  r.results.tg.reset();  // a pp-only run: no tg figures
  r.results.pp->tps.mean = INFINITY;
  r.tags = {"it's", "night"};
  const std::string sql = print_sql({r});
  EXPECT_NE(sql.find("'O''Brien''s \"model\"''); DROP TABLE rigbench; --'"), std::string::npos) << sql;
  const Db db(sql);
  ASSERT_EQ(db.rc(), SQLITE_OK) << db.error() << "\n" << sql;
  EXPECT_EQ(db.query("SELECT model_name FROM rigbench"), r.model.name);
  EXPECT_EQ(db.query("SELECT tags FROM rigbench"), "it's;night");
  EXPECT_EQ(db.query("SELECT model_synthetic || interrupted FROM rigbench"), "11");
  EXPECT_EQ(db.query("SELECT typeof(tg_avg_tps) FROM rigbench"), "null");
  EXPECT_EQ(db.query("SELECT typeof(pp_avg_tps) FROM rigbench"), "null");
  EXPECT_EQ(db.query("SELECT typeof(cost_currency) FROM rigbench"), "null");
  EXPECT_EQ(db.query("SELECT typeof(pp_stddev_tps) FROM rigbench"), "real");
}

// Appending to a database that has the table already keeps one row per record_id, as
// `rigbench import` merges by record_id.
TEST(SqlPrinter, LoadingTheSameRecordsTwiceKeepsOneCopy) {
  const std::string once = print_sql({testing::sample_record("a1")});
  const Db db(once + once + print_sql({testing::sample_record("b2")}));
  ASSERT_EQ(db.rc(), SQLITE_OK) << db.error();
  EXPECT_EQ(db.query("SELECT COUNT(*) FROM rigbench"), "2");
}

// Column names are written bare: none may be an SQL keyword or need quoting.
TEST(SqlPrinter, EveryColumnKeyIsAPlainIdentifier) {
  for (const auto& c : columns()) {
    EXPECT_EQ(sqlite3_keyword_check(c.key.c_str(), static_cast<int>(c.key.size())), 0) << c.key;
    EXPECT_EQ(c.key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_"), std::string::npos) << c.key;
  }
}

}  // namespace
}  // namespace rigbench::report
