#include "store/llama_bench_rows.h"

#include <sqlite3.h>

#include <charconv>
#include <memory>

#include "core/csv.h"
#include "store/sqlite_read.h"

namespace rigbench::store {

namespace {

// ---- json -----------------------------------------------------------------------------

// A JSON value as llama-bench's csv would print it.
std::string text_of(const Json& v) {
  switch (v.type()) {
    case Json::value_t::string: return v.get<std::string>();
    case Json::value_t::boolean: return v.get<bool>() ? "1" : "0";
    case Json::value_t::number_integer: return std::to_string(v.get<int64_t>());
    case Json::value_t::number_unsigned: return std::to_string(v.get<uint64_t>());
    case Json::value_t::number_float: {
      char buf[64];
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v.get<double>());
      return ec == std::errc() ? std::string(buf, end) : std::string();
    }
    case Json::value_t::null: return "";
    default: return v.dump();
  }
}

// ---- sqlite ---------------------------------------------------------------------------

using DbPtr = SqliteHandle;

struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

// Allows what llama-bench's sql output does (create its table, llama_bench or, before
// August 2025, test; insert into it) and nothing else: no ATTACH (which could write
// files), PRAGMA, SELECT, function or other table.
int sql_authorizer(void*, int action, const char* arg1, const char*, const char*, const char*) {
  auto is = [arg1](const char* name) { return arg1 && sqlite3_stricmp(arg1, name) == 0; };
  auto is_table = [&is] { return is(kLlamaBenchTable) || is(kLlamaBenchOldTable); };
  switch (action) {
    case SQLITE_CREATE_TABLE: return is_table() ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_INSERT: return is_table() || is("sqlite_master") ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_UPDATE: return is("sqlite_master") ? SQLITE_OK : SQLITE_DENY;  // CREATE TABLE updates the schema
    case SQLITE_READ: return is("sqlite_master") ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_TRANSACTION: return SQLITE_OK;
    default: return SQLITE_DENY;
  }
}

bool has_table(sqlite3* db, const std::string& table) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &raw, nullptr) !=
      SQLITE_OK) {
    return false;
  }
  StmtPtr st(raw);
  sqlite3_bind_text(st.get(), 1, table.c_str(), -1, SQLITE_TRANSIENT);
  return sqlite3_step(st.get()) == SQLITE_ROW;
}

// Whether `table` has a column named `column`.
bool has_column(sqlite3* db, const std::string& table, const char* column) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", -1, &raw, nullptr) != SQLITE_OK) {
    return false;
  }
  StmtPtr st(raw);
  sqlite3_bind_text(st.get(), 1, table.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.get(), 2, column, -1, SQLITE_TRANSIENT);
  return sqlite3_step(st.get()) == SQLITE_ROW;
}

// llama-bench's table in `db`: llama_bench, else test when it has llama-bench's columns
// (the name before August 2025); "" when there is neither.
std::string llama_bench_table_of(sqlite3* db) {
  if (has_table(db, kLlamaBenchTable)) return kLlamaBenchTable;
  if (has_table(db, kLlamaBenchOldTable) && has_column(db, kLlamaBenchOldTable, "build_commit") &&
      has_column(db, kLlamaBenchOldTable, "n_prompt") && has_column(db, kLlamaBenchOldTable, "avg_ts")) {
    return kLlamaBenchOldTable;
  }
  return "";
}

// Every row of llama-bench's table, each column as text (NULL as "").
Result<std::vector<LlamaBenchRow>> rows_of_table(sqlite3* db) {
  const std::string table = llama_bench_table_of(db);
  if (table.empty())
    return fail(ErrorCode::kInvalidInput, "no llama_bench table (nor test, its name before August 2025)");
  const std::string select = "SELECT * FROM " + table;  // one of two fixed names
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, select.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    return fail(ErrorCode::kInvalidInput, sqlite3_errmsg(db));
  }
  StmtPtr st(raw);
  std::vector<LlamaBenchRow> rows;
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    LlamaBenchRow row;
    row.line = static_cast<int>(rows.size()) + 1;
    for (int c = 0; c < sqlite3_column_count(st.get()); ++c) {
      const auto* text = sqlite3_column_text(st.get(), c);
      row.fields[sqlite3_column_name(st.get(), c)] = text ? reinterpret_cast<const char*>(text) : "";
    }
    rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return fail(ErrorCode::kInvalidInput, sqlite3_errmsg(db));
  return rows;
}

}  // namespace

Result<LlamaBenchRow> llama_bench_row_from_json(const Json& obj, int line) {
  const std::string where = "line " + std::to_string(line) + ": ";
  if (!obj.is_object()) return fail(ErrorCode::kInvalidInput, where + "not a JSON object");
  LlamaBenchRow row;
  row.line = line;
  for (const auto& [key, value] : obj.items()) {
    if (key == "samples_ts") continue;  // derived from samples_ns (1e9 * n_tokens / ns)
    if (key == "samples_ns") {
      if (!value.is_array()) return fail(ErrorCode::kInvalidInput, where + "samples_ns is not an array");
      std::vector<int64_t> ns;
      for (const auto& v : value) {
        if (!v.is_number_integer() || v.get<int64_t>() <= 0) {
          return fail(ErrorCode::kInvalidInput, where + "samples_ns holds " + v.dump() + ", not a positive integer");
        }
        ns.push_back(v.get<int64_t>());
      }
      row.samples_ns = std::move(ns);
      continue;
    }
    row.fields[key] = text_of(value);
  }
  return row;
}

Result<std::vector<LlamaBenchRow>> parse_llama_bench_csv(const std::string& text) {
  auto records = parse_csv(text);
  if (!records) return std::unexpected(records.error());
  if (records->empty()) return std::vector<LlamaBenchRow>{};
  const std::vector<std::string>& header = records->front().fields;
  std::vector<LlamaBenchRow> rows;
  for (std::size_t r = 1; r < records->size(); ++r) {
    const CsvRecord& rec = (*records)[r];
    if (rec.fields.size() != header.size()) {
      return fail(ErrorCode::kInvalidInput, "line " + std::to_string(rec.line) + ": " +
                                                std::to_string(rec.fields.size()) + " fields, the header has " +
                                                std::to_string(header.size()));
    }
    LlamaBenchRow row;
    row.line = rec.line;
    for (std::size_t i = 0; i < header.size(); ++i) row.fields[header[i]] = rec.fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<std::vector<LlamaBenchRow>> parse_llama_bench_sql(const std::string& text) {
  sqlite3* raw = nullptr;
  if (sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr) != SQLITE_OK) {
    sqlite3_close(raw);
    return fail(ErrorCode::kRuntime, "cannot open an in-memory SQLite database");
  }
  DbPtr db(raw);
  sqlite3_limit(db.get(), SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db.get(), SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_set_authorizer(db.get(), sql_authorizer, nullptr);
  char* err = nullptr;
  if (sqlite3_exec(db.get(), text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db.get());
    sqlite3_free(err);
    return fail(ErrorCode::kInvalidInput, "SQL: " + msg);
  }
  sqlite3_set_authorizer(db.get(), nullptr, nullptr);
  return rows_of_table(db.get());
}

Result<std::vector<LlamaBenchRow>> read_llama_bench_sqlite(const std::string& path) {
  auto db = open_sqlite_to_read(path);  // store/sqlite_read.h: a read-only folder reads too
  if (!db) return fail(ErrorCode::kInvalidInput, db.error().message);
  return rows_of_table(db->get());
}

bool sqlite_has_table(const std::string& path, const std::string& table) {
  auto db = open_sqlite_to_read(path);
  return db && has_table(db->get(), table);
}

bool sqlite_has_llama_bench_table(const std::string& path) {
  auto db = open_sqlite_to_read(path);
  return db && !llama_bench_table_of(db->get()).empty();
}

}  // namespace rigbench::store
