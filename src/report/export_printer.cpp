#include "report/export_printer.h"

#include <algorithm>
#include <set>

#include "core/knobs.h"
#include "core/short_commit.h"
#include "core/strings.h"
#include "report/columns.h"
#include "report/comparison.h"
#include "report/printer.h"

namespace rigbench::report {

namespace {

using Rows = std::vector<std::pair<const RunRecord*, Phase>>;

// The columns a per-model table leaves to its heading.
bool model_column(const TestColumn& c) {
  return c.key == "model_name" || c.key == "model_file" || c.key == "model_size_bytes";
}

// The test column of `key` (one of test_columns()'s).
const TestColumn& column_of(const std::string& key) {
  const auto& cols = test_columns();
  return *std::find_if(cols.begin(), cols.end(), [&](const TestColumn& c) { return c.key == key; });
}

// The md listing of `rows`: a knob column only when the rows differ in it. `per_model`: no
// model, file and size columns (its heading says them); `fold`: the knobs that differ in one
// "settings" column that wraps between its "header value" pieces.
Table listing(const Rows& rows, bool per_model, bool fold) {
  std::vector<TableColumn> cols = {{"machine", "machine"}};
  std::vector<const TestColumn*> shown, folded;
  for (const TestColumn& c : test_columns()) {
    if (c.in_table == InTable::kNever || (per_model && model_column(c))) continue;
    std::set<std::string> values;
    for (const auto& [rec, phase] : rows) values.insert(c.cell(*rec, phase));
    if (c.in_table == InTable::kIfAsked && values.size() < 2) continue;
    if (fold && c.in_table == InTable::kIfAsked && find_knob(c.key)) {
      folded.push_back(&c);
      continue;
    }
    cols.push_back({c.key, c.header, Align::kLeft, c.wide_only});
    shown.push_back(&c);
  }
  if (!folded.empty()) {
    TableColumn settings{"settings", "settings"};
    settings.wrap = true;
    cols.push_back(std::move(settings));
  }
  Table t(std::move(cols));
  for (const auto& [rec, phase] : rows) {
    std::vector<TableCell> cells = {TableCell::str(machine_identity(*rec).label)};
    for (const TestColumn* c : shown) cells.push_back(TableCell::str(c->cell(*rec, phase)));
    if (!folded.empty()) {
      std::vector<std::string> pieces;
      for (const TestColumn* c : folded) pieces.push_back(c->header + " " + c->cell(*rec, phase));
      TableCell cell = TableCell::str(join(pieces, " · "));
      for (std::size_t k = 0; k + 1 < pieces.size(); ++k) pieces[k] += " ·";
      cell.pieces = std::move(pieces);
      cells.push_back(std::move(cell));
    }
    t.add_row(std::move(cells));
  }
  if (!folded.empty()) t.add_note("settings: the knobs that differ between these records (-o csv or jsonl: every field)");
  return t;
}

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  for (const std::string& line : split(text, '\n')) widest = std::max(widest, display_width(line));
  return widest;
}

bool fits(const Table& t) { return widest_line(markdown_table(t)) <= kMarkdownWidth; }

void print_markdown(const std::vector<RunRecord>& records, std::ostream& out) {
  Rows rows;
  std::set<std::string> commits;
  for (const RunRecord& r : records) {
    for (Phase p : row_phases(r)) rows.emplace_back(&r, p);
    if (!r.build.llama_cpp_commit.empty()) commits.insert(short_commit(r.build.llama_cpp_commit));
  }
  const std::string build_note =
      commits.empty() ? "" : "llama.cpp build: " + join(std::vector<std::string>(commits.begin(), commits.end()), ", ");
  if (Table t = listing(rows, false, false); fits(t)) {
    if (!build_note.empty()) t.add_note(build_note);
    render(t, OutputFormat::kMarkdown, out);
    return;
  }
  // Wider than 120 columns: a table per model (in the order they come), said above it.
  std::vector<std::pair<std::string, Rows>> models;
  const TestColumn& name = column_of("model_name");
  const TestColumn* details[] = {&column_of("model_file"), &column_of("model_size_bytes")};
  for (const auto& row : rows) {
    std::string heading = name.cell(*row.first, row.second);
    for (const TestColumn* c : details) {
      if (const std::string v = c->cell(*row.first, row.second); !v.empty() && v != "-") heading += ", " + v;
    }
    auto at = std::find_if(models.begin(), models.end(), [&](const auto& m) { return m.first == heading; });
    if (at == models.end()) at = models.insert(models.end(), {heading, {}});
    at->second.push_back(row);
  }
  for (std::size_t i = 0; i < models.size(); ++i) {
    Table t = listing(models[i].second, true, false);
    if (!fits(t)) t = listing(models[i].second, true, true);
    if (i + 1 == models.size() && !build_note.empty()) t.add_note(build_note);
    out << (i ? "\n" : "") << paragraph_lines("model: " + models[i].first) << "\n";
    render(t, OutputFormat::kMarkdown, out);
  }
}

}  // namespace

Table records_csv_table(const std::vector<RunRecord>& records) {
  std::vector<TableColumn> cols = {{"machine", "machine"}};
  for (const Column& c : columns()) cols.push_back({c.key, c.header});
  Table t(std::move(cols));
  for (const RunRecord& r : records) {
    std::vector<TableCell> cells = {TableCell::str(machine_identity(r).label)};
    for (const Column& c : columns()) cells.push_back(TableCell::str(c.raw(r)));
    t.add_row(std::move(cells));
  }
  return t;
}

void print_records(const std::vector<RunRecord>& records, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::kMarkdown) {
    print_markdown(records, out);
    return;
  }
  if (format == OutputFormat::kCsv) {
    render(records_csv_table(records), format, out);
    return;
  }
  auto printer = make_printer(format, out);
  printer->begin();
  for (const RunRecord& rec : records) printer->add(rec);
  printer->end();
}

}  // namespace rigbench::report
