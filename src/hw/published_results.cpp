#include "hw/published_results.h"

#include <nlohmann/json.hpp>

#include "core/data_dir.h"
#include "core/text_lines.h"
#include "hw/file_text.h"

namespace rigbench::hw {

std::string published_results_path() { return data_file_path("published_llama_bench.jsonl"); }

Result<std::vector<PublishedResult>> load_published_results(const std::string& path) {
  const std::optional<std::string> content = read_file_text(path);
  if (!content) return fail(ErrorCode::kNotFound, "published results '" + path + "': cannot open the file");
  std::vector<PublishedResult> out;
  for (const auto& [n, text] : nonblank_lines(*content)) {
    const std::string where = "published results '" + path + "': line " + std::to_string(n) + ": ";
    const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return fail(ErrorCode::kInvalidInput, where + "not a JSON object");
    try {
      PublishedResult r;
      r.device = j.at("device").get<std::string>();
      r.catalog = j.at("catalog").get<std::string>();
      r.backend = j.at("backend").get<std::string>();
      r.model = j.at("model").get<std::string>();
      r.file_type = j.at("file_type").get<std::string>();
      r.model_size_bytes = j.at("model_size_bytes").get<uint64_t>();
      r.model_n_params = j.at("model_n_params").get<uint64_t>();
      r.test = j.at("test").get<std::string>();
      r.n_prompt = j.at("n_prompt").get<int>();
      r.n_gen = j.at("n_gen").get<int>();
      r.n_depth = j.at("n_depth").get<int>();
      r.n_gpu_layers = j.at("n_gpu_layers").is_null() ? -1 : j.at("n_gpu_layers").get<int>();
      r.tps = j.at("tps").get<double>();
      r.date = j.at("date").get<std::string>();
      r.source_url = j.at("source_url").get<std::string>();
      r.no_kv_offload = j.value("no_kv_offload", 0) != 0;
      r.host = j.value("host", "");
      r.host_kind = j.value("host_kind", "");
      r.line = j.at("line").get<std::string>();
      out.push_back(std::move(r));
    } catch (const nlohmann::json::exception& e) {
      return fail(ErrorCode::kInvalidInput, where + e.what());
    }
  }
  return out;
}

}  // namespace rigbench::hw
