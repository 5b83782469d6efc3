#include "cli/report_command.h"

#include <cmath>
#include <iostream>
#include <optional>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cost/estimate.h"
#include "fit/catalog_plan.h"
#include "measure/job.h"
#include "report/buy_answers.h"
#include "report/html_assets.h"
#include "report/html_report.h"
#include "report/table.h"
#include "store/record_sources.h"
#include "store/writable.h"

namespace rigbench::cli {

namespace {

constexpr const char* kOutputFileHint = "name the HTML file to write, or - for standard output";

}  // namespace

CLI::App* add_report_command(CLI::App& app, ReportOptions& o) {
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report with charts of the stored results");
  cmd->add_option("--output-file", o.output_file, "the HTML file to write; - for standard output")
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "format: html (the only one: the page is a file, see --output-file)")
      ->capture_default_str();
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("--title", o.title, "title of the page")->capture_default_str();
  cmd->add_option("--alpha", o.alpha, "significance level of Welch's t-test: the winners and answers (two-sided), the regressions (one-sided)")
      ->check(range(1e-9, 0.5))
      ->capture_default_str();
  cmd->add_option("-c,--ctx-size", o.ctx_size,
                  "context of the what-to-buy answers (default: each model's n_ctx_train, as fit and llama-server)")
      ->check(int_range(1, 1 << 24));
  cmd->add_option("--price", o.price,
                  "electricity price per kWh of the cost-per-model answers (default: the price each machine's "
                  "latest priced run was stored with)")
      ->check(range(0.0, 1e6));
  cmd->add_option("--currency", o.currency, "currency of --price")->capture_default_str();
  cmd->add_option("--utilization", o.utilization,
                  "share of the time the machine generates, (0, 1]: the cost answers include the idle hours")
      ->check(range(1e-9, 1.0));
  cmd->footer(R"(Examples:
  rigbench report                                   # rigbench-report.html from the default database
  rigbench report --db a.db --db b.db --model llama --output-file llama.html
  rigbench report --output-file - > report.html
  rigbench report -c 8192 --price 0.30 --utilization 0.25   # what to buy at 8192; cost per model
Exit codes: 0 written; 1 no database, no matching record, or the file cannot be written; 2 a bad flag or value.
)");
  return cmd;
}

Status run_report_command(const ReportOptions& o) {
  // -o is checked as every subcommand checks it; html is the report's one format.
  if (const std::string bad = report::output_format_message(o.output, {"html"}, report::FileAdvice::kOutputFileFlag);
      !bad.empty())
    return fail(ErrorCode::kUsage, bad);
  const bool to_stdout = o.output_file == "-";
  std::optional<cost::CostInputs> price_answers;  // --price: the cost answers' price (else the stored ones)
  if (!std::isnan(o.price)) {
    if (Status s = check_currency(o.currency); !s) return s;
    cost::CostInputs price;
    price.price_per_kwh = o.price;
    price.currency = o.currency;
    price.utilization = o.utilization;
    price.price_source = "--price";
    price_answers = price;
  } else if (!std::isnan(o.utilization)) {
    return fail(ErrorCode::kUsage, "--utilization: give the price it applies to with --price");
  }
  // A path that cannot be written fails before anything is read or rendered.
  if (!to_stdout) {
    if (Status s = store::check_writable("--output-file", o.output_file, kOutputFileHint); !s) return s;
  }
  auto records = store::load_records(o.db_paths, o.filter, store::RecordView::kReport, store::Pooling::kRepetitions);
  if (!records) return std::unexpected(records.error());
  auto assets = report::load_report_assets();
  if (!assets) return std::unexpected(assets.error());
  report::HtmlReportOptions options;
  options.title = o.title;
  options.generated_at = measure::utc_now_iso8601();
  options.alpha = o.alpha;
  options.answers.buy =
      report::buy_answers(*records, o.ctx_size, [] { return fit::catalog_plan(0, 0, machine_info()); });
  options.answers.price = price_answers;
  auto html = report::render_html_report(*records, *assets, options);
  if (!html) return std::unexpected(html.error());
  if (to_stdout) {
    std::cout << *html << std::flush;
    if (!std::cout) return fail(ErrorCode::kRuntime, "--output-file -: cannot write to standard output");
    return {};
  }
  if (Status s = store::write_whole("--output-file", o.output_file, *html, kOutputFileHint); !s) return s;
  std::printf("%s\n", o.output_file.c_str());
  return {};
}

}  // namespace rigbench::cli
