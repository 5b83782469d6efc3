#include "core/csv.h"

namespace rigbench {

Result<std::vector<CsvRecord>> parse_csv(std::string_view text, CsvOptions options) {
  std::vector<CsvRecord> records;
  CsvRecord current{{}, 1};
  std::string field;
  bool quoted = false, has_content = false;
  int line = 1;
  auto end_record = [&] {
    current.fields.push_back(std::move(field));
    field.clear();
    if (has_content) records.push_back(std::move(current));
    current = CsvRecord{{}, line};
    has_content = false;
  };
  // At the start of a record: skips a comment line, newline included; true when it did.
  auto skip_comment = [&](std::size_t& i) {
    std::size_t j = i;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j == text.size() || text[j] != options.comment) return false;
    const std::size_t eol = text.find('\n', j);
    i = eol == std::string_view::npos ? text.size() : eol + 1;
    ++line;
    current.line = line;
    return true;
  };
  std::size_t i = 0;
  while (i < text.size()) {
    if (options.comment && !quoted && !has_content && current.fields.empty() && field.empty() && skip_comment(i)) {
      continue;
    }
    const char c = text[i++];
    if (quoted) {
      if (c == '"' && i < text.size() && text[i] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    switch (c) {
      case '"': quoted = has_content = true; break;
      case ',':
        current.fields.push_back(std::move(field));
        field.clear();
        has_content = true;
        break;
      case '\r': break;
      case '\n':
        ++line;
        end_record();
        break;
      default: field += c; has_content = true;
    }
  }
  if (quoted) return fail(ErrorCode::kInvalidInput, "line " + std::to_string(current.line) + ": unterminated quote");
  end_record();
  return records;
}

}  // namespace rigbench
