#include "report/export_printer.h"

#include <set>

#include "core/short_commit.h"
#include "core/strings.h"
#include "report/columns.h"
#include "report/comparison.h"
#include "report/printer.h"

namespace rigbench::report {

Table records_table(const std::vector<RunRecord>& records) {
  // md: the bench table's rows (a record's pp and tg tests, llama-bench's rows), a machine
  // column first; a knob column only when the rows differ in it.
  std::vector<std::pair<const RunRecord*, Phase>> rows;
  for (const RunRecord& r : records) {
    for (Phase p : row_phases(r)) rows.emplace_back(&r, p);
  }
  std::vector<TableColumn> cols = {{"machine", "machine"}};
  std::vector<const TestColumn*> shown;
  for (const TestColumn& c : test_columns()) {
    if (c.in_table == InTable::kNever) continue;
    std::set<std::string> values;
    for (const auto& [rec, phase] : rows) values.insert(c.cell(*rec, phase));
    if (c.in_table == InTable::kIfAsked && values.size() < 2) continue;
    cols.push_back({c.key, c.header, Align::kLeft, c.wide_only});
    shown.push_back(&c);
  }
  Table t(std::move(cols));
  std::set<std::string> commits;
  for (const auto& [rec, phase] : rows) {
    std::vector<TableCell> cells = {TableCell::str(machine_identity(*rec).label)};
    for (const TestColumn* c : shown) cells.push_back(TableCell::str(c->cell(*rec, phase)));
    t.add_row(std::move(cells));
    if (!rec->build.llama_cpp_commit.empty()) commits.insert(short_commit(rec->build.llama_cpp_commit));
  }
  if (!commits.empty())
    t.add_note("llama.cpp build: " + join(std::vector<std::string>(commits.begin(), commits.end()), ", "));
  return t;
}

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
  if (format == OutputFormat::kMarkdown || format == OutputFormat::kCsv) {
    render(format == OutputFormat::kMarkdown ? records_table(records) : records_csv_table(records), format, out);
    return;
  }
  auto printer = make_printer(format, out);
  printer->begin();
  for (const RunRecord& rec : records) printer->add(rec);
  printer->end();
}

}  // namespace rigbench::report
