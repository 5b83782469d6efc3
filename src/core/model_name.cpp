#include "core/model_name.h"

#include "core/strings.h"

namespace rigbench {

std::string model_file_stem(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  constexpr std::string_view kExt = ".gguf";
  if (file.size() > kExt.size() && to_lower(file.substr(file.size() - kExt.size())) == kExt)
    file.remove_suffix(kExt.size());
  return std::string(file);
}

std::string model_file_name(std::string_view path, const std::string& general_name, bool synthetic) {
  if (synthetic && !general_name.empty()) return general_name;
  return model_file_stem(path);
}

std::string served_model_name(std::string_view id) {
  constexpr std::string_view kExt = ".gguf";
  const bool gguf = id.size() > kExt.size() && to_lower(id.substr(id.size() - kExt.size())) == kExt;
  const bool path = id.starts_with('/') || id.find('\\') != std::string_view::npos;
  return gguf || path ? model_file_stem(id) : std::string(id);
}

}  // namespace rigbench
