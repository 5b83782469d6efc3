#include "store/foreign_file.h"

#include <vector>

#include "core/strings.h"

namespace rigbench::store {

namespace {

bool has_all(const Json& o, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    if (!o.contains(k)) return false;
  }
  return true;
}

// Where rigbench's own runs are, for a file that printed them for people.
constexpr const char* kExportRuns =
    "its runs are in the results database of the machine that ran them: there, `rigbench export -o jsonl > "
    "runs.jsonl` (or copy its results.db) and import that";

// Whether `line` (trimmed) opens JSON: an array ("[" alone, "[{") or an object.
bool opens_json(std::string_view line) {
  return line == "[" || line.starts_with("[{") || line.starts_with("[ {") || line.starts_with("{");
}

}  // namespace

std::optional<std::string> describe_binary_file(std::string_view head) {
  if (head.starts_with("GGUF")) {
    return std::string(
        "a GGUF model file, not results: `rigbench bench FILE` measures it (`rigbench embed FILE` an embedding "
        "model), `rigbench fit FILE` plans its memory; import takes their results and llama-bench's output");
  }
  return std::nullopt;
}

std::string describe_json_object(const Json& o) {
  if (o.contains("request_throughput") && (o.contains("mean_ttft_ms") || o.contains("output_throughput"))) {
    return "a vLLM benchmark result (request_throughput, mean_ttft_ms, ...: summaries of one load, without the "
           "machine or the samples), not a rigbench record or a llama-bench row; `rigbench serve-bench URL` "
           "measures the same server (TTFT, TPOT, ITL per request) and stores its runs";
  }
  if (has_all(o, {"model", "weights_bytes", "devices", "notes"})) {
    return std::string("rigbench fit's json (a memory plan, not a measurement): nothing to import; `rigbench fit` "
                       "gives it again on any machine");
  }
  if (has_all(o, {"currency", "inputs", "electricity"})) {
    return std::string("rigbench cost's json (figures worked out from a run or from flags): nothing to import; ") +
           kExportRuns;
  }
  if (has_all(o, {"runs", "model_costs"})) {
    return std::string("rigbench serve-bench's -o json (its table's rows, not records); ") + kExportRuns;
  }
  std::vector<std::string> keys;
  for (const auto& item : o.items()) {
    if (keys.size() == 6) {
      keys.push_back("...");
      break;
    }
    keys.push_back(item.key());
  }
  return "a JSON object with the keys " + join(keys, ", ") +
         ": neither a rigbench record nor a llama-bench row (import takes rigbench jsonl, json or a database, and "
         "llama-bench's -o json, jsonl, csv or sql)";
}

LeadingLog blank_leading_log(std::string& text) {
  LeadingLog log;
  std::size_t start = 0, lines = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = trim(text.substr(start, end - start));
    if (opens_json(line)) break;
    if (line.starts_with("|")) return {};
    if (!line.empty() && log.lines++ == 0) log.first_line = line.substr(0, 80);
    ++lines;
    start = end + 1;
  }
  if (log.lines == 0 || start >= text.size()) return {};
  // Each line before the JSON becomes empty; its newline stays.
  text.replace(0, start, std::string(lines, '\n'));
  return log;
}

}  // namespace rigbench::store
