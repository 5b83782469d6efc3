#include "measure/queries.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rigbench::measure {

namespace {

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.pop_back();
  return s;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

}  // namespace

Result<std::vector<std::string>> parse_queries(const std::string& text, const std::string& name) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  bool jsonl = false;
  for (const auto& l : lines) {
    if (blank(l)) continue;
    jsonl = l[l.find_first_not_of(" \t")] == '{';
    break;
  }
  auto bad = [&](std::size_t i, const std::string& why) {
    return fail(ErrorCode::kInvalidInput, "queries '" + name + "' line " + std::to_string(i + 1) + ": " + why);
  };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blank(lines[i])) continue;
    if (!jsonl) {
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
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ErrorCode::kNotFound, "queries '" + path + "': cannot open the file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_queries(buf.str(), path);
}

std::string builtin_queries_path() {
  const char* env = std::getenv("RIGBENCH_DATA_DIR");
  return std::string(env && *env ? env : RIGBENCH_DATA_DIR) + "/queries/embed.txt";
}

}  // namespace rigbench::measure
