#include "report/model_cost_printer.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "report/cost_printer.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;
using cost::given;

TableCell figure(double v, const char* format = "%.4g") { return TableCell::number_text(v, figure_text(v, format)); }

std::string utilization_text(double u) { return figure_text(u, "%g"); }

}  // namespace

Table model_costs_table(const cost::ModelCosts& c, const cost::CostInputs& shared) {
  const std::string cur = shared.currency;
  const bool at_u = c.at_utilization;
  const std::string u = utilization_text(shared.utilization);
  std::vector<TableColumn> cols = {{"model", "model"},
                                   {"n_params", "params", Align::kRight},
                                   {"tg_tps", "t/s", Align::kRight},
                                   {"active_power_w", "W", Align::kRight},
                                   {"idle_power_w", "idle W", Align::kRight},
                                   {"gross_j_per_token", "J/tok", Align::kRight}};
  if (at_u) cols.push_back({"at_utilization_j_per_token", "J/tok at u=" + u, Align::kRight});
  cols.push_back({"gross_per_mtok", cur + "/Mtok", Align::kRight});
  if (at_u) cols.push_back({"at_utilization_per_mtok", cur + "/Mtok at u=" + u, Align::kRight});
  cols.push_back({"power_method", "power"});
  cols.push_back({"currency", "currency", Align::kLeft, false, true});
  cols.push_back({"record_id", "record_id", Align::kLeft, false, true});
  cols.push_back({"n_runs", "n_runs", Align::kLeft, false, true});
  Table t(std::move(cols));
  for (const cost::ModelCost& m : c.models) {
    const cost::CostReport& r = m.report;
    std::vector<TableCell> row = {
        TableCell::str(m.model),
        m.n_params > 0 ? TableCell::count(m.n_params, format_count(m.n_params)) : TableCell::absent(),
        figure(m.figures.tokens_per_s, "%.2f"),
        figure(r.wall_active_w, "%.1f"),
        figure(r.wall_idle_w, "%.1f"),
        figure(r.gross.j)};
    if (at_u) row.push_back(figure(r.at_utilization.j));
    row.push_back(figure(r.gross.cost_per_mtok));
    if (at_u) row.push_back(figure(r.at_utilization.cost_per_mtok));
    row.push_back(TableCell::str(r.inputs.power_method));
    row.push_back(TableCell::str(cur));
    row.push_back(TableCell::str(m.record_id));
    row.push_back(TableCell::count(static_cast<uint64_t>(m.n_runs)));
    t.add_row(std::move(row));
  }
  // Each model's notes, once (a missing price or power says which flag would give it).
  for (const cost::ModelCost& m : c.models) {
    for (const std::string& n : m.report.notes) {
      if (!n.starts_with("total leaves out")) t.add_note(n);  // the table has no total column
    }
    if (m.n_runs > 1)
      t.add_note(m.model + ": " + std::to_string(m.n_runs) + " runs stored, the latest priced (" +
                 m.record_id.substr(0, 8) + ", " + m.test_time + ")");
  }
  t.add_note(
      "t/s = the run's tg row as bench shows it (the mean of its per-repetition rates; serve-bench: its output "
      "t/s); W at the wall; J/tok = the run's tg energy over its tg tokens (at the wall)" +
      std::string(at_u ? "; at u: the idle W of the hours not generating charged to the tokens of the others" : ""));
  return t;
}

void print_model_costs(const cost::ModelCosts& c, const cost::CostInputs& shared, OutputFormat format,
                       std::ostream& out) {
  const Table t = model_costs_table(c, shared);
  const std::string sorted_by = c.at_utilization ? "at_utilization_per_mtok" : "gross_per_mtok";
  if (format == OutputFormat::kJson) {
    Json j = {{"machine", c.machine},
              {"currency", shared.currency},
              {"price_per_kwh", json_number(shared.price_per_kwh)},
              {"price_source", shared.price_source},
              {"utilization", json_number(shared.utilization)},
              {"sorted_by", sorted_by},
              {"sentence", c.sentence},
              {"cheapest_is_smallest", c.cheapest_is_smallest},
              {"models", table_rows_json(t)}};
    out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
    return;
  }
  if (format != OutputFormat::kMarkdown) {
    render(t, format, out);
    return;
  }
  std::string head = "cost per Mtok on " + c.machine + ": ";
  if (given(shared.price_per_kwh)) {
    head += figure_text(shared.price_per_kwh) + " " + shared.currency + "/kWh (" + shared.price_source + ")";
  } else {
    head += "no price (give --price or --tariff)";
  }
  if (c.at_utilization) {
    head += ", idle included at utilization " + utilization_text(shared.utilization) +
            "; sorted by the cost at that utilization, cheapest first";
  } else {
    head += "; sorted by the gross cost, cheapest first (--utilization includes the idle hours)";
  }
  out << paragraph_lines(head) << "\n" << markdown_table(t) << "\n";
  if (!c.sentence.empty()) out << paragraph_lines(c.sentence);
  for (const auto& n : t.notes()) out << note_lines(n);
  out << std::flush;
}

}  // namespace rigbench::report
