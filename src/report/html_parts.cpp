#include "report/html_parts.h"

#include "report/escape.h"

namespace rigbench::report::html {

std::string table_html(const std::vector<std::string>& head, const std::vector<Tr>& rows) {
  std::string h = "<table><thead><tr>";
  for (const std::string& c : head) h += "<th>" + html_escape(c) + "</th>";
  h += "</tr></thead><tbody>\n";
  for (const Tr& r : rows) {
    h += "<tr>";
    for (const Td& c : r) {
      h += c.num ? "<td class=\"num\">" : "<td>";
      h += c.strong ? "<strong>" + html_escape(c.text) + "</strong>" : html_escape(c.text);
      h += "</td>";
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
      h += (c.align == Align::kRight ? "<td class=\"num\">" : "<td>") + html_escape(row[i].text) + "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</tbody></table>";
}

std::string notes_html(const Table& t) {
  std::string h;
  for (const std::string& n : t.notes()) h += "<p class=\"note\">" + html_escape(n) + "</p>";
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
