#include "report/answers_html.h"

#include "report/escape.h"
#include "report/reversals.h"

namespace rigbench::report {

namespace {

// A report/table.h table as plain HTML: md headers, md texts.
std::string html_table(const Table& t, const std::string& id) {
  std::string h = "<table id=\"" + id + "\"><thead><tr>";
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

std::string link(const std::string& href, const std::string& text) {
  return "<a href=\"#" + href + "\">" + html_escape(text) + "</a>";
}

}  // namespace

std::string answers_section_html(const Comparison& cmp, double alpha) {
  std::string items, tables;
  for (const Metric m : {Metric::kTg, Metric::kPp}) {
    const Answers a = find_answers(cmp, m, alpha);
    if (a.sentences.empty()) continue;
    const std::string key = m == Metric::kTg ? "tg" : "pp";
    const std::string ranking_id = "answers-ranking-" + key, pairs_id = "answers-pairs-" + key;
    if (!a.headline.empty()) {
      items += "<li>" + html_escape(a.headline) + " (" + link(ranking_id, "ranking") + ", " +
               link(key, key + " table") + ")</li>\n";
    }
    for (const PairAnswer& p : a.pairs) {
      if (p.reversal) items += "<li>" + html_escape(p.sentence) + " (" + link(pairs_id, "pairs") + ")</li>\n";
    }
    for (const PairAnswer& p : a.pairs) {
      if (!p.reversal) items += "<li>" + html_escape(p.sentence) + " (" + link(pairs_id, "pairs") + ")</li>\n";
    }
    if (!a.rankings.empty()) {
      tables += "<h3>Ranking per model (" + html_escape(a.unit_test) + ")</h3><div class=\"table\">" +
                html_table(rankings_table(cmp, a), ranking_id) + "</div>\n";
    }
    if (!a.pairs.empty()) {
      tables += "<h3>Pairs (" + html_escape(a.unit_test) + "; change = a / b - 1)</h3><div class=\"table\">" +
                html_table(pairs_table(cmp, a), pairs_id) + "</div>\n";
    }
  }
  if (items.empty()) return "";
  return "<section id=\"answers\"><h2>Answers</h2><p class=\"note\">Written from the data: significant means "
         "Welch's t-test, two-sided, p &lt; " +
         html_escape(shortest(alpha)) + ", on the per-repetition values.</p><ul>\n" + items + "</ul>\n" + tables +
         "</section>\n";
}

}  // namespace rigbench::report
