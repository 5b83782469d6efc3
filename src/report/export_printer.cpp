#include "report/export_printer.h"

#include <charconv>
#include <set>

#include "core/strings.h"
#include "report/columns.h"
#include "report/comparison.h"
#include "report/printer.h"

namespace rigbench::report {

namespace {

bool is_number(const std::string& s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Table records_table(const std::vector<RunRecord>& records) {
  std::vector<TableColumn> cols = {{"machine", "machine"}};
  for (const Column& c : columns()) {
    std::set<std::string> values;
    bool numeric = true;
    for (const RunRecord& r : records) {
      const std::string v = c.raw(r);
      values.insert(v);
      numeric = numeric && (v.empty() || is_number(v));
    }
    TableColumn t{c.key, c.header, numeric ? Align::kRight : Align::kLeft};
    t.data_only = c.in_table == InTable::kNever || (c.in_table == InTable::kIfAsked && values.size() < 2);
    cols.push_back(std::move(t));
  }
  Table t(std::move(cols));
  std::set<std::string> commits;
  for (const RunRecord& r : records) {
    std::vector<TableCell> cells = {TableCell::str(machine_identity(r).label)};
    for (const Column& c : columns()) {
      TableCell cell = TableCell::str(c.raw(r));
      if (c.pretty) cell.text = c.pretty(r);
      cells.push_back(std::move(cell));
    }
    t.add_row(std::move(cells));
    if (!r.build.llama_cpp_commit.empty()) commits.insert(r.build.llama_cpp_commit);
  }
  if (!commits.empty()) t.add_note("llama.cpp build: " + join(std::vector<std::string>(commits.begin(), commits.end()), ", "));
  return t;
}

void print_records(const std::vector<RunRecord>& records, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::kMarkdown || format == OutputFormat::kCsv) {
    render(records_table(records), format, out);
    return;
  }
  auto printer = make_printer(format, out);
  printer->begin();
  for (const RunRecord& rec : records) printer->add(rec);
  printer->end();
}

}  // namespace rigbench::report
