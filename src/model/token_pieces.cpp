#include "model/token_pieces.h"

#include <array>
#include <cstdlib>

namespace rigbench::model {

namespace {

// GPT-2's bytes_to_unicode, inverted: the byte each code point below 0x144 stands for, -1 none.
// Printable bytes ('!'..'~', 0xA1..0xAC, 0xAE..0xFF) stand for themselves; the other 68 are
// 0x100 + their rank among them.
const std::array<int, 0x144>& code_point_bytes() {
  static const std::array<int, 0x144> table = [] {
    std::array<int, 0x144> t{};
    t.fill(-1);
    int extra = 0;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
      t[printable ? b : 0x100 + extra++] = b;
    }
    return t;
  }();
  return table;
}

// The code point of the UTF-8 sequence at `s[i]`, its length in `len`; -1 when malformed.
long decode(std::string_view s, std::size_t i, std::size_t& len) {
  const auto c = static_cast<unsigned char>(s[i]);
  long cp = 0;
  if (c < 0x80) {
    len = 1;
    return c;
  }
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return -1;  // a continuation byte, or 0xF8..0xFF
  }
  if (i + len > s.size()) return -1;
  for (std::size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (cc & 0x3F);
  }
  static constexpr long kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

}  // namespace

std::optional<std::string> byte_level_bytes(std::string_view text) {
  const auto& table = code_point_bytes();
  std::string bytes;
  for (std::size_t i = 0, len = 0; i < text.size(); i += len) {
    const long cp = decode(text, i, len);
    if (cp < 0 || cp >= static_cast<long>(table.size()) || table[static_cast<std::size_t>(cp)] < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(table[static_cast<std::size_t>(cp)]));
  }
  return bytes;
}

bool valid_utf8(std::string_view bytes) {
  for (std::size_t i = 0, len = 0; i < bytes.size(); i += len) {
    if (decode(bytes, i, len) < 0) return false;
  }
  return true;
}

std::vector<std::size_t> partial_character_tokens(const std::vector<std::string>& tokens,
                                                  const std::vector<int32_t>& types, bool byte_level) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < tokens.size() && i < types.size(); ++i) {
    const std::string& t = tokens[i];
    if (types[i] == kTokenByte) {
      // <0xXX>: the byte XX; 0x80 and above are never a character alone.
      if (t.size() == 6 && t.rfind("<0x", 0) == 0 && std::strtol(t.substr(3, 2).c_str(), nullptr, 16) >= 0x80) {
        out.push_back(i);
      }
      continue;
    }
    if (types[i] != kTokenNormal || !byte_level) continue;
    const auto bytes = byte_level_bytes(t);
    if (bytes && !valid_utf8(*bytes)) out.push_back(i);
  }
  return out;
}

}  // namespace rigbench::model
