#include "core/short_commit.h"

#include <cctype>

namespace rigbench {

std::string short_commit(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (!std::isalnum(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    bool hex = true;
    while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) {
      hex = hex && std::isxdigit(static_cast<unsigned char>(text[end]));
      ++end;
    }
    const std::string_view word = text.substr(i, end - i);
    out += hex && word.size() > kShortCommit ? word.substr(0, kShortCommit) : word;
    i = end;
  }
  return out;
}

}  // namespace rigbench
