// rigbench: opening an SQLite file to read it, the one way every reader does (compare, export,
// report and import through SqliteStore::open_readonly; import's llama-bench SQLite files and the
// ids already stored): the file is never changed.
//
// Two things a plain read-only open gets wrong, said here once:
//   - A file that is not SQLite (a text, JSON or JSON lines file given to --db) opens without
//     complaint and fails at the first statement ("file is not a database"): not_sqlite_reason()
//     says what it is before SQLite reads it.
//   - A database in a folder this user cannot write (or a read-only file there) cannot be read
//     the usual way once it is in WAL mode (rigbench's results database is): SQLite needs to make
//     the "-shm" index beside it. It is then read as immutable (SQLite's immutable=1: no locks,
//     no -shm), which is right when nothing else can change it either; a "-wal" log holding
//     changes not yet in the file would be missed that way, so that case is refused, saying so.
#pragma once

#include <memory>
#include <string>

#include "core/status.h"

struct sqlite3;

namespace rigbench::store {

struct SqliteCloser {
  void operator()(sqlite3* db) const;
};
using SqliteHandle = std::unique_ptr<sqlite3, SqliteCloser>;

// SQLite's 16-byte file header, "SQLite format 3" and a NUL.
inline constexpr char kSqliteHeader[] = "SQLite format 3";

// Why the file at `path` is not an SQLite database, or "" when it is one (or is empty, which
// SQLite reads as an empty database, or cannot be read: opening it says why). In the words
// people use for what they gave: "a JSON file, not an SQLite database (rigbench import reads it
// into one)" (or "a JSON or JSON lines file, ..." for one that begins with '{'), "a text file,
// not an SQLite database", "not an SQLite database (it does not begin with SQLite's header)".
std::string not_sqlite_reason(const std::string& path);

// Opens `path` read-only and reads its first page, so that the file is known to be readable.
// Errors: kRuntime with the reason alone (the caller names the file): not_sqlite_reason(),
// errno's text when the file cannot be opened ("permission denied"), SQLite's message, or
// "read-only folder DIR: its write-ahead log PATH-wal holds changes not yet in the file, which
// cannot be read without making PATH-shm there; copy the two files to a folder you can write".
Result<SqliteHandle> open_sqlite_to_read(const std::string& path);

}  // namespace rigbench::store
