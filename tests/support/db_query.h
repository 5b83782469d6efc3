// Test support: read one value from a SQLite file (a real results database, or one that
// `rigbench bench -o sql | sqlite3` filled), read-only.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace rigbench::testing {

// The first column of the first row as text; "" when the database or row is missing.
inline std::string query_text(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string v;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(st, 0);
      if (text) v = reinterpret_cast<const char*>(text);
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return v;
}

// The first column as an integer; -1 when the database or row is missing.
inline int64_t query_int(const std::string& db_path, const std::string& sql) {
  const std::string v = query_text(db_path, sql);
  return v.empty() ? -1 : std::stoll(v);
}

}  // namespace rigbench::testing
