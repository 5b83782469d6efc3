// Test support: what a report printer (report/printer.h) writes for a list of records.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/printer.h"

namespace rigbench::testing {

// The printer of `format` over `records`: begin, each record in order, end.
inline std::string printed(report::OutputFormat format, const std::vector<RunRecord>& records,
                           report::PrinterOptions options = {}) {
  std::ostringstream out;
  auto p = report::make_printer(format, out, std::move(options));
  p->begin();
  for (const RunRecord& r : records) p->add(r);
  p->end();
  return out.str();
}

}  // namespace rigbench::testing
