// rigbench: the pieces every HTML report section is built from, declared once: a plain table
// (cells escaped), a section (a chart's canvas beside its table) and a chart's JSON spec (the
// glue script draws it). Used by html_report.cpp and the sections in their own files
// (serve_html.cpp). Pure functions; no I/O.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/table.h"

namespace rigbench::report::html {

using Json = nlohmann::ordered_json;

// A table cell: plain text, escaped when the table is written.
struct Td {
  std::string text;
  bool strong = false;  // the row's winner
  bool num = false;     // right-aligned
  // Where set, `text` in pieces: the cell may wrap between them (never inside one) when the
  // table is wider than the page; empty: `text` stays on one line.
  std::vector<std::string> pieces{};
};
using Tr = std::vector<Td>;

// A cell that may break at its spaces and after its hyphens where the table would be wider
// than the page: a model's or a machine's name, a verdict, a description (a CPU, a GPU list, an OS).
Td words_td(const std::string& text);

// <table> with `head` and `rows`, every text escaped. A header may break at its spaces and
// after its hyphens (<wbr>), a cell with pieces between them, where the table would be wider
// than the page (the template's th and td.pieces); other cells stay on one line.
std::string table_html(const std::vector<std::string>& head, const std::vector<Tr>& rows);

// A report/table.h table as HTML: its md headers and md texts (data_only columns left out),
// right-aligned where the column is; `id` on the <table> when given.
std::string table_html(const Table& t, const std::string& id = "");
// The table's notes, each a <p class="note">.
std::string notes_html(const Table& t);

// <section id=ID><h2>TITLE</h2>, the note, then the table; with `chart_id`, the canvas and the
// table side by side.
std::string section_html(const std::string& id, const std::string& title, const std::string& note,
                         const std::string& chart_id, const std::string& table);

// A chart's spec for the glue script. `y_max` > 0: the value axis reaches at least that far.
Json chart_spec(const std::string& id, const std::string& title, const std::string& y_title, const std::string& unit,
                bool stacked, const Json& labels, const Json& datasets, double y_max = 0);

}  // namespace rigbench::report::html
