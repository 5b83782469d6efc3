// rigbench: llama-bench's output files (tools/llama-bench in llama.cpp), read into rows.
//
// llama-bench prints one row per test in five forms: json (an array of objects), jsonl (one
// object per line), csv (a header, then every value quoted), sql (CREATE TABLE llama_bench,
// then one INSERT per row; the table was named test before August 2025) and md (for people;
// refused by import, which says to use -o jsonl). Only json and jsonl carry the
// raw samples (samples_ns); csv and sql carry avg_ns/stddev_ns/avg_ts/stddev_ts only.
// store/llama_bench_record.h maps a row to a RunRecord.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "store/record_json.h"

namespace rigbench::store {

// One test of llama-bench. Values are text as llama-bench's csv prints them, whatever the
// format they came from: integers in decimal, booleans "0"/"1", strings as they are.
struct LlamaBenchRow {
  std::map<std::string, std::string> fields;       // llama-bench field name -> value
  std::optional<std::vector<int64_t>> samples_ns;  // ns per repetition (json, jsonl); nullopt for csv, sql
  int line = 0;  // where the row is, for messages: 1-based line (jsonl, csv), element (json), row (sql)
};

// A row from one JSON object of llama-bench's json or jsonl output. Errors: kInvalidInput
// when `obj` is not an object or samples_ns is not an array of positive integers.
Result<LlamaBenchRow> llama_bench_row_from_json(const Json& obj, int line);

// Rows of llama-bench's csv output (RFC 4180 quoting, the header first). Errors:
// kInvalidInput naming the line: an unterminated quote, a row whose field count differs
// from the header's.
Result<std::vector<LlamaBenchRow>> parse_llama_bench_csv(const std::string& text);

// llama-bench's SQL table, and its name before August 2025 (read when it has llama-bench's
// columns build_commit, n_prompt and avg_ts).
inline constexpr const char* kLlamaBenchTable = "llama_bench";
inline constexpr const char* kLlamaBenchOldTable = "test";

// Rows of llama-bench's sql output. The statements run in a private in-memory SQLite
// database under an authorizer that allows only creating the table llama_bench (or test)
// and inserting into it (no ATTACH, PRAGMA, functions or other tables), so a file cannot touch
// anything else; the rows are then read back. Errors: kInvalidInput with SQLite's message
// (a syntax error, a statement the authorizer refused, no llama_bench or test table).
Result<std::vector<LlamaBenchRow>> parse_llama_bench_sql(const std::string& text);

// Rows of the table llama_bench (or test) in an SQLite file (llama-bench's sql output loaded with
// the sqlite3 shell), opened read-only. Errors: kInvalidInput with SQLite's message.
Result<std::vector<LlamaBenchRow>> read_llama_bench_sqlite(const std::string& path);

// Whether the SQLite file at `path` holds a table named `table` (opened read-only; false
// when it cannot be read).
bool sqlite_has_table(const std::string& path, const std::string& table);

// Whether the SQLite file at `path` holds llama-bench's table: llama_bench, or test with
// llama-bench's columns (false when it cannot be read).
bool sqlite_has_llama_bench_table(const std::string& path);

}  // namespace rigbench::store
