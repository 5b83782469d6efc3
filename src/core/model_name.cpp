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

}  // namespace rigbench
