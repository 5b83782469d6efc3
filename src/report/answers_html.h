// rigbench: the HTML report's first section, "Answers": the sentences the data holds, each
// linked to the table it comes from (a table in this section, or the metric's own section):
//   - per metric (tg, pp, TTFT, J per token, cost per Mtok; report/reversals.h): who leads
//     every model, and the reversals and other pairs between machines, linked to the ranking
//     and pairs tables and to the metric's section (#tg, #pp, #ttft, #energy, #cost);
//   - per machine with two or more models priced (cost/model_costs.h): "On rtx3090 at 0.3
//     EUR/kWh, the cheapest is not the smallest: ...", linked to that machine's cost table;
//     the price is `report --price` when given, else the one the machine's latest priced run
//     was stored with; a machine whose runs give power but no price gets a note naming --price;
//   - per stored capacity sweep (serve-bench --capacity; report/stored_capacity.h), the latest
//     per machine, model and server: "Capacity of rig-a for MODEL (the server ...): serves at
//     least 8 concurrent requests at TTFT p95 <= 2 s ...";
//   - per stored model whose shape the caller could read, from its file or the preset alike
//     (fit/ranking.h, BuyAnswer): "For
//     MODEL at n_ctx N, the cheapest catalog option that fits is ...", then the machines that
//     ran it, linked to its ranking table (a model every catalog device holds alone: "memory is
//     no reason to buy for it"); a model without one gets a note saying why.
// The tables the sentences link to come after the charts, in a section of their own
// ("answer-tables"): the page opens with the answers and then the charts, not with tables of up
// to 56 rows. A what-to-buy table shows the kBuyRows best options (the rest: rigbench fit).
// "" when no sentence holds and no note is due.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "cost/estimate.h"
#include "report/comparison.h"
#include "report/fit_ranking_printer.h"

namespace rigbench::report {

// What to buy for one stored model, planned by report/buy_answers.h (the report command calls
// it: it reads the model's file and the catalog; the HTML report itself does no I/O).
struct BuyAnswer {
  std::string model;                        // the model's label, as the report names it
  std::optional<FitRankingReport> ranking;  // the catalog ranked by price at the model's context
  std::string note;                         // without a ranking: why ("its file ... is not on this machine")
  std::vector<std::string> measured_on;     // the machines a stored run measured it on (it ran: run_status ok), as compare labels them
};

struct AnswerInputs {
  // The price of the cost-per-model answers (price_per_kwh, currency, utilization, price_source);
  // nullopt: each machine's stored price (cost::stored_price).
  std::optional<cost::CostInputs> price;
  std::vector<BuyAnswer> buy;  // in the order they are stated
};

// The rows of a what-to-buy table in the report: the best few options.
inline constexpr std::size_t kBuyRows = 5;

struct AnswersHtml {
  std::string section;  // <section id="answers">: the sentences and notes; "" when none
  std::string tables;   // <section id="answer-tables">: the tables they link to; "" when none
};

AnswersHtml answers_section_html(const Comparison& cmp, std::span<const RunRecord> records = {},
                                 const AnswerInputs& inputs = {});

}  // namespace rigbench::report
