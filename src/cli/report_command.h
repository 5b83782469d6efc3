// rigbench: `rigbench report [--output-file FILE.html]`, the self-contained HTML report with charts
// (report/html_report.h).
#pragma once

#include <CLI/CLI.hpp>
#include <limits>
#include <string>
#include <vector>

#include "core/significance.h"
#include "core/status.h"
#include "store/record_sources.h"

namespace rigbench::cli {

struct ReportOptions {
  std::vector<std::string> db_paths;  // --db (repeatable): databases read ("" = the default database)
  std::string output_file =
      "rigbench-report.html";             // --output-file: the HTML file written (replaced whole); "-" = stdout
  std::string output = "html";            // -o: the format (html, the only one)
  store::RecordFilter filter;             // --model, --machine, --tag
  std::string title = "rigbench report";  // --title: the page's title
  double alpha = kDefaultAlpha;           // --alpha: significance level of the regressions
  int ctx_size = 0;  // -c: the context of the what-to-buy answers (0 = each model's largest stored one)
  double price = std::numeric_limits<double>::quiet_NaN();        // --price: per kWh, for the cost answers
  std::string currency = "EUR";                                   // --currency of --price
  double utilization = std::numeric_limits<double>::quiet_NaN();  // --utilization of the cost answers
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_report_command(CLI::App& app, ReportOptions& opts);

// Checks that --output-file can be written (store/writable.h), loads the selected records and
// the report's files (report/html_assets.h), plans the what-to-buy answers (the catalog ranked
// by price, as `fit -c N --rank price`, for each stored model whose file is on this machine with
// the fingerprint that ran), renders the report and writes it beside the
// target, renamed at the end (an error leaves no partial file), and prints the path; with
// "-", writes the page to stdout. Errors: store::load_records's; load_report_assets's;
// kRuntime naming --output-file and why it cannot be written.
Status run_report_command(const ReportOptions& opts);

}  // namespace rigbench::cli
