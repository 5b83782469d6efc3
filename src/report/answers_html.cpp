#include "report/answers_html.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/strings.h"
#include "cost/model_costs.h"
#include "report/cost_printer.h"
#include "report/escape.h"
#include "report/html_parts.h"
#include "report/model_cost_printer.h"
#include "report/reversals.h"
#include "report/stored_capacity.h"

namespace rigbench::report {

namespace {

std::string link(const std::string& href, const std::string& text) {
  return "<a href=\"#" + href + "\">" + html_escape(text) + "</a>";
}

// The metric's own section of the report (html_report.cpp's kMetricSections) and its name.
std::pair<std::string, std::string> metric_anchor(Metric m) {
  switch (m) {
    case Metric::kPp: return {"pp", "pp table"};
    case Metric::kTtft: return {"ttft", "TTFT table"};
    case Metric::kTgEnergy: return {"energy", "energy table"};
    case Metric::kCost: return {"cost", "cost table"};
    default: return {"tg", "tg table"};
  }
}

struct Parts {
  std::string items, tables, notes;
};

void speed_answers(const Comparison& cmp, Parts& out) {
  for (const Metric m : answer_metrics()) {
    const Answers a = find_answers(cmp, m);
    if (a.sentences.empty()) continue;
    const auto [key, section_name] = metric_anchor(m);
    const std::string ranking_id = "answers-ranking-" + key, pairs_id = "answers-pairs-" + key;
    // What every item shares, said once ("models: synthetic v2, seed 42").
    if (!a.items_note.empty()) out.items += "<li>Models: " + html_escape(a.items_note) + ".</li>\n";
    if (!a.headline.empty()) {
      out.items += "<li>" + html_escape(a.headline) + " (" + link(ranking_id, "ranking") + ", " +
                   link(key, section_name) + ")</li>\n";
    }
    for (const PairAnswer& p : a.pairs) {
      if (p.reversal) out.items += "<li>" + html_escape(p.sentence) + " (" + link(pairs_id, "pairs") + ")</li>\n";
    }
    for (const PairAnswer& p : a.pairs) {
      if (!p.reversal) out.items += "<li>" + html_escape(p.sentence) + " (" + link(pairs_id, "pairs") + ")</li>\n";
    }
    if (!a.rankings.empty()) {
      out.tables += "<h3>Ranking per model (" + html_escape(a.unit_test) + ")</h3><div class=\"table\">" +
                    html::table_html(rankings_table(cmp, a), ranking_id) + "</div>\n";
    }
    if (!a.pairs.empty()) {
      out.tables += "<h3>Pairs (" + html_escape(a.unit_test) + "; change = a / b - 1)</h3><div class=\"table\">" +
                    html::table_html(pairs_table(cmp, a), pairs_id) + "</div>\n";
    }
  }
  // The answers name a served row's server by its tag ("tg16 @ c1 · S1", comparison.h tagged_test).
  if (out.items.empty()) return;
  const std::vector<std::string> servers = row_servers(cmp);
  for (std::size_t i = 0; i < servers.size(); ++i)
    out.notes += "<p class=\"note\">" + html_escape(server_legend(servers, i)) + "</p>\n";
}

// "On rtx3090 at 0.3 EUR/kWh, utilization 0.5, the cheapest is not the smallest: ..." per machine.
void cost_answers(std::span<const RunRecord> records, const std::optional<cost::CostInputs>& price, Parts& out) {
  std::map<std::string, std::vector<RunRecord>> by_machine;
  for (const RunRecord& r : records) {
    if (r.results.tg && r.refused.empty()) by_machine[cost::cost_machine(r)].push_back(r);
  }
  int index = 0;
  for (const auto& [machine, runs] : by_machine) {
    const std::optional<cost::CostInputs> shared = price ? price : cost::stored_price(runs);
    auto costs = cost::model_costs(runs, shared.value_or(cost::CostInputs{}));
    if (!costs || costs->models.size() < 2) continue;
    if (!shared) {
      int powered = 0;
      for (const cost::ModelCost& m : costs->models) powered += cost::given(m.figures.active_power_w);
      if (powered >= 2) {
        out.notes += "<p class=\"note\">" +
                     html_escape("Cost per model on " + machine + ": its runs give power but no price; give " +
                                 "`rigbench report --price P` (per kWh) for the cheapest model per Mtok.") +
                     "</p>\n";
      }
      continue;
    }
    if (costs->sentence.empty()) continue;
    const std::string id = "answers-cost-" + std::to_string(index++);
    std::string lead = "On " + machine + " at " + figure_text(shared->price_per_kwh) + " " + shared->currency + "/kWh";
    if (cost::given(shared->utilization)) lead += ", utilization " + figure_text(shared->utilization, "%g");
    std::string sentence = costs->sentence;
    sentence[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(sentence[0])));
    out.items += "<li>" + html_escape(lead + ", " + sentence) + " (" + link(id, "cost per model") + ")</li>\n";
    const Table t = model_costs_table(*costs, *shared);
    out.tables += "<h3>Cost per model on " + html_escape(machine) + " (" + html_escape(shared->price_source) +
                  ")</h3><div class=\"table\">" + html::table_html(t, id) + "</div>" + html::notes_html(t) + "\n";
  }
}

// A model every catalog device holds alone (a 33M embedding model, a tiny test model): memory
// is no reason to buy for it, and the machines that ran it are the answer, said before the
// cheapest option ("an Arc B580 advised for a 33M embedding model"). Else fit's buy sentence,
// then the machines that ran it.
std::string buy_text(const BuyAnswer& b) {
  const fit::Ranking& r = b.ranking->ranking;
  const std::string machines = join(b.measured_on, ", ");
  const bool everywhere = !r.ranked.empty() && r.not_fitting.empty() && r.dropped.empty() &&
                          std::all_of(r.ranked.begin(), r.ranked.end(), [](const fit::BuyOption& o) {
                            return o.count == 1 && o.verdict == fit::Verdict::kFits;
                          });
  if (!everywhere)
    return buy_sentence(*b.ranking) + (machines.empty() ? "" : " It already runs on " + machines + " (its stored runs).");
  const fit::BuyOption* cheapest = cheapest_fit(r);
  uint64_t needed = 0;
  for (const fit::BuyOption& o : r.ranked) needed = std::max(needed, o.needed_bytes);
  return b.ranking->model + " at n_ctx " + std::to_string(r.n_ctx) + " needs at most " + format_bytes(needed) +
         " and fits every one of the " + std::to_string(r.ranked.size()) + " catalog devices alone;" +
         (machines.empty() ? "" : " it already runs on " + machines + " (its stored runs);") +
         " memory is no reason to buy for it" +
         (cheapest ? " (the cheapest catalog option: " + cheapest->device + ", $" + format_fixed(*cheapest->price_usd, 0) + ")"
                   : std::string()) +
         ".";
}

// "For MODEL at n_ctx N, the cheapest catalog option that fits is ..." per stored model.
void buy_answers(const std::vector<BuyAnswer>& buy, Parts& out) {
  int index = 0;
  std::string left_out;  // the models without a ranking, one item each, under one note
  for (const BuyAnswer& b : buy) {
    if (!b.ranking) {
      if (!b.note.empty()) left_out += "<li>" + html_escape(b.model + ": " + b.note) + "</li>";
      continue;
    }
    const std::string id = "answers-buy-" + std::to_string(index++);
    out.items += "<li>" + html_escape(buy_text(b)) + " (" + link(id, "what to buy") + ")</li>\n";
    if (b.ranking->ranking.ranked.empty()) continue;
    // The few best options; the whole ranking is fit's (a table of 56 rows pushed the charts down).
    FitRankingReport best = *b.ranking;
    const std::size_t more = best.ranking.ranked.size() > kBuyRows ? best.ranking.ranked.size() - kBuyRows : 0;
    best.ranking.ranked.resize(best.ranking.ranked.size() - more);
    if (more > 0) {
      best.notes.push_back(std::to_string(more) + " more option" + (more == 1 ? "" : "s") +
                           " fit: rigbench fit MODEL.gguf -c " + std::to_string(best.ranking.n_ctx) +
                           " --rank price lists them all");
    }
    const Table t = fit_ranking_table(best);
    out.tables += "<h3>What to buy for " + html_escape(b.ranking->model) + " at n_ctx " +
                  std::to_string(b.ranking->ranking.n_ctx) + " (the catalog by price; rigbench fit --rank price)</h3>" +
                  "<div class=\"table\">" + html::table_html(t, id) + "</div>" + html::notes_html(t) + "\n";
  }
  if (!left_out.empty()) {
    out.notes += "<p class=\"note\">What to buy is left out for these models (rank the catalog for one with rigbench "
                 "fit MODEL.gguf -c N --rank price):</p><ul class=\"note\">" +
                 left_out + "</ul>\n";
  }
}

// "How many can it serve": each stored capacity sweep's answer, the latest per machine, model
// and server (report/stored_capacity.h).
void capacity_answers(std::span<const RunRecord> records, Parts& out) {
  for (const StoredCapacity& c : stored_capacities(records, RecordIdentities(records))) {
    out.items += "<li>" + html_escape("Capacity of " + c.machine + " for " + c.model + " (the server " + c.server +
                                      (c.workload.empty() ? "" : "; " + c.workload) + "): " + c.answer + ".") +
                 "</li>\n";
  }
}

}  // namespace

AnswersHtml answers_section_html(const Comparison& cmp, std::span<const RunRecord> records,
                                 const AnswerInputs& inputs) {
  Parts parts;
  speed_answers(cmp, parts);
  cost_answers(records, inputs.price, parts);
  capacity_answers(records, parts);
  buy_answers(inputs.buy, parts);
  if (parts.items.empty() && parts.notes.empty()) return {};
  AnswersHtml out;
  out.section = "<section id=\"answers\"><h2>Answers</h2><p class=\"note\">Written from the data: significant means "
                "Welch's t-test, two-sided, p &lt; " +
                html_escape(shortest(cmp.alpha)) + ", on the per-repetition values (the tables they link to follow "
                "the charts).</p><ul>\n" + parts.items + "</ul>\n" + parts.notes + "</section>\n";
  if (!parts.tables.empty())
    out.tables = "<section id=\"answer-tables\"><h2>Answer tables</h2>\n" + parts.tables + "</section>\n";
  return out;
}

}  // namespace rigbench::report
