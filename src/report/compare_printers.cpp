#include "report/compare_printers.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "report/escape.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Shortest decimal form that reads back as the same double; "" for NaN or inf.
std::string full(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

Json jnum(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

std::string state_name(CellState s) {
  switch (s) {
    case CellState::kMeasured: return "measured";
    case CellState::kWontFit: return "wont_fit";
    case CellState::kMissing: break;
  }
  return "missing";
}

// The row-label columns for `by`: the identities that are not the columns.
std::vector<std::pair<std::string, std::string Row::*>> label_columns(CompareBy by) {
  switch (by) {
    case CompareBy::kMachine: return {{"model", &Row::model}};
    case CompareBy::kModel: return {{"machine", &Row::machine}};
    case CompareBy::kBuild: return {{"model", &Row::model}, {"machine", &Row::machine}};
  }
  return {};
}

std::string test_with_unit(const Row& row) {
  if (row.metric == Metric::kMemory) return "memory " + row.test;
  return row.test + " " + metric_info(row.metric).unit;
}

std::string winner_text(const Comparison& cmp, const Row& row) {
  return row.winner >= 0 ? cmp.columns[row.winner] : row.verdict;
}

Json cell_json(const Comparison& cmp, std::size_t i, const Cell& c) {
  Json j = {{"column", cmp.columns[i]}, {"state", state_name(c.state)}};
  if (c.state == CellState::kMeasured) {
    j["n"] = c.summary.n;
    j["mean"] = c.summary.mean;
    j["stddev"] = c.summary.stddev;
    j["median"] = c.summary.median;
    j["min"] = c.summary.min;
    j["max"] = c.summary.max;
    j["ratio"] = jnum(c.ratio);
    j["config"] = c.config;
    j["n_configs"] = c.n_configs;
  }
  return j;
}

Json row_json(const Comparison& cmp, const Row& row) {
  Json j;
  for (const auto& [name, field] : label_columns(cmp.by)) j[name] = row.*field;
  j["metric"] = metric_info(row.metric).key;
  j["unit"] = metric_info(row.metric).unit;
  j["test"] = row.test;
  j["winner"] = row.winner >= 0 ? Json(cmp.columns[row.winner]) : Json(nullptr);
  j["verdict"] = row.verdict;
  return j;
}

Json regression_json(const Regression& r) {
  auto summary = [](const Summary& s) { return Json{{"n", s.n}, {"mean", s.mean}, {"stddev", s.stddev}}; };
  return {{"machine", r.machine},      {"model", r.model},          {"metric", metric_info(r.metric).key},
          {"test", r.test},            {"config", r.config},        {"from_build", r.from_build},
          {"to_build", r.to_build},    {"from", summary(r.from)},   {"to", summary(r.to)},
          {"change", jnum(r.change)},  {"p_slower", jnum(r.p_slower)}, {"p_faster", jnum(r.p_faster)},
          {"verdict", change_name(r.verdict)}};
}

void print_markdown(const Comparison& cmp, const std::vector<Regression>& regressions, double alpha, std::ostream& out) {
  out << "Compared by " << compare_by_name(cmp.by) << "; baseline: " << md_escape(cmp.columns[cmp.baseline])
      << ". Cells: mean ± standard deviation over samples; ×ratio to the baseline (> 1 is better). A winner's mean ± sd"
         " does not overlap the runner-up's.\n\n";
  out << "|";
  std::string rule = "|";
  for (const auto& [name, field] : label_columns(cmp.by)) {
    out << " " << name << " |";
    rule += "---|";
  }
  out << " test |";
  rule += "---|";
  for (std::size_t i = 0; i < cmp.columns.size(); ++i) {
    out << " " << md_escape(cmp.columns[i]) << (i == cmp.baseline ? " (baseline)" : "") << " |";
    rule += "---:|";
  }
  out << " winner |\n" << rule << "---|\n";
  for (const Row& row : cmp.rows) {
    out << "|";
    for (const auto& [name, field] : label_columns(cmp.by)) out << " " << md_escape(row.*field) << " |";
    out << " " << test_with_unit(row) << " |";
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& c = row.cells[i];
      const char* strong = static_cast<int>(i) == row.winner ? "**" : "";
      out << " " << strong << cell_text(row.metric, c) << strong;
      if (i != cmp.baseline && !std::isnan(c.ratio)) out << " " << ratio_text(c.ratio);
      out << " |";
    }
    out << " " << md_escape(winner_text(cmp, row)) << " |\n";
  }
  out << "\nRegressions (same machine, model and knobs across builds; Welch's t-test on per-sample values, one-sided,"
         " alpha "
      << full(alpha) << "):";
  if (regressions.empty()) {
    out << " none to test (no machine ran the same model and knobs under two builds).\n" << std::flush;
    return;
  }
  out << "\n\n| machine | model | test | from | to | from mean | to mean | change | p (slower) | verdict |\n"
      << "|---|---|---|---|---|---:|---:|---:|---:|---|\n";
  for (const Regression& r : regressions) {
    const std::string p = r.verdict == Change::kTooFewSamples ? "-" : fixed(r.p_slower, 4);
    out << "| " << md_escape(r.machine) << " | " << md_escape(r.model) << " | " << r.test << " " << metric_info(r.metric).unit << " | "
        << md_escape(r.from_build) << " | " << md_escape(r.to_build) << " | " << fixed(r.from.mean, 2) << " | " << fixed(r.to.mean, 2)
        << " | " << (r.change >= 0 ? "+" : "") << fixed(100 * r.change, 1) << " % | " << p << " | "
        << change_name(r.verdict) << " |\n";
  }
  out << std::flush;
}

void print_csv(const Comparison& cmp, std::ostream& out) {
  std::vector<std::string> header;
  for (const auto& [name, field] : label_columns(cmp.by)) header.push_back(name);
  const std::string column = compare_by_name(cmp.by);
  for (const char* h : {"metric", "unit", "test", column.c_str(), "baseline", "state", "n", "mean", "stddev", "median",
                        "min", "max", "ratio", "winner", "verdict", "config"}) {
    header.push_back(h);
  }
  out << join(header, ",") << "\n";
  for (const Row& row : cmp.rows) {
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& c = row.cells[i];
      const bool m = c.state == CellState::kMeasured;
      std::vector<std::string> f;
      for (const auto& [name, field] : label_columns(cmp.by)) f.push_back(csv_escape(row.*field));
      f.push_back(metric_info(row.metric).key);
      f.push_back(metric_info(row.metric).unit);
      f.push_back(csv_escape(row.test));
      f.push_back(csv_escape(cmp.columns[i]));
      f.push_back(i == cmp.baseline ? "true" : "false");
      f.push_back(state_name(c.state));
      f.push_back(m ? std::to_string(c.summary.n) : "");
      for (double v : {c.summary.mean, c.summary.stddev, c.summary.median, c.summary.min, c.summary.max}) {
        f.push_back(m ? full(v) : "");
      }
      f.push_back(full(c.ratio));
      f.push_back(static_cast<int>(i) == row.winner ? "true" : "false");
      f.push_back(csv_escape(row.verdict));
      f.push_back(csv_escape(c.config));
      out << join(f, ",") << "\n";
    }
  }
  out << std::flush;
}

}  // namespace

Result<CompareFormat> parse_compare_format(const std::string& name) {
  if (name == "md") return CompareFormat::kMarkdown;
  if (name == "csv") return CompareFormat::kCsv;
  if (name == "json") return CompareFormat::kJson;
  if (name == "jsonl") return CompareFormat::kJsonl;
  return fail(ErrorCode::kUsage, "-o/--output '" + name + "': unknown format (md, csv, json, jsonl)");
}

std::string cell_text(Metric metric, const Cell& cell) {
  switch (cell.state) {
    case CellState::kMissing: return "-";
    case CellState::kWontFit: return "won't fit";
    case CellState::kMeasured: break;
  }
  if (metric == Metric::kMemory) return format_bytes(static_cast<uint64_t>(cell.summary.mean));
  if (!metric_info(metric).per_repetition) {  // J/token, cost: small numbers, 4 significant digits
    char buf[64];
    if (cell.summary.n > 1) {
      std::snprintf(buf, sizeof buf, "%.4g ± %.2g", cell.summary.mean, cell.summary.stddev);
    } else {
      std::snprintf(buf, sizeof buf, "%.4g", cell.summary.mean);
    }
    return buf;
  }
  return fixed(cell.summary.mean, 2) + " ± " + fixed(cell.summary.stddev, 2);
}

std::string ratio_text(double ratio) { return std::isnan(ratio) ? "" : "×" + fixed(ratio, 2); }

void print_comparison(const Comparison& cmp, const std::vector<Regression>& regressions, double alpha,
                      CompareFormat format, std::ostream& out) {
  switch (format) {
    case CompareFormat::kMarkdown: print_markdown(cmp, regressions, alpha, out); return;
    case CompareFormat::kCsv: print_csv(cmp, out); return;
    case CompareFormat::kJson: {
      Json rows = Json::array();
      for (const Row& row : cmp.rows) {
        Json j = row_json(cmp, row);
        j["cells"] = Json::array();
        for (std::size_t i = 0; i < row.cells.size(); ++i) j["cells"].push_back(cell_json(cmp, i, row.cells[i]));
        rows.push_back(std::move(j));
      }
      Json regs = Json::array();
      for (const Regression& r : regressions) regs.push_back(regression_json(r));
      Json doc = {{"by", compare_by_name(cmp.by)}, {"baseline", cmp.columns[cmp.baseline]}, {"alpha", alpha},
                  {"columns", cmp.columns},        {"rows", rows},                           {"regressions", regs}};
      out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
      return;
    }
    case CompareFormat::kJsonl: {
      for (const Row& row : cmp.rows) {
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
          Json j = {{"kind", "cell"}};
          j.update(row_json(cmp, row));
          j.update(cell_json(cmp, i, row.cells[i]));
          out << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
        }
      }
      for (const Regression& r : regressions) {
        Json j = {{"kind", "regression"}};
        j.update(regression_json(r));
        out << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
      }
      out << std::flush;
      return;
    }
  }
}

}  // namespace rigbench::report
