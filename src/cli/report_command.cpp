#include "cli/report_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/args.h"
#include "measure/job.h"
#include "report/html_assets.h"
#include "report/html_report.h"
#include "store/record_sources.h"
#include "store/writable.h"

namespace rigbench::cli {

namespace {

constexpr const char* kOutputFileHint = "name the HTML file to write, or - for standard output";

// Writes `text` to `path` through a temporary file beside it, renamed at the end; errors
// name --output-file and errno's reason.
Status write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".partial-" + std::to_string(getpid());
  auto failed = [&](int err) -> Status {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    const std::string reason = store::unwritable_reason(path);
    return fail(ErrorCode::kRuntime, "--output-file '" + path + "': " + (reason.empty() ? errno_text(err) : reason) +
                                         "; " + kOutputFileHint);
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return failed(errno);
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t w = ::write(fd, text.data() + at, text.size() - at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int err = w < 0 ? errno : EIO;
      ::close(fd);
      return failed(err);
    }
    at += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0) return failed(errno);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return failed(ec.value());
  return {};
}

}  // namespace

CLI::App* add_report_command(CLI::App& app, ReportOptions& o) {
  CLI::App* cmd = app.add_subcommand("report", "Write a self-contained HTML report with charts of the stored results");
  cmd->add_option("--output-file", o.output_file, "the HTML file to write; - for standard output")
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "format: html (the only one)")
      ->check(output_format({"html"}))
      ->capture_default_str();
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("--title", o.title, "title of the page")->capture_default_str();
  cmd->add_option("--alpha", o.alpha, "significance level of the regression test (Welch's t-test, one-sided)")
      ->check(CLI::Range(1e-9, 0.5))
      ->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  rigbench report                                   # rigbench-report.html from the default database\n"
      "  rigbench report --db a.db --db b.db --model llama --output-file llama.html\n"
      "  rigbench report --output-file - > report.html\n"
      "Exit codes: 0 written; 1 no database, no matching record, or the file cannot be written; 2 a bad flag or "
      "value.\n");
  return cmd;
}

Status run_report_command(const ReportOptions& o) {
  const bool to_stdout = o.output_file == "-";
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
  auto html = report::render_html_report(*records, *assets, options);
  if (!html) return std::unexpected(html.error());
  if (to_stdout) {
    std::cout << *html << std::flush;
    if (!std::cout) return fail(ErrorCode::kRuntime, "--output-file -: cannot write to standard output");
    return {};
  }
  if (Status s = write_whole(o.output_file, *html); !s) return s;
  std::printf("%s\n", o.output_file.c_str());
  return {};
}

}  // namespace rigbench::cli
