// rigbench: printers of records, one per output format. Each gets finished records and an
// injected stream, writes each record as it comes (flushing), and leaves well-formed output
// when end() is called after any number of records (an interrupted run included).
// Printers never touch hardware or the store.
#pragma once

#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "report/table.h"

namespace rigbench::report {

// OutputFormat and parse_output_format: report/table.h (one format type for every output).

// The formats records print in (bench, export): md, csv, json, jsonl and sql.
inline const std::vector<OutputFormat>& record_formats() {
  static const std::vector<OutputFormat> kFormats = {OutputFormat::kMarkdown, OutputFormat::kCsv, OutputFormat::kJson,
                                                     OutputFormat::kJsonl, OutputFormat::kSql};
  return kFormats;
}

// The table that `-o sql` creates and fills (llama-bench's is llama_bench; the columns differ).
inline constexpr const char* kSqlTable = "rigbench";

class Printer {
 public:
  virtual ~Printer() = default;
  virtual void begin() = 0;
  virtual void add(const RunRecord& rec) = 0;
  virtual void end() = 0;
};

struct PrinterOptions {
  // Keys of InTable::kIfAsked columns the markdown table shows (e.g. "flash_attn").
  std::set<std::string> shown_knobs;
  // The markdown table's wide view: every column, also those kept to -o csv/json by
  // default (params, file, memory, tg against its bound).
  bool wide = false;
  // The markdown table's test column at least this wide: the longest test the run will print
  // ("pp512 @ d4096"), so that streamed rows after the first stay aligned; 0: the first row's.
  std::size_t test_width = 0;
};

// The printer for `format`, writing to `out` (which must outlive it). The markdown, CSV and
// SQL printers write their header (SQL: CREATE TABLE) with the first record, so a run that
// fails before any record prints nothing; JSON prints "[]".
std::unique_ptr<Printer> make_printer(OutputFormat format, std::ostream& out, PrinterOptions options = {});

}  // namespace rigbench::report
