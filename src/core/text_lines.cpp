#include "core/text_lines.h"

#include <algorithm>

namespace rigbench {

std::vector<NumberedLine> nonblank_lines(std::string_view text) {
  std::vector<NumberedLine> out;
  int number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) out.push_back({number, std::string(line)});
    start = end + 1;
  }
  return out;
}

}  // namespace rigbench
