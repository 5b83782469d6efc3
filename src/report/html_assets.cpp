#include "report/html_assets.h"

#include <cstdlib>

#include "core/data_dir.h"
#include "hw/file_text.h"

namespace rigbench::report {

namespace {

Result<std::string> read(const std::string& path, const char* what, const char* remedy) {
  std::optional<std::string> text = hw::read_file_text(path);
  if (!text) return fail(ErrorCode::kRuntime, std::string("report: ") + what + " '" + path + "': cannot read" + remedy);
  return std::move(*text);
}

}  // namespace

std::string chart_js_path() {
  const char* env = std::getenv("RIGBENCH_CHART_JS");
  return env && *env ? env : RIGBENCH_CHART_JS;
}

Result<ReportAssets> load_report_assets() {
  ReportAssets a;
  auto page = read(data_file_path("report/template.html"), "template", "");
  if (!page) return std::unexpected(page.error());
  auto glue = read(data_file_path("report/report.js"), "chart glue", "");
  if (!glue) return std::unexpected(glue.error());
  auto chart = read(chart_js_path(), "charting library",
                    " (scripts/setup installs Chart.js with npm; RIGBENCH_CHART_JS names another copy)");
  if (!chart) return std::unexpected(chart.error());
  a.page_template = std::move(*page);
  a.glue_js = std::move(*glue);
  a.chart_js = std::move(*chart);
  return a;
}

}  // namespace rigbench::report
