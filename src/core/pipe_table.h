// rigbench: the pipe tables (GitHub-flavoured markdown tables) in a text, split into cells.
// No I/O.
//
// A table is a header line, a delimiter line and the body lines that follow, each a line
// holding at least one '|' (leading and trailing pipes optional, as GFM allows). The
// delimiter line's cells are dashes with optional colons (`---`, `--:`, `:-:`); a body ends
// at the first line without a '|' or at a blank line. Tables may sit anywhere in other text
// (a pasted comment, a log), indented or quoted with "> " (the quote marks are removed), and
// one text may hold several. A cell's `\|` is a '|' inside the cell; cells are trimmed.
// Why not a library: Debian's markdown libraries (cmark-gfm, md4c) render HTML and give no
// table cells through a stable C++ API; the grammar of a table row is these forty lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rigbench {

struct PipeTableRow {
  std::vector<std::string> cells;  // trimmed, `\|` made '|'; as many as the line holds
  int line = 0;                    // 1-based line of `text`
  std::string text;                // the line as it is in `text` (without the line break)
};

struct PipeTable {
  PipeTableRow header;             // the header line's cells (column names)
  std::vector<PipeTableRow> rows;  // the body, in order; a row may have more or fewer cells
};

// The cells of one table line: "| a | b\|c |" -> {"a", "b|c"}; "a | b" -> {"a", "b"}.
std::vector<std::string> pipe_table_cells(std::string_view line);

// Every table in `text`, in order. A header line without a delimiter line under it is no
// table; a delimiter line with another number of cells than its header is no table.
std::vector<PipeTable> find_pipe_tables(std::string_view text);

}  // namespace rigbench
