#include "store/sqlite_read.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/strings.h"

namespace rigbench::store {

namespace {

// `path` as the file part of an SQLite URI ("file:PATH?immutable=1"): the characters a URI
// gives a meaning to escaped.
std::string uri_path(const std::string& path) {
  std::string out;
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  // "file://x" would name a host: a path that starts with two slashes keeps one.
  while (out.starts_with("//")) out.erase(0, 1);
  return out;
}

// Opens read-only and reads the schema, the first read that touches the file (and, in WAL
// mode, its -shm index). Returns SQLite's extended result code; `db` holds the connection.
int open_and_probe(const std::string& name, int flags, SqliteHandle& db) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(name.c_str(), &raw, flags, nullptr);
  db.reset(raw);
  if (rc != SQLITE_OK) return raw ? sqlite3_extended_errcode(raw) : rc;
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 5000);
  return sqlite3_exec(raw, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
}

bool is_text(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = p[i];
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') return false;
  }
  return true;
}

}  // namespace

void SqliteCloser::operator()(sqlite3* db) const { sqlite3_close(db); }

std::string not_sqlite_reason(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  unsigned char head[512];
  ssize_t n = 0;
  for (ssize_t r; n < static_cast<ssize_t>(sizeof head) && (r = ::read(fd, head + n, sizeof head - n)) != 0;) {
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    n += r;
  }
  ::close(fd);
  if (n == 0) return "";
  if (n >= static_cast<ssize_t>(sizeof kSqliteHeader) && std::memcmp(head, kSqliteHeader, sizeof kSqliteHeader) == 0)
    return "";
  const std::size_t size = static_cast<std::size_t>(n);
  if (is_text(head, size)) {
    std::size_t at = 0;
    while (at < size && std::strchr(" \t\r\n\f", head[at]) != nullptr) ++at;
    if (at < size && head[at] == '[') return "a JSON file, not an SQLite database (rigbench import reads it into one)";
    if (at < size && head[at] == '{') return "a JSON or JSON lines file, not an SQLite database (rigbench import reads it into one)";
    return "a text file, not an SQLite database";
  }
  return "not an SQLite database (it does not begin with SQLite's header)";
}

Result<SqliteHandle> open_sqlite_to_read(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(ErrorCode::kRuntime, errno_text(errno));
  ::close(fd);
  if (const std::string why = not_sqlite_reason(path); !why.empty()) return fail(ErrorCode::kRuntime, why);

  SqliteHandle db;
  int rc = open_and_probe(path, SQLITE_OPEN_READONLY, db);
  if (rc == SQLITE_OK) return db;
  // A WAL database in a folder this user cannot write: SQLite cannot make its -shm index
  // (SQLITE_READONLY_DIRECTORY; SQLITE_CANTOPEN in some builds). Read as immutable, unless a
  // -wal log holds changes that reading so would miss.
  const int primary = rc & 0xff;
  if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN) {
    const std::string wal = path + "-wal";
    struct stat st {};
    if (::stat(wal.c_str(), &st) == 0 && st.st_size > 0) {
      std::string dir = std::filesystem::path(path).parent_path().string();
      if (dir.empty()) dir = ".";
      return fail(ErrorCode::kRuntime, "read-only folder " + dir + ": its write-ahead log " + wal +
                                           " holds changes not yet in the file, which cannot be read without making " +
                                           path + "-shm there; copy the two files to a folder you can write");
    }
    rc = open_and_probe("file:" + uri_path(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, db);
    if (rc == SQLITE_OK) return db;
  }
  return fail(ErrorCode::kRuntime, db ? sqlite3_errmsg(db.get()) : sqlite3_errstr(rc));
}

}  // namespace rigbench::store
