// rigbench: every tabular metric of a RunRecord, declared once. The markdown table and CSV
// read this one table, so a new column is one entry here.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::report {

// Whether the markdown table shows a column (CSV has every column).
enum class InTable {
  kAlways,
  kIfAsked,  // a knob: shown when the run varies it or sets it off its default
  kNever,
};

struct Column {
  std::string key;     // snake_case with unit suffix; the CSV header
  std::string header;  // markdown header
  InTable in_table;
  // The value as CSV writes it: plain numbers (shortest form that reads back exactly), ""
  // when absent.
  std::function<std::string(const RunRecord&)> raw;
  // The value as the markdown table shows it; empty function = raw.
  std::function<std::string(const RunRecord&)> pretty;
};

const std::vector<Column>& columns();

}  // namespace rigbench::report
