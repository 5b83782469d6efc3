// rigbench: `rigbench report -o FILE.html`, the self-contained HTML report with charts
// (report/html_report.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/significance.h"

namespace rigbench::cli {

struct ReportOptions {
  std::vector<std::string> db_paths;       // --db (repeatable): databases read ("" = the default database)
  std::string output = "rigbench-report.html";  // -o: the HTML file written (replaced whole)
  std::string title = "rigbench report";   // --title: the page's title
  double alpha = kDefaultAlpha;    // --alpha: significance level of the regressions
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_report_command(CLI::App& app, ReportOptions& opts);

// Loads the records and the report's files (report/html_assets.h), renders the report and
// writes it beside the target, renamed at the end (an error leaves no partial file); prints
// the path. Errors: store::load_records's; load_report_assets's; kRuntime when the file
// cannot be written.
Status run_report_command(const ReportOptions& opts);

}  // namespace rigbench::cli
