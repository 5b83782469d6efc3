// The HTML report's whole page for fixed records against a golden file
// (tests/data/golden/report.html; tests/support/golden.h, RIGBENCH_WRITE_GOLDEN=1 rewrites it):
// the real template and glue (data/report/), every section, table, title and note, and the
// data block the charts draw. A stray or missing column, row, chart series, note or section
// fails. Two parts are changed before comparing, both said in the golden file itself:
//   - the vendored charting library (Chart.js, installed by scripts/setup) is not rigbench's
//     and not pinned: the page is rendered with the marker kChartJsMarker in its place;
//   - the data block is one line in the page; it is compared parsed and indented one key per
//     line (nlohmann dump(1)), so a changed series shows as the line that changed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/html_assets.h"
#include "report/html_report.h"
#include "support/golden.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

constexpr const char* kChartJsMarker = "/* chart library: vendored Chart.js, not pinned by this golden file */";

// Two machines, two models (one synthetic), a later build on rig-a (a regression to test),
// energy and cost measured on rig-a (with a power trace) and stated on rig-b.
std::vector<RunRecord> fixed_records() {
  RunRecord a = testing::sample_record("a0000000000000000000000000000001");
  a.machine.hostname = "rig-a";
  a.model.name = "alpha";
  a.model.fingerprint = "xxh64:00000000000000aa";
  a.results.tg = make_throughput(128, {1'000'000'000, 1'010'000'000});  // ~128 t/s
  a.energy.method = "counter";
  a.energy.tg = PhaseEnergyInfo{1.0, 2.0, 2.0, 0.0156};
  a.energy.power_trace = {{0.5, 40.0}, {1.0, 80.0}, {1.5, 60.0}};
  a.energy.flags = {"coarse"};  // shown with its J/token, cost and power
  a.cost = CostInfo{};
  a.cost->currency = "EUR";
  a.cost->gross_per_mtok = 0.0013;

  RunRecord a_later = a;
  a_later.record_id = "a0000000000000000000000000000002";
  a_later.build.llama_cpp_commit = "bbbbbbbb22222222bbbbbbbb22222222bbbbbbbb";
  a_later.test_time = "2026-11-29T16:00:00Z";
  a_later.results.tg = make_throughput(128, {2'000'000'000, 2'020'000'000});  // ~64 t/s: slower
  a_later.energy = {};
  a_later.cost.reset();

  RunRecord b = testing::sample_record("b0000000000000000000000000000001");
  b.machine.hostname = "rig-b";
  b.model.name = "alpha";
  b.model.fingerprint = "xxh64:00000000000000aa";
  b.results.tg = make_throughput(128, {1'000'000'000, 1'000'000'000});  // 128 t/s
  b.energy.method = "stated";
  b.energy.tg = PhaseEnergyInfo{1.0, 2.0, 2.0, 0.0200};
  b.energy.power_trace = {{0.5, 50.0}, {1.0, 50.0}};
  b.cost = CostInfo{};
  b.cost->currency = "EUR";
  b.cost->gross_per_mtok = 0.0020;

  RunRecord s = testing::sample_record("c0000000000000000000000000000001");
  s.machine.hostname = "rig-b";
  s.model.name = "Llama-3.2-1B";
  s.model.fingerprint = "xxh64:00000000000000bb";
  s.model.synthetic = true;
  s.model.synthetic_values = 2;
  s.model.synthetic_seed = 42;
  s.results.tg = make_throughput(128, {8'000'000'000, 8'000'000'000});  // 16 t/s
  return {a, a_later, b, s};
}

// `html` with its data block indented.
std::string with_data_indented(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"rigbench-data\">";
  const std::size_t start = html.find(open);
  EXPECT_NE(start, std::string::npos) << "no data block";
  if (start == std::string::npos) return html;
  const std::size_t from = start + open.size();
  const std::size_t end = html.find("</script>", from);
  const auto data = nlohmann::json::parse(html.substr(from, end - from));
  return html.substr(0, from) + "\n" + data.dump(1) + "\n" + html.substr(end);
}

TEST(HtmlReport, WholePageMatchesGoldenFile) {
  auto assets = load_report_assets();
  ASSERT_TRUE(assets) << assets.error().message;
  assets->chart_js = kChartJsMarker;  // the page does not depend on which Chart.js build is installed
  HtmlReportOptions options;
  options.title = "rigbench golden report";
  options.generated_at = "2026-11-30T12:00:00Z";
  auto html = render_html_report(fixed_records(), *assets, options);
  ASSERT_TRUE(html) << html.error().message;
  EXPECT_EQ(rigbench::testing::matches_golden(with_data_indented(*html), "report.html"), "");
}

}  // namespace
}  // namespace rigbench::report
