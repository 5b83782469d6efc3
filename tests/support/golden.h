// Test support: golden files with placeholders (Google Benchmark's output_test_helper.cc
// pattern). The expected text is compared line by line with the actual output; every line
// must match whole, and the line counts must agree, so a stray column, row or line fails.
// In an expected line:
//   {{num}}   a number: -?digits[.digits][e±digits], or "<0.01"
//   {{int}}   an integer: -?digits
//   {{any}}   any text within the line (possibly empty)
//   a run of spaces matches one or more spaces (markdown columns pad to their widest cell)
// Everything else is literal. Golden files live in tests/data/golden/.
#pragma once

#include <string>

namespace rigbench::testing {

// "" when `actual` matches `expected`; otherwise what differs: the first line that does not
// match, both texts of it, and the line counts.
std::string golden_mismatch(const std::string& actual, const std::string& expected);

// `text` with each run of spaces made one: markdown rows read as "| a | b |" whatever the
// padding, for tests that look for one row.
std::string unpadded(const std::string& text);

// `text` with its paragraphs unwrapped (report::paragraph_lines wraps them at 120 columns): a
// line break followed by two spaces (a list item's continuation) or by a line that is not a
// table row, a list item, a note or empty is one space; other line breaks are kept. For tests
// that look for one sentence whatever the terminal width.
std::string unwrapped(const std::string& text);

// `text` with each md table row whole: a row a wrap column continued (report/table.h: a line
// whose first cell is empty) is joined to the row above it, cell by cell, each continued cell
// joined with one space ("| 12.3 ± 0.4 |" + "| (±2.0 %) ×1.10 |" -> "| 12.3 ± 0.4 (±2.0 %) ×1.10 |").
// With unpadded, for tests that look for one row whatever the terminal width.
std::string unwrapped_rows(const std::string& text);

// The golden file tests/data/golden/<name> ("" when missing).
std::string golden(const std::string& name);

// golden_mismatch(actual, golden(name)). With RIGBENCH_WRITE_GOLDEN=1 in the environment it
// writes `actual` as the golden file instead (to start one; placeholders are then put in by
// hand) and returns "".
std::string matches_golden(const std::string& actual, const std::string& name);

}  // namespace rigbench::testing
