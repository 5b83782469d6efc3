#include "support/golden.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <string_view>
#include <vector>

#include "support/temp_dir.h"

namespace rigbench::testing {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string escape_regex(const std::string& literal) {
  static const std::string special = R"(\^$.|?*+()[]{}/)";
  std::string out;
  for (std::size_t i = 0; i < literal.size(); ++i) {
    const char c = literal[i];
    if (c == ' ') {
      while (i + 1 < literal.size() && literal[i + 1] == ' ') ++i;
      out += " +";
      continue;
    }
    if (special.find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

std::regex line_regex(const std::string& expected) {
  static const std::pair<const char*, const char*> kPlaceholders[] = {
      {"{{num}}", R"((?:-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|<0\.01))"},
      {"{{int}}", R"(-?[0-9]+)"},
      {"{{any}}", R"(.*)"},
  };
  std::string pattern;
  std::size_t i = 0;
  while (i < expected.size()) {
    std::size_t next = std::string::npos;
    const std::pair<const char*, const char*>* which = nullptr;
    for (const auto& p : kPlaceholders) {
      const std::size_t at = expected.find(p.first, i);
      if (at < next) {
        next = at;
        which = &p;
      }
    }
    if (!which) {
      pattern += escape_regex(expected.substr(i));
      break;
    }
    pattern += escape_regex(expected.substr(i, next - i)) + which->second;
    i = next + std::string(which->first).size();
  }
  return std::regex(pattern);
}

}  // namespace

std::string golden_mismatch(const std::string& actual, const std::string& expected) {
  const auto a = lines_of(actual);
  const auto e = lines_of(expected);
  for (std::size_t i = 0; i < std::max(a.size(), e.size()); ++i) {
    if (i >= a.size())
      return "line " + std::to_string(i + 1) + ": missing; expected\n  " + e[i] + "\n--- actual:\n" + actual;
    if (i >= e.size())
      return "line " + std::to_string(i + 1) + ": not expected:\n  " + a[i] + "\n--- actual:\n" + actual;
    if (!std::regex_match(a[i], line_regex(e[i]))) {
      return "line " + std::to_string(i + 1) + " differs:\n  actual:   " + a[i] + "\n  expected: " + e[i] +
             "\n--- actual:\n" + actual;
    }
  }
  return "";
}

std::string unpadded(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

std::string unwrapped(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' || i + 1 >= text.size() || out.empty() || out.back() == '\n') {
      out += text[i];
      continue;
    }
    const std::string_view next = std::string_view(text).substr(i + 1);
    const std::string_view prev = std::string_view(out).substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
    const bool continuation = next.starts_with("  ");
    const bool new_block = next.starts_with("|") || next.starts_with("- ") || next.starts_with("note:") ||
                           next.starts_with("\n") || prev.starts_with("|");
    if (continuation || !new_block) {
      out += ' ';
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;  // the continuation's indent
    } else {
      out += '\n';
    }
  }
  return out;
}

namespace {

// The cells of an md row "| a | b |": {"a", "b"} (padding kept); empty for another line.
std::vector<std::string> row_cells(const std::string& line) {
  if (line.size() < 4 || !line.starts_with("| ") || !line.ends_with(" |")) return {};
  std::vector<std::string> cells;
  const std::string inner = line.substr(2, line.size() - 4);
  std::size_t from = 0;
  for (std::size_t at; (at = inner.find(" | ", from)) != std::string::npos; from = at + 3)
    cells.push_back(inner.substr(from, at - from));
  cells.push_back(inner.substr(from));
  return cells;
}

std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, s.find_last_not_of(' ') + 1 - a);
}

}  // namespace

std::string unwrapped_rows(const std::string& text) {
  std::vector<std::string> lines;
  std::vector<std::string> last;  // the cells of the row lines.back() holds, trimmed
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(from, end - from);
    from = end + 1;
    const std::vector<std::string> cells = row_cells(line);
    if (!last.empty() && cells.size() == last.size() && trimmed(cells[0]).empty()) {
      for (std::size_t k = 0; k < cells.size(); ++k) {
        const std::string c = trimmed(cells[k]);
        if (!c.empty()) last[k] += (last[k].empty() ? "" : " ") + c;
      }
      lines.back() = "| " + [&] {
        std::string joined;
        for (std::size_t k = 0; k < last.size(); ++k) joined += (k ? " | " : "") + last[k];
        return joined;
      }() + " |";
      continue;
    }
    last.clear();
    for (const std::string& c : cells) last.push_back(trimmed(c));
    lines.push_back(line);
  }
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  if (!text.ends_with('\n') && !out.empty()) out.pop_back();
  return out;
}

std::string golden(const std::string& name) { return read_file(std::string(RIGBENCH_TEST_DATA) + "/golden/" + name); }

std::string matches_golden(const std::string& actual, const std::string& name) {
  if (const char* w = std::getenv("RIGBENCH_WRITE_GOLDEN"); w && std::string(w) == "1") {
    write_file(std::string(RIGBENCH_TEST_DATA) + "/golden/" + name, actual);
    return "";
  }
  return golden_mismatch(actual, golden(name));
}

}  // namespace rigbench::testing
