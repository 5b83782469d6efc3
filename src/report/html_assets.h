// rigbench: the files the HTML report inlines, read at run time.
//   template and glue   $RIGBENCH_DATA_DIR/report/{template.html,report.js}, else the
//                       source tree's data/report (the path CMake compiles in)
//   charting library    $RIGBENCH_CHART_JS, else Chart.js's UMD build where scripts/setup
//                       installs it with npm (third_party/npm/node_modules/chart.js/dist/
//                       chart.umd.min.js, the path CMake compiles in)
#pragma once

#include <string>

#include "core/status.h"
#include "report/html_report.h"

namespace rigbench::report {

// The path of the charting library file (see above).
std::string chart_js_path();

// Reads the three files. Errors: kRuntime naming the missing or unreadable file (and, for
// the charting library, that scripts/setup installs it).
Result<ReportAssets> load_report_assets();

}  // namespace rigbench::report
