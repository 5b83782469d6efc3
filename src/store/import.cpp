#include "store/import.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/strings.h"
#include "store/foreign_file.h"
#include "store/llama_bench_markdown.h"
#include "store/llama_bench_record.h"
#include "store/llama_bench_rows.h"
#include "store/record_json.h"
#include "store/sqlite_read.h"

namespace rigbench::store {

namespace {

enum class Kind { kRigbench, kLlamaBench, kUnknown };

Kind kind_of(const Json& obj) {
  if (!obj.is_object()) return Kind::kUnknown;
  if (obj.contains("record_id") && obj.contains("schema_version")) return Kind::kRigbench;
  if (obj.contains("n_prompt") && (obj.contains("avg_ns") || obj.contains("samples_ns"))) return Kind::kLlamaBench;
  return Kind::kUnknown;
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string json_message(const std::exception& e) {
  std::string m = e.what();
  const auto close = m.find("] ");
  return m.starts_with("[json.exception") && close != std::string::npos ? m.substr(close + 2) : m;
}

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ErrorCode::kInvalidInput, "cannot read the file");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // UTF-8 byte order mark
  return text;
}

// Without --machine, each llama-bench record is named from what it says of the machine
// (llama_bench_machine_name: its cpu_info and gpu_info, or a markdown table's GPU), said in one
// note naming where the name came from (`from`).
void name_unnamed_machines(std::vector<RunRecord>& records, const ImportOptions& options, const std::string& from,
                           ImportBatch& batch) {
  if (!options.llama_bench_hostname.empty()) return;
  std::vector<std::string> named;
  for (RunRecord& rec : records) {
    if (!rec.machine.hostname.empty()) continue;
    rec.machine.hostname = llama_bench_machine_name(rec.machine);
    const std::string name = "'" + rec.machine.hostname + "'";
    if (std::find(named.begin(), named.end(), name) == named.end()) named.push_back(name);
  }
  if (!named.empty()) {
    batch.notes.push_back("llama-bench output names no machine: named " + join(named, ", ") + " from " + from +
                          " (--machine NAME names it)");
  }
}

// Adds the records of llama-bench rows (or the reasons they were skipped) to `batch`.
Status add_llama_bench_rows(const std::vector<LlamaBenchRow>& rows, const ImportOptions& options, ImportBatch& batch) {
  std::vector<RunRecord> records;
  for (const LlamaBenchRow& row : rows) {
    auto mapped = map_llama_bench_row(row, options.llama_bench_hostname, options.llama_bench_repetitions);
    if (!mapped) return std::unexpected(mapped.error());
    if (mapped->record) records.push_back(std::move(*mapped->record));
    else batch.skipped.push_back(mapped->skipped_because);
  }
  name_unnamed_machines(records, options, "its cpu_info and gpu_info", batch);
  for (RunRecord& rec : records) batch.records.push_back(std::move(rec));
  return {};
}

// The objects of a JSON array or of JSON lines, each with its line (jsonl) or element
// number (json), and whether they are rigbench records or llama-bench rows.
Status add_json_objects(const std::vector<std::pair<Json, int>>& objects, bool lines, const ImportOptions& options,
                        ImportBatch& batch) {
  if (objects.empty()) return {};
  const Kind kind = kind_of(objects.front().first);
  const char* unit = lines ? "line " : "element ";
  std::vector<LlamaBenchRow> rows;
  for (const auto& [obj, n] : objects) {
    const std::string where = unit + std::to_string(n) + ": ";
    if (kind == Kind::kUnknown && n == objects.front().second && obj.is_object()) {
      return fail(ErrorCode::kInvalidInput, where + describe_json_object(obj));
    }
    if (kind == Kind::kUnknown || kind_of(obj) != kind) {
      return fail(ErrorCode::kInvalidInput,
                  where + "neither a rigbench record nor a llama-bench row (or a mix of both)");
    }
    if (kind == Kind::kRigbench) {
      auto rec = from_json(obj);
      if (!rec) return fail(ErrorCode::kInvalidInput, where + rec.error().message);
      batch.records.push_back(std::move(*rec));
    } else {
      auto row = llama_bench_row_from_json(obj, n);
      if (!row) return std::unexpected(row.error());
      rows.push_back(std::move(*row));
    }
  }
  if (kind == Kind::kLlamaBench) {
    batch.format = lines ? ImportFormat::kLlamaBenchJsonl : ImportFormat::kLlamaBenchJson;
    return add_llama_bench_rows(rows, options, batch);
  }
  batch.format = lines ? ImportFormat::kRigbenchJsonl : ImportFormat::kRigbenchJson;
  return {};
}

Status read_json_array(const std::string& text, const ImportOptions& options, ImportBatch& batch) {
  Json array;
  try {
    array = Json::parse(text);
  } catch (const std::exception& e) {
    return fail(ErrorCode::kInvalidInput, "not JSON: " + json_message(e));
  }
  if (!array.is_array()) return fail(ErrorCode::kInvalidInput, "not a JSON array");
  std::vector<std::pair<Json, int>> objects;
  int n = 0;
  for (auto& element : array) objects.emplace_back(std::move(element), ++n);
  batch.format = ImportFormat::kRigbenchJson;
  return add_json_objects(objects, false, options, batch);
}

Status read_json_lines(const std::string& text, const ImportOptions& options, ImportBatch& batch) {
  std::vector<std::pair<Json, int>> objects;
  int n = 0;
  for (const std::string& line : split(text, '\n')) {
    ++n;
    if (trim(line).empty()) continue;
    try {
      objects.emplace_back(Json::parse(line), n);
    } catch (const std::exception& e) {
      // One object over several lines (pretty-printed, as other tools write it) is one object.
      if (objects.empty()) {
        Json whole = Json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (whole.is_object()) return add_json_objects({{std::move(whole), n}}, true, options, batch);
      }
      return fail(ErrorCode::kInvalidInput, "line " + std::to_string(n) + ": not JSON: " + json_message(e));
    }
  }
  return add_json_objects(objects, true, options, batch);
}

Status read_sqlite(const std::string& path, const ImportOptions& options, ImportBatch& batch) {
  // Why it cannot be read (a read-only folder reads: store/sqlite_read.h), before which tables it has.
  if (auto db = open_sqlite_to_read(path); !db) return fail(ErrorCode::kInvalidInput, db.error().message);
  if (sqlite_has_table(path, "runs")) {
    batch.format = ImportFormat::kRigbenchDb;
    auto db = SqliteStore::open_readonly(path);
    if (!db) return std::unexpected(db.error());
    auto records = (*db)->load_all();
    if (!records) return std::unexpected(records.error());
    batch.records = std::move(*records);
    return {};
  }
  if (sqlite_has_llama_bench_table(path)) {
    batch.format = ImportFormat::kLlamaBenchDb;
    auto rows = read_llama_bench_sqlite(path);
    if (!rows) return std::unexpected(rows.error());
    return add_llama_bench_rows(*rows, options, batch);
  }
  return fail(ErrorCode::kInvalidInput,
              "an SQLite file with neither rigbench's table (runs) nor llama-bench's (llama_bench, or test before "
              "August 2025)");
}

// rigbench's own markdown: bench's and export's table (columns llama-bench never writes: "TTFT
// ms", "tg bound t/s", before "tg bound"), a prompt suite's table, compare's output.
bool is_rigbench_markdown(const std::string& text) {
  const std::string start = trim(text.substr(0, 256));
  if (start.starts_with("Compared by ") || start.starts_with("Answers (")) return true;
  const std::string first_line = trim(text.substr(0, text.find('\n')));
  if (!first_line.starts_with("|")) return false;
  for (const std::string& cell : split(first_line, '|')) {
    const std::string header = trim(cell);
    if (header == "TTFT ms" || header == "tg bound" || header == "tg bound t/s" || header == "TTFT p50 ms")
      return true;
  }
  return false;
}

Status read_text_format(const std::string& text, const ImportOptions& options, ImportBatch& batch) {
  if (trim(text).empty()) return fail(ErrorCode::kInvalidInput, "empty file; nothing to import");
  const std::string start = trim(text.substr(text.find_first_not_of(" \t\r\n"), 256));
  if (start.starts_with("[")) return read_json_array(text, options, batch);
  if (start.starts_with("{")) return read_json_lines(text, options, batch);
  if (is_rigbench_markdown(trim(text))) {
    return fail(ErrorCode::kInvalidInput,
                "rigbench's markdown output, for people (rounded figures, no samples); its runs are in the results "
                "database of the machine that ran them: there, `rigbench export -o jsonl > runs.jsonl` (or copy its "
                "results.db) and import that");
  }
  if (holds_llama_bench_markdown(text)) {
    batch.format = ImportFormat::kLlamaBenchMarkdown;
    auto read = read_llama_bench_markdown(text, {options.llama_bench_hostname, options.llama_bench_gpu, options.source_url,
                                                 options.llama_bench_repetitions});
    if (!read) return std::unexpected(read.error());
    batch.records = std::move(read->records);
    batch.skipped = std::move(read->skipped);
    name_unnamed_machines(batch.records, options, "the GPU it names (--gpu), else nothing", batch);
    return {};
  }
  const std::string head = to_lower(start);
  if (head.starts_with("create table") || head.starts_with("insert into")) {
    batch.format = ImportFormat::kLlamaBenchSql;
    auto rows = parse_llama_bench_sql(text);
    if (!rows) return std::unexpected(rows.error());
    return add_llama_bench_rows(*rows, options, batch);
  }
  const std::vector<std::string> header = split(trim(text.substr(0, text.find('\n'))), ',');
  auto has = [&header](const char* name) { return std::find(header.begin(), header.end(), name) != header.end(); };
  if (has("build_commit") && has("n_prompt") && has("avg_ts")) {
    batch.format = ImportFormat::kLlamaBenchCsv;
    auto rows = parse_llama_bench_csv(text);
    if (!rows) return std::unexpected(rows.error());
    return add_llama_bench_rows(*rows, options, batch);
  }
  if (has("model_name") && has("pp_avg_tps")) {
    return fail(ErrorCode::kInvalidInput, "rigbench CSV holds no raw samples; export jsonl instead (rigbench export)");
  }
  // A backend's log on standard output before llama-bench's JSON: skipped, counted.
  std::string unlogged = text;
  if (const LeadingLog log = blank_leading_log(unlogged); log.lines > 0) {
    batch.notes.push_back("skipped " + std::to_string(log.lines) + " line" + (log.lines == 1 ? "" : "s") +
                          " before the JSON, a log printed on standard output (the first: '" + log.first_line + "')");
    return read_text_format(unlogged, options, batch);
  }
  return fail(ErrorCode::kInvalidInput,
              "unknown format (expected rigbench jsonl, json or database; llama-bench json, jsonl, csv, sql or its markdown "
              "table)");
}

// record_ids already in the database at `path`, each with the machine it is stored under
// (machine_hostname), read through a second, read-only connection.
Result<std::unordered_map<std::string, std::string>> stored_record_ids(const std::string& path) {
  auto opened = open_sqlite_to_read(path);
  if (!opened) return fail(ErrorCode::kRuntime, "database '" + path + "': " + opened.error().message);
  sqlite3* db = opened->get();
  std::unordered_map<std::string, std::string> ids;
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT record_id, machine_hostname FROM runs", -1, &st, nullptr);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      const auto* host = sqlite3_column_text(st, 1);
      ids.emplace(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                  host ? reinterpret_cast<const char*>(host) : "");
    }
  }
  std::string msg = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db);
  sqlite3_finalize(st);
  if (!msg.empty()) return fail(ErrorCode::kRuntime, "database '" + path + "': " + msg);
  return ids;
}

}  // namespace

std::string format_name(ImportFormat format) {
  switch (format) {
    case ImportFormat::kRigbenchJsonl: return "rigbench jsonl";
    case ImportFormat::kRigbenchJson: return "rigbench json";
    case ImportFormat::kRigbenchDb: return "rigbench database";
    case ImportFormat::kLlamaBenchJson: return "llama-bench json";
    case ImportFormat::kLlamaBenchJsonl: return "llama-bench jsonl";
    case ImportFormat::kLlamaBenchCsv: return "llama-bench csv";
    case ImportFormat::kLlamaBenchSql: return "llama-bench sql";
    case ImportFormat::kLlamaBenchDb: return "llama-bench SQLite";
    case ImportFormat::kLlamaBenchMarkdown: return "llama-bench markdown";
  }
  return "?";
}

namespace {

// Standard input (`-`), read whole: text formats only.
Result<ImportBatch> read_standard_input(const ImportOptions& options) {
  const std::string where = "import standard input (-): ";
  ImportBatch batch;
  batch.path = "-";
  std::stringstream ss;
  ss << std::cin.rdbuf();
  std::string text = ss.str();
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // UTF-8 byte order mark
  if (text.starts_with(std::string_view("SQLite format 3\0", 16))) {
    return fail(ErrorCode::kInvalidInput,
                where + "an SQLite database cannot be read from standard input; name the file");
  }
  if (const auto what = describe_binary_file(text)) return fail(ErrorCode::kInvalidInput, where + *what);
  if (Status s = read_text_format(text, options, batch); !s) return fail(s.error().code, where + s.error().message);
  return batch;
}

}  // namespace

Result<ImportBatch> read_import_file(const std::string& path, const ImportOptions& options) {
  if (path == "-") return read_standard_input(options);
  const std::string where = "import '" + path + "': ";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail(ErrorCode::kNotFound, where + "no such file");
  if (std::filesystem::is_directory(path, ec)) return fail(ErrorCode::kInvalidInput, where + "a directory, not a file");
  ImportBatch batch;
  batch.path = path;
  char magic[16] = {};
  std::ifstream(path, std::ios::binary).read(magic, sizeof magic);
  Status s;
  if (std::string_view(magic, sizeof magic) == std::string_view("SQLite format 3\0", 16)) {
    s = read_sqlite(path, options, batch);
  } else if (const auto what = describe_binary_file(std::string_view(magic, sizeof magic))) {
    s = fail(ErrorCode::kInvalidInput, *what);
  } else {
    auto text = read_text(path);
    if (!text) return fail(text.error().code, where + text.error().message);
    s = read_text_format(*text, options, batch);
  }
  if (!s) return fail(s.error().code, where + s.error().message);
  return batch;
}

Result<ImportCounts> save_batch(SqliteStore& db, const ImportBatch& batch) {
  auto ids = stored_record_ids(db.path());
  if (!ids) return std::unexpected(ids.error());
  ImportCounts counts;
  for (const RunRecord& rec : batch.records) {
    const auto [at, fresh] = ids->emplace(rec.record_id, rec.machine.hostname);
    const bool stored = !fresh;
    // The same run under another machine name (--machine/--hostname on a second import): the
    // stored record keeps its name, and the count says so.
    if (stored && at->second != rec.machine.hostname) counts.stored_as[at->second] += 1;
    if (stored && !SqliteStore::holds_samples(rec)) {
      ++counts.already_stored;
      continue;
    }
    auto saved = db.save_record(rec);  // a stored copy is kept, unless it lacks the samples this one has
    if (!saved) return std::unexpected(saved.error());
    if (*saved == SqliteStore::Saved::kReplacedSummary) ++counts.samples_added;
    else if (stored || *saved == SqliteStore::Saved::kAlreadyStored) ++counts.already_stored;
    else ++counts.added;
  }
  return counts;
}

}  // namespace rigbench::store
