#include "hw/file_text.h"

#include <filesystem>
#include <fstream>

namespace rigbench::hw {

std::optional<std::string> read_file_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (in.eof()) break;
  }
  if (in.bad()) return std::nullopt;  // a read error part way: nothing rather than a part
  return text;
}

}  // namespace rigbench::hw
