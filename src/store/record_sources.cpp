#include "store/record_sources.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_set>

#include "core/strings.h"
#include "store/sqlite_store.h"

namespace rigbench::store {

namespace {

bool contains(const std::string& haystack, const std::string& lowered_needle) {
  return to_lower(haystack).find(lowered_needle) != std::string::npos;
}

// The texts a flag's value is matched against.
std::vector<std::string> model_texts(const RunRecord& r) {
  return {r.model.name, r.model.name + " " + r.model.file_type,
          std::filesystem::path(r.model.path).filename().string()};
}
std::vector<std::string> machine_texts(const RunRecord& r) {
  std::vector<std::string> t = {r.machine.hostname, r.machine.cpu};
  for (const DeviceInfo& d : r.machine.gpus) {
    t.push_back(d.name);
    t.push_back(d.description);
  }
  return t;
}
std::vector<std::string> tag_texts(const RunRecord& r) { return r.tags; }

struct Flag {
  const char* name;
  const std::vector<std::string>* values;
  std::vector<std::string> (*texts)(const RunRecord&);
  const char* plural;  // what the "known" list names
};

bool matches_value(const RunRecord& r, const Flag& f, const std::string& value) {
  const std::string needle = to_lower(value);
  for (const std::string& t : f.texts(r)) {
    if (contains(t, needle)) return true;
  }
  return false;
}

bool matches_flag(const RunRecord& r, const Flag& f) {
  if (f.values->empty()) return true;
  return std::any_of(f.values->begin(), f.values->end(), [&](const std::string& v) { return matches_value(r, f, v); });
}

// A short list of what there is, for the error: "models: a, b, c" (at most 8).
std::string known(const std::vector<RunRecord>& records, const Flag& f) {
  std::set<std::string> names;
  for (const RunRecord& r : records) {
    const auto t = f.texts(r);
    if (std::string(f.name) == "--tag") names.insert(t.begin(), t.end());
    else if (!t.empty() && !t[0].empty()) names.insert(t[0]);
  }
  if (names.empty()) return std::string("no ") + f.plural + " stored";
  std::vector<std::string> list(names.begin(), names.end());
  const std::size_t total = list.size();
  if (list.size() > 8) list.resize(8);
  return std::string(f.plural) + ": " + join(list, ", ") + (total > list.size() ? ", ..." : "");
}

}  // namespace

Result<std::vector<RunRecord>> select_records(std::vector<RunRecord> records, const RecordFilter& filter) {
  if (filter.empty()) return records;
  const Flag flags[] = {{"--model", &filter.models, model_texts, "models"},
                        {"--machine", &filter.machines, machine_texts, "machines"},
                        {"--tag", &filter.tags, tag_texts, "tags"}};
  std::vector<std::string> given;
  for (const Flag& f : flags) {
    for (const std::string& v : *f.values) {
      const bool any =
          std::any_of(records.begin(), records.end(), [&](const RunRecord& r) { return matches_value(r, f, v); });
      if (!any) {
        return fail(ErrorCode::kUsage,
                    std::string(f.name) + " '" + v + "': matches no stored record (" + known(records, f) + ")");
      }
      given.push_back(std::string(f.name) + " '" + v + "'");
    }
  }
  std::vector<RunRecord> kept;
  for (RunRecord& r : records) {
    if (std::all_of(std::begin(flags), std::end(flags), [&](const Flag& f) { return matches_flag(r, f); })) {
      kept.push_back(std::move(r));
    }
  }
  if (kept.empty()) return fail(ErrorCode::kUsage, join(given, ", ") + ": no stored record matches them together");
  return kept;
}

Result<std::unique_ptr<SqliteStore>> open_records_db(const std::string& path) {
  std::string p = path;
  if (p.empty()) {
    auto d = default_db_path();
    if (!d) return std::unexpected(d.error());
    p = *d;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) {
    return fail(ErrorCode::kNotFound,
                "database '" + p + "': no such file (run rigbench bench or rigbench import first, or give --db PATH)");
  }
  return SqliteStore::open_readonly(p);
}

Result<std::vector<RunRecord>> load_records(const std::vector<std::string>& db_paths, const RecordFilter& filter,
                                            RecordView view, Pooling pooling) {
  std::vector<std::string> paths = db_paths;
  if (paths.empty()) {
    auto p = default_db_path();
    if (!p) return std::unexpected(p.error());
    paths.push_back(*p);
  }
  std::vector<RunRecord> records;
  std::unordered_set<std::string> seen;
  for (const std::string& path : paths) {
    auto db = open_records_db(path);
    if (!db) return std::unexpected(db.error());
    auto loaded = (*db)->load_all(view, paths.size() == 1 ? pooling : Pooling::kNone);
    if (!loaded) return std::unexpected(loaded.error());
    if (records.empty()) {  // the first database's records are unique (runs.record_id is): kept as they are
      records = std::move(*loaded);
      if (paths.size() > 1) {
        for (const RunRecord& rec : records) seen.insert(rec.record_id);
      }
      continue;
    }
    for (RunRecord& rec : *loaded) {
      if (seen.insert(rec.record_id).second) records.push_back(std::move(rec));
    }
  }
  return select_records(std::move(records), filter);
}

}  // namespace rigbench::store
