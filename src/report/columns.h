// rigbench: every tabular metric of a RunRecord, declared once. The markdown table and CSV
// read this one table (and print through report/table.h's builder), so a new column is one
// entry here.
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

// What a column's raw value is, for formats that type their fields (SQL): text, a whole
// number, a real number, or a boolean ("true"/"false").
enum class ValueType { kText, kInteger, kReal, kBool };

struct Column {
  std::string key;     // snake_case with unit suffix; the CSV header and the SQL column name
  std::string header;  // markdown header
  InTable in_table;
  ValueType type;
  // The value as CSV writes it: plain numbers (shortest form that reads back exactly), ""
  // when absent.
  std::function<std::string(const RunRecord&)> raw;
  // The value as the markdown table shows it; empty function = raw.
  std::function<std::string(const RunRecord&)> pretty;
};

const std::vector<Column>& columns();

// The tests a record holds, as the markdown table shows them, one row each (llama-bench's
// rows): pp (with TTFT) and tg.
enum class Phase { kPp, kTg };

// The phases a record has rows for: those measured, or, for a refused or failed run, those
// it was to measure.
std::vector<Phase> row_phases(const RunRecord& rec);

// A column of the markdown table, whose rows are (record, phase).
struct TestColumn {
  std::string key;     // the CSV column it stands for, or the shown_knobs key that asks for it
  std::string header;  // with its unit
  InTable in_table;
  bool wide_only = false;  // shown only in the wide view (--wide)
  std::function<std::string(const RunRecord&, Phase)> cell;
  // md: left-aligned (a name or a text value: model, backend, a text knob such as type_k);
  // every figure and the test right-aligned, as llama-bench aligns its table.
  bool left = false;
};

const std::vector<TestColumn>& test_columns();

}  // namespace rigbench::report
