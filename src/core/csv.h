// rigbench: one CSV reader (RFC 4180) for every CSV file rigbench reads: llama-bench's csv
// output (store/llama_bench_rows.h) and a wall meter's power log (power/power_log.h). No I/O.
//
// Fields are separated by commas and may be quoted; "" is a quote inside quotes; a quoted
// field may hold commas and line breaks. Records end at LF or CRLF; blank lines are skipped.
// Unquoted fields are kept as they are (spaces included). Why not a library: Debian's
// header-only C++ CSV parsers (libfccp-dev, a 2016 snapshot of fast-cpp-csv-parser) fix the
// number of columns at compile time and read line by line (no line break inside quotes), and
// llama-bench's columns vary by version; libcsv-dev is a C library of callbacks for the same
// forty lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rigbench {

struct CsvRecord {
  std::vector<std::string> fields;  // unquoted values, in order
  int line = 0;                     // 1-based line the record starts on
};

struct CsvOptions {
  // When set, a line whose first non-blank character (space or tab) is this one, outside a
  // quoted field, is a comment and skipped (e.g. '#').
  char comment = 0;
};

// Every record of `text`. Errors: kInvalidInput "line N: unterminated quote" (N where the
// record with the open quote starts).
Result<std::vector<CsvRecord>> parse_csv(std::string_view text, CsvOptions options = {});

}  // namespace rigbench
