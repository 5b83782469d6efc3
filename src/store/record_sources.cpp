#include "store/record_sources.h"

#include <filesystem>
#include <unordered_set>

#include "store/sqlite_store.h"

namespace rigbench::store {

Result<std::vector<RunRecord>> load_records(const std::vector<std::string>& db_paths) {
  std::vector<std::string> paths = db_paths;
  if (paths.empty()) {
    auto p = default_db_path();
    if (!p) return std::unexpected(p.error());
    paths.push_back(*p);
  }
  std::vector<RunRecord> records;
  std::unordered_set<std::string> seen;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      return fail(ErrorCode::kNotFound, "database '" + path + "': no such file (run rigbench bench or rigbench import first, or give --db PATH)");
    }
    auto db = SqliteStore::open_readonly(path);
    if (!db) return std::unexpected(db.error());
    auto loaded = (*db)->load_all();
    if (!loaded) return std::unexpected(loaded.error());
    for (RunRecord& rec : *loaded) {
      if (seen.insert(rec.record_id).second) records.push_back(std::move(rec));
    }
  }
  return records;
}

}  // namespace rigbench::store
