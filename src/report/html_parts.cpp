#include "report/html_parts.h"

#include "core/strings.h"
#include "report/escape.h"
#include "report/table.h"

namespace rigbench::report::html {

namespace {

// A <td> of `text` (right-aligned when `num`, in <strong> when `strong`) that breaks only
// between its `pieces`: each escaped in a span the template keeps on one line (td.pieces
// span), joined by spaces, or by a bare break opportunity (<wbr>) after a piece that ends in a
// hyphen. One piece or none: the text alone, on one line.
std::string td_html(const std::string& text, const std::vector<std::string>& pieces, bool num, bool strong = false) {
  std::string inner;
  if (pieces.size() < 2) {
    inner = html_escape(text);
  } else {
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (i > 0) inner += pieces[i - 1].ends_with('-') ? "<wbr>" : " ";
      inner += "<span>" + html_escape(pieces[i]) + "</span>";
    }
  }
  if (strong) inner = "<strong>" + inner + "</strong>";
  const char* open = pieces.size() < 2 ? (num ? "<td class=\"num\">" : "<td>")
                                       : (num ? "<td class=\"num pieces\">" : "<td class=\"pieces\">");
  return open + inner + "</td>";
}

}  // namespace

Td words_td(const std::string& text) {
  std::vector<std::string> pieces;
  for (const std::string& word : split(text, ' ')) {
    for (std::string& part : split_after(word, "-")) pieces.push_back(std::move(part));
  }
  return Td{text, false, false, std::move(pieces)};
}

std::string table_html(const std::vector<std::string>& head, const std::vector<Tr>& rows) {
  std::string h = "<table><thead><tr>";
  // A header (a machine's name) may break at its spaces and after its hyphens where the table
  // would be wider than the page.
  for (const std::string& c : head) {
    std::string text = html_escape(c);
    for (std::size_t at = text.find('-'); at != std::string::npos; at = text.find('-', at + 6))
      text.insert(at + 1, "<wbr>");
    h += "<th>" + text + "</th>";
  }
  h += "</tr></thead><tbody>\n";
  for (const Tr& r : rows) {
    h += "<tr>";
    for (const Td& c : r) {
      h += td_html(c.text, c.pieces, c.num, c.strong);
    }
    h += "</tr>\n";
  }
  return h + "</tbody></table>";
}

std::string table_html(const Table& t, const std::string& id) {
  std::string h = id.empty() ? "<table><thead><tr>" : "<table id=\"" + id + "\"><thead><tr>";
  for (const TableColumn& c : t.columns()) {
    if (!c.data_only) h += "<th>" + html_escape(c.header) + "</th>";
  }
  h += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows()) {
    h += "<tr>";
    for (std::size_t i = 0; i < row.size() && i < t.columns().size(); ++i) {
      const TableColumn& c = t.columns()[i];
      if (c.data_only) continue;
      // A wrap column (report/table.h) breaks where md's does: between its cell's pieces, after
      // each wrap_at (a ranking's " > "), else at spaces; other columns stay on one line.
      std::vector<std::string> pieces = row[i].pieces;
      if (c.wrap && pieces.empty()) pieces = c.wrap_at ? split_after(row[i].text, c.wrap_at) : split(row[i].text, ' ');
      h += td_html(row[i].text, c.wrap ? pieces : std::vector<std::string>{}, c.align == Align::kRight);
    }
    h += "</tr>\n";
  }
  return h + "</tbody></table>";
}

std::string notes_html(const Table& t) {
  std::string h;
  for (const std::string& n : as_written(t.notes())) h += "<p class=\"note\">" + html_escape(n) + "</p>";
  return h;
}

std::string section_html(const std::string& id, const std::string& title, const std::string& note,
                         const std::string& chart_id, const std::string& table) {
  std::string h = "<section id=\"" + id + "\"><h2>" + html_escape(title) + "</h2>";
  if (!note.empty()) h += "<p class=\"note\">" + html_escape(note) + "</p>";
  if (chart_id.empty()) return h + "<div class=\"table\">" + table + "</div></section>\n";
  return h + "<div class=\"pair\"><div class=\"chart\"><canvas id=\"" + chart_id + "\" role=\"img\" aria-label=\"" +
         html_escape(title) + "\"></canvas></div><div class=\"table\">" + table + "</div></div></section>\n";
}

Json chart_spec(const std::string& id, const std::string& title, const std::string& y_title, const std::string& unit,
                bool stacked, const Json& labels, const Json& datasets, double y_max) {
  return {{"id", id},
          {"title", title},
          {"y_title", y_title},
          {"unit", unit},
          {"stacked", stacked},
          {"labels", labels},
          {"datasets", datasets},
          {"y_max", y_max > 0 ? Json(y_max) : Json(nullptr)},
          {"scale", "linear"}};
}

}  // namespace rigbench::report::html
