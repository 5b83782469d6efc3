#include "measure/queries.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "core/data_dir.h"
#include "hw/file_text.h"

namespace rigbench::measure {

namespace {

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.pop_back();
  return s;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

// A UTF-8 byte order mark (editors on Windows write one): not part of the first line.
constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

Result<std::vector<std::string>> parse_queries(const std::string& text, const std::string& name) {
  // With a BOM a JSONL file's first '{' was not seen and every line was read as plain text.
  const std::string body = text.rfind(kBom, 0) == 0 ? text.substr(kBom.size()) : text;
  std::vector<std::string> lines;
  {
    std::istringstream in(body);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  auto bad = [&](std::size_t i, const std::string& why) {
    return fail(ErrorCode::kInvalidInput, "queries '" + name + "' line " + std::to_string(i + 1) + ": " + why);
  };
  bool jsonl = false;
  std::size_t first = 0;  // the first non-blank line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blank(lines[i])) continue;
    first = i;
    const char c = lines[i][lines[i].find_first_not_of(" \t")];
    jsonl = c == '{';
    // A JSON document (an array of objects) is not JSONL either: said, not read as text lines.
    if (c == '[' && nlohmann::json::accept(body))
      return bad(i, "a JSON array; give JSONL (one {\"text\": \"...\"} object per line) or one query per line");
    break;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blank(lines[i])) continue;
    if (!jsonl) {
      // Plain lines mixed with JSONL lines: said, not read as queries of JSON text.
      const bool brace = lines[i][lines[i].find_first_not_of(" \t")] == '{';
      if (brace && nlohmann::json::accept(lines[i])) {
        return bad(i, "a JSON object among plain lines (line " + std::to_string(first + 1) +
                          " is not JSON): give one query per line, or JSONL on every line");
      }
      out.push_back(trim_right(lines[i]));
      continue;
    }
    const auto j = nlohmann::json::parse(lines[i], nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return bad(i, "not JSON (expected one object per line with a \"text\" string)");
    if (!j.is_object()) return bad(i, "not a JSON object (expected {\"text\": \"...\"})");
    const auto t = j.find("text");
    if (t == j.end() || !t->is_string()) return bad(i, "no \"text\" string");
    const std::string q = t->get<std::string>();
    if (blank(q)) return bad(i, "\"text\" is empty");
    out.push_back(q);
  }
  if (out.empty()) return fail(ErrorCode::kInvalidInput, "queries '" + name + "': no queries (the file is empty)");
  return out;
}

Result<std::vector<std::string>> read_queries(const std::string& path) {
  const std::optional<std::string> text = hw::read_file_text(path);
  if (!text) return fail(ErrorCode::kNotFound, "queries '" + path + "': cannot open the file");
  return parse_queries(*text, path);
}

std::string builtin_queries_path() { return data_file_path("queries/embed.txt"); }

Result<QuerySet> read_query_set(const std::string& file) {
  auto q = read_queries(file.empty() ? builtin_queries_path() : file);
  if (!q) return std::unexpected(q.error());
  return QuerySet{std::move(*q), file.empty() ? "builtin" : file};
}

}  // namespace rigbench::measure
