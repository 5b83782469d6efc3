#include "report/cost_printer.h"
#include "report/table_json.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

using cost::given;

std::string num(double v, const char* format = "%.4g") { return figure_text(v, format); }

// JSON number, or null for a figure that is missing (NaN) or never reached (inf).
TableCell figure(double v) { return TableCell::number_text(v, num(v)); }

void print_json(const cost::CostReport& r, std::ostream& out, const PricedRun* run) {
  const auto& in = r.inputs;
  Json j;
  if (run) {
    j["run"] = {{"record_id", run->record_id},       {"model", run->model},
                {"machine", run->machine},           {"test_time", run->test_time},
                {"energy_flags", run->energy_flags}, {"energy_notes", run->energy_notes},
                {"passed_over", run->passed_over},   {"doubt", run->doubt}};
  }
  j["currency"] = in.currency;
  j["inputs"] = {{"tokens_per_s", json_number(in.tokens_per_s)},   {"rate_source", in.rate_source},
                 {"active_power_w", json_number(in.active_power_w)},
                 {"idle_power_w", json_number(in.idle_power_w)},   {"power_method", in.power_method},
                 {"psu_efficiency", in.psu_efficiency},     {"rest_w", in.rest_w},
                 {"price_per_kwh", json_number(in.price_per_kwh)}, {"price_source", in.price_source},
                 {"utilization", json_number(in.utilization)},     {"api_price_per_mtok", json_number(in.api_price_per_mtok)}};
  if (in.has_hardware) {
    j["inputs"]["hardware_price"] = in.hardware.price;
    j["inputs"]["residual_value"] = in.hardware.residual;
    j["inputs"]["upkeep"] = in.hardware.upkeep;
    j["inputs"]["lifetime_s"] = in.hardware.lifetime_s;
  }
  j["wall_active_w"] = json_number(r.wall_active_w);
  j["wall_idle_w"] = json_number(r.wall_idle_w);
  j["energy"] = {{"gross_j_per_token", json_number(r.gross.j)},
                 {"marginal_j_per_token", json_number(r.marginal.j)},
                 {"at_utilization_j_per_token", json_number(r.at_utilization.j)}};
  j["electricity"] = {{"gross_per_mtok", json_number(r.gross.cost_per_mtok)},
                      {"marginal_per_mtok", json_number(r.marginal.cost_per_mtok)},
                      {"at_utilization_per_mtok", json_number(r.at_utilization.cost_per_mtok)}};
  j["hardware_per_mtok"] = json_number(r.hardware_per_mtok);
  j["total_per_mtok"] = json_number(r.total_per_mtok);
  j["break_even_utilization"] = json_number(r.break_even_utilization);
  j["break_even_never"] = cost::break_even_never(r.break_even_utilization);  // inf, or above 1 (as md says)
  j["price_per_memory_gb"] = json_number(r.price_per_memory_gb);
  j["notes"] = r.notes;
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace

Table cost_table(const cost::CostReport& r) {
  const auto& in = r.inputs;
  const std::string u = num(in.utilization, "%g");
  Table t({{"figure", "figure"},
           {"j_per_token", "J/token", Align::kRight},
           {"cost_per_mtok", in.currency + "/Mtok", Align::kRight},
           {"currency", "", Align::kLeft, false, true}});
  // An energy figure with no price to turn it into money says what it needs, never an empty
  // column (csv: empty, json: null).
  const bool priced = given(in.price_per_kwh);
  auto row = [&](const std::string& name, double j, double c) {
    const TableCell money = !given(c) && given(j) && !priced ? TableCell::absent("needs --price") : figure(c);
    t.add_row({TableCell::str(name), figure(j), money, TableCell::str(in.currency)});
  };
  row("electricity, gross", r.gross.j, r.gross.cost_per_mtok);
  row("electricity, marginal (above idle)", r.marginal.j, r.marginal.cost_per_mtok);
  if (given(in.utilization))
    row("electricity, at utilization " + u, r.at_utilization.j, r.at_utilization.cost_per_mtok);
  if (in.has_hardware) row("hardware, at utilization " + u, NAN, r.hardware_per_mtok);
  if (given(r.total_per_mtok)) row("total, at utilization " + u, NAN, r.total_per_mtok);
  if (given(in.api_price_per_mtok)) row("API price", NAN, in.api_price_per_mtok);
  for (const auto& n : r.notes) t.add_note(n);
  return t;
}

PricedRun priced_run(const RunRecord& found, bool watts_given) {
  PricedRun run;
  run.record_id = found.record_id;
  run.model = found.model.name + (found.model.file_type.empty() ? "" : " " + found.model.file_type) +
              (found.model.synthetic ? " (synthetic)" : "");
  const MachineInfo& m = found.machine;
  run.machine = !m.hostname.empty() ? m.hostname : m.cpu;
  run.test_time = found.test_time;
  run.energy_flags = found.energy.flags;
  run.energy_notes = found.energy.notes;
  // A power given (--watts) stands in for the meters the run lacked. A run whose energy was
  // unavailable carries only the meters' reasons (measure::unavailable_energy), which are then
  // beside the point: one line says so instead of a note per meter.
  if (watts_given && found.energy.method == "unavailable" && !run.energy_notes.empty())
    run.energy_notes = {"not measured (no meter could read it: `rigbench hw` says why); the figures use --watts"};
  return run;
}

void print_cost(const cost::CostReport& r, OutputFormat format, std::ostream& out, const PricedRun* run) {
  if (format == OutputFormat::kJson) {
    print_json(r, out, run);
    out << std::flush;
    return;
  }
  const Table t = cost_table(r);
  if (format != OutputFormat::kMarkdown) {
    render(t, format, out);
    return;
  }
  if (run) {
    out << "run " << run->record_id << ": " << run->model << " on " << run->machine << ", tested " << run->test_time
        << "\n";
    if (!run->energy_flags.empty()) {
      std::string flags;
      for (const auto& f : run->energy_flags) flags += (flags.empty() ? "" : ", ") + f;
      out << "energy flagged: " << flags << " (notes below)\n";
    }
    if (!run->doubt.empty())
      out << paragraph_lines("doubt: " + run->doubt + " (its t/s may not be what a steady load gets)");
    if (!run->passed_over.empty()) out << paragraph_lines(run->passed_over);
    out << "\n";
  }
  const auto& in = r.inputs;
  const std::string cur = in.currency;
  // One paragraph within 120 columns (was a 184-column line); watts to four figures ("65 W", not
  // the integration's "64.9999 W").
  std::string inputs = "inputs: " + num(in.tokens_per_s, "%g") + " tokens/s" +
                       (in.rate_source.empty() ? std::string() : " (" + in.rate_source + ")") + "; ";
  if (in.power_method == "none") {
    inputs += "no power given or measured";
  } else {
    inputs += num(r.wall_active_w, "%.4g") + " W active, " +
              (given(r.wall_idle_w) ? num(r.wall_idle_w, "%.4g") + " W idle" : std::string("idle not given")) +
              " at the wall (power " + in.power_method + ")";
  }
  if (given(in.price_per_kwh))
    inputs += "; " + num(in.price_per_kwh, "%.4g") + " " + cur + "/kWh (" + in.price_source + ")";
  out << paragraph_lines(inputs) << "\n" << markdown_table(t) << "\n";
  if (given(in.api_price_per_mtok)) {
    const double b = r.break_even_utilization;
    if (std::isinf(b)) {
      out << "break-even: never (the marginal electricity alone costs the API price or more)\n";
    } else if (cost::break_even_never(b)) {
      out << "break-even: never (utilization " << num(b, "%.3g") << " would be needed: above 1, the API is cheaper "
          << "even at full use)\n";
    } else if (given(b)) {
      out << "break-even utilization: " << num(b, "%.3g") << " (" << num(100 * b, "%.3g") << " %)\n";
    }
  }
  if (given(r.price_per_memory_gb))
    out << "hardware price per GB of memory: " << num(r.price_per_memory_gb) << " " << cur << "\n";
  for (const auto& n : t.notes()) out << note_lines(n);
  if (run)
    for (const auto& n : run->energy_notes) out << note_lines("the run's energy: " + n);
  out << std::flush;
}

std::string figure_text(double v, const char* format) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return "never";
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace rigbench::report
