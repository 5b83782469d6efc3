#include "core/file_text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rigbench {

std::optional<std::string> read_file_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

}  // namespace rigbench
