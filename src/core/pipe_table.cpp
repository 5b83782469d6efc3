#include "core/pipe_table.h"

#include "core/strings.h"

namespace rigbench {

namespace {

// The line without a quote prefix ("> ", ">> ") and surrounding blanks.
std::string unquoted(std::string_view line) {
  std::string s = trim(line);
  while (s.starts_with('>')) s = trim(std::string_view(s).substr(1));
  return s;
}

// Whether the line has a '|' that is not escaped.
bool has_pipe(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') ++i;
    else if (line[i] == '|') return true;
  }
  return false;
}

// A delimiter cell: dashes, with an optional colon at either end.
bool is_delimiter_cell(std::string_view cell) {
  if (cell.starts_with(':')) cell.remove_prefix(1);
  if (cell.ends_with(':')) cell.remove_suffix(1);
  if (cell.empty()) return false;
  for (char c : cell) {
    if (c != '-') return false;
  }
  return true;
}

bool is_delimiter_line(const std::vector<std::string>& cells) {
  if (cells.empty()) return false;
  for (const std::string& c : cells) {
    if (!is_delimiter_cell(c)) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> pipe_table_cells(std::string_view line) {
  std::string s = unquoted(line);
  std::vector<std::string> cells;
  std::string cell;
  bool any_pipe = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (s[i] == '|') {
      if (any_pipe || !trim(cell).empty()) cells.push_back(trim(cell));  // text before a leading pipe: none
      any_pipe = true;
      cell.clear();
    } else {
      cell += s[i];
    }
  }
  if (!trim(cell).empty() || !any_pipe) cells.push_back(trim(cell));  // no trailing pipe
  return cells;
}

std::vector<PipeTable> find_pipe_tables(std::string_view text) {
  std::vector<std::string> lines = split(text, '\n');
  for (std::string& l : lines) {
    if (l.ends_with('\r')) l.pop_back();
  }
  std::vector<PipeTable> tables;
  std::size_t i = 0;
  while (i + 1 < lines.size()) {
    const std::string head = unquoted(lines[i]);
    if (!has_pipe(head)) {
      ++i;
      continue;
    }
    const std::vector<std::string> header = pipe_table_cells(lines[i]);
    const std::vector<std::string> delimiter = pipe_table_cells(lines[i + 1]);
    if (!has_pipe(unquoted(lines[i + 1])) || !is_delimiter_line(delimiter) || delimiter.size() != header.size()) {
      ++i;
      continue;
    }
    PipeTable t;
    t.header = {header, static_cast<int>(i + 1), lines[i]};
    std::size_t j = i + 2;
    for (; j < lines.size(); ++j) {
      const std::string body = unquoted(lines[j]);
      if (body.empty() || !has_pipe(body)) break;
      t.rows.push_back({pipe_table_cells(lines[j]), static_cast<int>(j + 1), lines[j]});
    }
    tables.push_back(std::move(t));
    i = j;
  }
  return tables;
}

}  // namespace rigbench
