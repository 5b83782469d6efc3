#include "cli/report_command.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "bench/job.h"
#include "report/html_assets.h"
#include "report/html_report.h"
#include "store/record_sources.h"

namespace rigbench::cli {

namespace {

// Writes `text` to `path` through a temporary file beside it, renamed at the end.
Status write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".partial-" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return fail(ErrorCode::kRuntime, "report '" + path + "': cannot write");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return fail(ErrorCode::kRuntime, "report '" + path + "': cannot write: " + ec.message());
  }
  return {};
}

}  // namespace

CLI::App* add_report_command(CLI::App& app, ReportOptions& o) {
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report with charts of the stored results");
  cmd->add_option("-o,--output", o.output, "HTML file to write")->capture_default_str();
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  cmd->add_option("--title", o.title, "title of the page")->capture_default_str();
  cmd->add_option("--alpha", o.alpha, "significance level of the regression test (Welch's t-test, one-sided)")
      ->check(CLI::Range(1e-9, 0.5))->capture_default_str();
  return cmd;
}

Status run_report_command(const ReportOptions& o) {
  auto records = store::load_records(o.db_paths);
  if (!records) return std::unexpected(records.error());
  auto assets = report::load_report_assets();
  if (!assets) return std::unexpected(assets.error());
  report::HtmlReportOptions options;
  options.title = o.title;
  options.generated_at = bench::utc_now_iso8601();
  options.alpha = o.alpha;
  auto html = report::render_html_report(*records, *assets, options);
  if (!html) return std::unexpected(html.error());
  if (Status s = write_whole(o.output, *html); !s) return s;
  std::printf("%s\n", o.output.c_str());
  return {};
}

}  // namespace rigbench::cli
