// The HTML report's text: escaping (model names are untrusted), the data block, sections
// only where figures exist, the template's placeholders, the inlined files. Its behaviour
// in a browser is tested by tests/e2e/report_browser_e2e_test.cpp in headless Chromium.
#include "report/html_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/results.h"
#include "report/escape.h"
#include "report/html_assets.h"
#include "report/memory_usage.h"
#include "support/sample_record.h"

namespace rigbench::report {
namespace {

const ReportAssets kAssets{
    "<title>{{title}}</title><h1>{{title}}</h1><p>{{generated}}</p>{{body}}"
    "<script type=\"application/json\" id=\"rigbench-data\">{{data}}</script><script>{{chart_js}}</script>"
    "<script>{{glue_js}}</script>",
    "/* glue */", "/* chart library */"};

std::vector<RunRecord> records_with_name(const std::string& name) {
  RunRecord a = testing::sample_record("a");
  a.model.name = name;
  a.model.fingerprint = "xxh64:00000000000000aa";  // another file: another model
  a.machine.hostname = "<b>host</b>";
  RunRecord b = testing::sample_record("b");
  b.machine.hostname = "rig-b";
  return {a, b};
}

// The report as its cells read: the markup that lets a cell break between its pieces taken
// out (<span>, </span>, <wbr>, the pieces class; html_parts.h), so that a test finds a cell's
// text whole ("96.00 ± 45.25 (±423.5 %, low 0)").
Result<std::string> render_shown(std::span<const RunRecord> records, const ReportAssets& assets,
                                 const HtmlReportOptions& options) {
  auto html = render_html_report(records, assets, options);
  if (!html) return html;
  std::string s = std::move(*html);
  auto replace_all = [&s](const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  };
  for (const char* markup : {"<span>", "</span>", "<wbr>", " class=\"pieces\""}) replace_all(markup, "");
  replace_all("class=\"num pieces\"", "class=\"num\"");
  return s;
}

// Where a table would be wider than the page, a figure breaks between its pieces (each a
// nowrap span), a name after its hyphens and at its spaces (<wbr>, spaces), a header after its
// hyphens; a cell of one piece stays plain.
TEST(HtmlReport, CellsBreakBetweenTheirPiecesOnly) {
  auto html = render_html_report(records_with_name("m"), kAssets, {});
  ASSERT_TRUE(html) << html.error().message;
  EXPECT_NE(html->find("<td class=\"num pieces\"><span>96.00 ± 45.25</span> <span>(±423.5 %, low 0)</span></td>"),
            std::string::npos)
      << *html;
  EXPECT_NE(html->find("<th>rig-<wbr>b</th>"), std::string::npos);
  EXPECT_NE(html->find("<td class=\"pieces\"><span>rig-</span><wbr><span>b</span></td>"), std::string::npos);
  EXPECT_NE(html->find("<td class=\"pieces\"><span>single</span> <span>result</span></td>"), std::string::npos);
  EXPECT_NE(html->find("<td>tg128 (pg)</td>"), std::string::npos);  // a test stays whole
}

std::string data_block(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"rigbench-data\">";
  const std::size_t start = html.find(open) + open.size();
  return html.substr(start, html.find("</script>", start) - start);
}

TEST(Escape, Html) {
  EXPECT_EQ(html_escape("<a href=\"x\">Tom & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(json_for_script(R"({"n":"</script><!--&"})"), R"({"n":"\u003c/script\u003e\u003c!--\u0026"})");
  EXPECT_EQ(md_escape("a|b\nc"), "a\\|b c");
  EXPECT_EQ(csv_escape("a,\"b\""), "\"a,\"\"b\"\"\"");
  EXPECT_EQ(csv_escape("plain"), "plain");
}

TEST(HtmlReport, ModelNamesStayText) {
  const std::string evil = "<script>alert(1)</script>";
  auto html = render_shown(records_with_name(evil), kAssets, {});
  ASSERT_TRUE(html) << html.error().message;
  EXPECT_EQ(html->find(evil), std::string::npos);
  EXPECT_EQ(html->find("<b>host</b>"), std::string::npos);
  EXPECT_NE(html->find("&lt;script&gt;alert(1)&lt;/script&gt; F32"), std::string::npos);
  EXPECT_NE(html->find("&lt;b&gt;host&lt;/b&gt;"), std::string::npos);
  // The data block still parses to the name itself.
  const auto data = nlohmann::json::parse(data_block(*html));
  bool found = false;
  for (const auto& chart : data["charts"]) {
    for (const auto& label : chart["labels"]) found = found || label.get<std::string>().starts_with(evil + " F32");
  }
  EXPECT_TRUE(found);
}

TEST(HtmlReport, TitleIsEscapedAndEverySectionWithFiguresIsThere) {
  HtmlReportOptions options;
  options.title = "Rigs & <friends>";
  options.generated_at = "2026-11-29T14:08:04Z";
  auto html = render_html_report(records_with_name("m"), kAssets, options);
  ASSERT_TRUE(html) << html.error().message;
  EXPECT_NE(html->find("<title>Rigs &amp; &lt;friends&gt;</title>"), std::string::npos);
  EXPECT_NE(html->find("<p>2 records, 2 machines, 2 models; generated 2026-11-29T14:08:04Z</p>"), std::string::npos);
  for (const char* id : {"machines", "tg", "pp", "ttft", "memory", "regressions"}) {
    EXPECT_NE(html->find(std::string("<section id=\"") + id + "\">"), std::string::npos) << id;
  }
  const auto data = nlohmann::json::parse(data_block(*html));
  ASSERT_EQ(data["charts"].size(), 4u);
  EXPECT_EQ(data["charts"][0]["id"], "chart-tg");
  EXPECT_EQ(data["charts"][0]["datasets"].size(), 2u);  // one per machine
  EXPECT_EQ(data["charts"][3]["id"], "chart-memory");
  EXPECT_EQ(data["charts"][3]["y_max"], 100);
  for (const auto& chart : data["charts"]) {
    EXPECT_NE(html->find("<canvas id=\"" + chart["id"].get<std::string>() + "\""), std::string::npos);
  }
  EXPECT_NE(html->find("/* chart library */"), std::string::npos);
  EXPECT_NE(html->find("/* glue */"), std::string::npos);
}

TEST(HtmlReport, ASplitRunsTopologyIsShownEachDeviceWithItsEndpointMemoryAndLayers) {
  auto recs = records_with_name("m");
  // A local run: no topology section.
  auto plain = render_html_report(recs, kAssets, {});
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->find("<section id=\"topology\">"), std::string::npos);
  // A split run (bench --rpc -ts 1/1 over two servers), as the record keeps it.
  recs[1].params.rpc = "10.0.0.7:50052,10.0.0.8:50052";
  TopologyDevice a;
  a.endpoint = "10.0.0.7:50052";
  a.device = "RPC0";
  a.memory_total_bytes = 16ull << 30;
  a.memory_free_bytes = 15ull << 30;
  a.n_layers = 3;
  a.rtt_ms = 0.25;
  TopologyDevice b = a;
  b.endpoint = "10.0.0.8:50052";
  b.device = "RPC1";
  b.n_layers = 2;
  b.output_layer = true;
  recs[1].topology = {a, b};
  auto html = render_html_report(recs, kAssets, {});
  ASSERT_TRUE(html) << html.error().message;
  const std::size_t at = html->find("<section id=\"topology\">");
  ASSERT_NE(at, std::string::npos);
  const std::string section = html->substr(at, html->find("</section>", at) - at);
  EXPECT_NE(section.find("10.0.0.7:50052"), std::string::npos) << section;
  EXPECT_NE(section.find("RPC1"), std::string::npos) << section;
  EXPECT_NE(section.find("15.00 GiB free of 16.00 GiB"), std::string::npos) << section;
  EXPECT_NE(section.find(">2 + output<"), std::string::npos) << section;
  EXPECT_NE(section.find(">0.250<"), std::string::npos) << section;
  EXPECT_NE(section.find("rig-b"), std::string::npos) << section;  // the split run's machine
}

TEST(HtmlReport, SectionsOnlyWhereFiguresExist) {
  RunRecord r = testing::sample_record("only-tg");
  r.results.pp.reset();
  r.results.ttft.reset();
  r.memory.buffers.clear();
  auto html = render_html_report(std::vector<RunRecord>{r}, kAssets, {});
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("<section id=\"tg\">"), std::string::npos);
  for (const char* id : {"pp", "ttft", "memory"}) {
    EXPECT_EQ(html->find(std::string("<section id=\"") + id + "\">"), std::string::npos) << id;
  }
  EXPECT_EQ(nlohmann::json::parse(data_block(*html))["charts"].size(), 1u);
}

// The figures carry their 95 % interval, and the noise notes of the runs behind a cell are
// listed under the section's table where the figure is (tg's under tg, not under pp).
TEST(HtmlReport, CellsShowTheirIntervalAndNoiseNotesWhereTheFigureIs) {
  auto records = records_with_name("m");
  records[0].noise = {{"high_cv", "tg", "CV 9 % <high>", "quiet the machine"}};
  auto html = render_shown(records, kAssets, {});
  ASSERT_TRUE(html);
  // sample_record's tg (64 and 128 t/s): ±423.5 %, whose low bound is cut at 0 t/s
  EXPECT_NE(html->find("96.00 ± 45.25 (±423.5 %, low 0)"), std::string::npos) << *html;
  EXPECT_NE(html->find("[noise: high_cv]"), std::string::npos);
  const std::size_t tg = html->find("<section id=\"tg\">");
  const std::size_t pp = html->find("<section id=\"pp\">");
  const std::size_t note = html->find(": tg: CV 9 % &lt;high&gt;; quiet the machine</li>");
  ASSERT_NE(note, std::string::npos) << *html;
  EXPECT_EQ(html->find("tg: tg:"), std::string::npos) << "the phase once";
  EXPECT_GT(note, tg);
  EXPECT_LT(note, html->find("</section>", tg));
  ASSERT_GT(pp, tg);  // pp's section follows tg's
  EXPECT_EQ(html->find("CV 9 %", pp), std::string::npos) << "the tg note is not under pp's table";
}

// Each machine at its best, as compare: a row whose machines' best configurations ran
// different knobs says so by its winner, and the section's note says what it means; a section
// whose rows ran the same knobs says nothing of it.
TEST(HtmlReport, RowsWhoseBestConfigurationsRanDifferentKnobsSaySo) {
  RunRecord a = testing::sample_record("a");
  a.machine.hostname = "rig-a";
  RunRecord b = testing::sample_record("b");
  b.machine.hostname = "rig-b";
  b.params.n_cpu_moe = 30;
  auto html = render_html_report(std::vector<RunRecord>{a, b}, kAssets, {});
  ASSERT_TRUE(html) << html.error().message;
  EXPECT_NE(html->find(" (knobs differ)</td>"), std::string::npos) << *html;
  EXPECT_NE(html->find("(knobs differ): the cells show each machine at its best configuration"), std::string::npos);
  b.params.n_cpu_moe = 0;
  auto same = render_html_report(std::vector<RunRecord>{a, b}, kAssets, {});
  ASSERT_TRUE(same);
  EXPECT_EQ(same->find("knobs differ"), std::string::npos);
}

// A cell that shows the best of several configurations says so and which, as compare says
// "(best of N)" (the report said neither: a -t 4 figure read as the default run's).
TEST(HtmlReport, ACellShowingTheBestOfSeveralConfigurationsSaysSoAndWhichOne) {
  RunRecord a = testing::sample_record("a");
  a.machine.hostname = "rig-a";
  RunRecord a4 = a;
  a4.record_id = "a4";
  a4.params.n_threads = a.params.n_threads + 2;
  auto html = render_shown(std::vector<RunRecord>{a, a4}, kAssets, {});
  ASSERT_TRUE(html) << html.error().message;
  const auto at = html->find(" (best of 2: ");
  ASSERT_NE(at, std::string::npos) << *html;
  EXPECT_NE(html->substr(at, html->find(')', at) - at).find(" threads="), std::string::npos);  // which one
  EXPECT_NE(html->find("(best of N): N configurations (knob combinations) ran there"), std::string::npos);
  auto one = render_shown(std::vector<RunRecord>{a}, kAssets, {});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->find("best of"), std::string::npos);
}

TEST(HtmlReport, EnergyAndCostOnlyWhereMeasured) {
  auto records = records_with_name("m");
  auto plain = render_shown(records, kAssets, {});
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("<section id=\"energy\">"), std::string::npos);
  EXPECT_NE(plain->find("Not shown: energy, cost, power, where no stored run measured it."), std::string::npos);
  records[0].energy.method = "counter";
  records[0].energy.tg = PhaseEnergyInfo{1.0, 2.0, 2.0, 0.0156};
  records[0].cost = CostInfo{};
  records[0].cost->currency = "EUR";
  records[0].cost->gross_per_mtok = 0.0013;
  auto html = render_shown(records, kAssets, {});
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("<section id=\"energy\">"), std::string::npos);
  EXPECT_NE(html->find("<section id=\"cost\">"), std::string::npos);
  EXPECT_NE(html->find("<td class=\"num\">0.0156</td>"), std::string::npos);
  EXPECT_NE(html->find("Not shown: power, where no stored run measured it."), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(data_block(*html))["charts"].size(), 6u);
  // With the sampler's readings, power over time is drawn too (a line per run).
  records[0].energy.power_trace = {{0.5, 40.0}, {1.0, 80.0}};
  html = render_shown(records, kAssets, {});
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("<section id=\"power\">"), std::string::npos);
  EXPECT_EQ(html->find("Not shown"), std::string::npos);
  const auto charts = nlohmann::json::parse(data_block(*html))["charts"];
  ASSERT_EQ(charts.size(), 7u);
  EXPECT_EQ(charts[6]["type"], "line");
  EXPECT_EQ(charts[6]["datasets"][0]["data"][1]["y"], 80.0);
  EXPECT_NE(html->find("<td class=\"num\">60.0</td>"), std::string::npos);  // average W
}

// Issue 10 item 13: a 1B model's bars beside a 260K model's 7000 t/s stay visible (log axis).
TEST(HtmlReport, WideSpreadOfBarsUsesALogAxisAndSaysSo) {
  auto records = records_with_name("tiny");
  RunRecord big = testing::sample_record("c");
  big.model.name = "big";
  big.results.tg = make_throughput(128, {128'000'000'000});  // 1 t/s beside tiny's 64 and 128
  records.push_back(big);
  auto html = render_shown(records, kAssets, {});
  ASSERT_TRUE(html);
  const auto charts = nlohmann::json::parse(data_block(*html))["charts"];
  EXPECT_EQ(charts[0]["id"], "chart-tg");
  EXPECT_EQ(charts[0]["scale"], "log");
  EXPECT_EQ(charts[0]["y_title"], "tokens/s (log scale)");
  EXPECT_DOUBLE_EQ(charts[0]["y_min"].get<double>(), 0.1);  // a power of ten at least 3 times below 1 t/s
  EXPECT_NE(html->find("Log axis (the largest bar is 96 times the smallest): equal heights are equal ratios"),
            std::string::npos);
  EXPECT_EQ(charts[1]["id"], "chart-pp");
  EXPECT_EQ(charts[1]["scale"], "linear");  // 768 t/s each: nothing to spread
}

TEST(HtmlReport, CostAxisNamesTheCurrency) {
  auto records = records_with_name("m");
  for (RunRecord& r : records) {
    r.energy.method = "counter";
    r.energy.tg = PhaseEnergyInfo{1.0, 2.0, 2.0, 0.0156};
    r.cost = CostInfo{};
    r.cost->currency = "EUR";
    r.cost->gross_per_mtok = 0.0013;
  }
  auto html = render_html_report(records, kAssets, {});
  ASSERT_TRUE(html);
  bool seen = false;
  const auto data = nlohmann::json::parse(data_block(*html));
  for (const auto& chart : data["charts"]) {
    if (chart["id"] != "chart-cost") continue;
    seen = true;
    EXPECT_EQ(chart["y_title"], "EUR per Mtok");
    EXPECT_EQ(chart["unit"], "EUR per Mtok");
  }
  EXPECT_TRUE(seen);
}

TEST(HtmlReport, StatedPowerIsDashedAndLabelledStated) {
  auto records = records_with_name("m");
  records[0].energy.method = "integrated";
  records[0].energy.power_trace = {{0.5, 40.0}, {1.0, 80.0}};
  records[1].energy.method = "stated";
  records[1].energy.power_trace = {{0.5, 50.0}, {1.0, 50.0}};
  auto html = render_html_report(records, kAssets, {});
  ASSERT_TRUE(html);
  const auto charts = nlohmann::json::parse(data_block(*html))["charts"];
  const auto& power = charts.back();
  ASSERT_EQ(power["id"], "chart-power");
  EXPECT_FALSE(power["datasets"][0]["dashed"].get<bool>());
  EXPECT_TRUE(power["datasets"][1]["dashed"].get<bool>());
  EXPECT_TRUE(power["datasets"][1]["label"].get<std::string>().ends_with(" (stated)"));
  EXPECT_NE(html->find("Dashed lines are a power stated with --watts"), std::string::npos);
}

TEST(HtmlReport, SyntheticLabelIsExplainedInAFootnote) {
  auto plain = render_html_report(records_with_name("m"), kAssets, {});
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("synthetic-note"), std::string::npos);
  auto records = records_with_name("Llama-3.2-1B");
  records[0].model.synthetic = true;
  records[0].model.synthetic_values = 2;
  records[0].model.synthetic_seed = 42;
  auto html = render_html_report(records, kAssets, {});
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("<section id=\"synthetic-note\">"), std::string::npos);
  EXPECT_NE(html->find("A model labelled (synthetic v2, seed 42) is a synthetic file written by `rigbench synth`"),
            std::string::npos);
  EXPECT_NE(html->find("see the note at the end"), std::string::npos);
}

TEST(HtmlReport, TemplateAndScriptGuards) {
  ReportAssets missing = kAssets;
  missing.page_template = "<html>{{title}}{{body}}{{data}}{{chart_js}}{{glue_js}}</html>";
  auto no_generated = render_html_report(records_with_name("m"), missing, {});
  ASSERT_FALSE(no_generated);
  EXPECT_EQ(no_generated.error().message, "report template: no {{generated}} placeholder");
  ReportAssets unknown = kAssets;
  unknown.page_template += "{{nonesuch}}";
  EXPECT_FALSE(render_html_report(records_with_name("m"), unknown, {}));
  ReportAssets closing = kAssets;
  closing.chart_js = "var s = '</SCRIPT>';";
  auto html = render_html_report(records_with_name("m"), closing, {});
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("var s = '<\\/SCRIPT>';"), std::string::npos);
  EXPECT_FALSE(render_html_report(std::vector<RunRecord>{}, kAssets, {}));
}

TEST(HtmlReport, RealAssetsLoad) {
  auto assets = load_report_assets();
  ASSERT_TRUE(assets) << assets.error().message;
  EXPECT_NE(assets->chart_js.find("Chart.js v4"), std::string::npos);
  EXPECT_NE(assets->page_template.find("Content-Security-Policy"), std::string::npos);
  auto html = render_html_report(records_with_name("m"), *assets, {});
  ASSERT_TRUE(html) << html.error().message;
  for (const char* name : {"{{title}}", "{{generated}}", "{{body}}", "{{data}}", "{{chart_js}}", "{{glue_js}}"}) {
    EXPECT_EQ(html->find(name), std::string::npos) << name;
  }
  setenv("RIGBENCH_CHART_JS", "/nonexistent/chart.js", 1);
  auto missing = load_report_assets();
  unsetenv("RIGBENCH_CHART_JS");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("'/nonexistent/chart.js': cannot read (scripts/setup installs Chart.js"),
            std::string::npos)
      << missing.error().message;
}

// The report's suite and embedding cells carry p50, p90, p95 and p99 (the page has room), and
// the Embeddings table its p90 column: latencies {10, 11, 12, 13} ms, interpolated as numpy.
TEST(HtmlReport, SuiteAndEmbeddingCellsShowP50P90P95P99) {
  RunRecord suite = testing::sample_record("s");
  suite.results = Results{};
  SuiteResult s;
  s.name = "builtin";
  s.hash = "xxh64:1111111122222222";
  s.runs = 1;
  for (int ms : {10, 11, 12, 13}) {
    PromptResult p;
    p.id = "p" + std::to_string(ms);
    p.category = "chat";
    p.n_generated = {11};
    p.ttft_ns = {ms * 1'000'000LL};
    p.gen_ns = {100'000'000};
    s.prompts.push_back(p);
  }
  suite.results.suite = s;
  RunRecord embed = testing::sample_record("e");
  embed.results = Results{};
  EmbeddingResult e;
  e.pooling = "cls";
  e.query_set = "builtin";
  e.n_queries = 4;
  e.latency = make_latency({10'000'000, 11'000'000, 12'000'000, 13'000'000});
  embed.results.embedding = e;
  auto html = render_shown(std::vector<RunRecord>{suite, embed}, kAssets, {});
  ASSERT_TRUE(html) << html.error().message;
  const std::string cell = "p50 11.50 · p90 12.70 · p95 12.85 · p99 12.97";
  for (const char* id : {"id=\"suite-ttft\"", "id=\"embed-latency\""}) {
    const std::size_t at = html->find(id);
    ASSERT_NE(at, std::string::npos) << id;
    const std::size_t end = html->find("</section>", at);
    EXPECT_NE(html->substr(at, end - at).find(cell), std::string::npos) << id << *html;
  }
  const std::size_t table = html->find("id=\"embeddings\"");
  ASSERT_NE(table, std::string::npos);
  const std::string section = html->substr(table, html->find("</section>", table) - table);
  EXPECT_NE(section.find("<th>p90 ms</th>"), std::string::npos) << section;
  EXPECT_NE(section.find(">12.70<"), std::string::npos) << section;
}

TEST(MemoryUsage, PerDeviceAgainstCapacity) {
  RunRecord r = testing::sample_record("gpu");
  r.memory.buffers = {{"CPU", "CPU", 100, 0, 10}, {"CUDA0", "CUDA0", 1000, 200, 50}, {"CUDA0", "CUDA0_Host", 0, 0, 5}};
  RunRecord smaller = r;
  smaller.record_id = "small";
  smaller.memory.buffers = {{"CUDA0", "CUDA0", 1000, 100, 50}};
  const auto mem = memory_by_device(std::vector<RunRecord>{smaller, r});
  ASSERT_EQ(mem.size(), 2u);
  EXPECT_EQ(mem[0].device, "CPU");
  EXPECT_EQ(mem[0].capacity_bytes, 32ull << 30);  // the machine's RAM
  EXPECT_EQ(mem[1].device, "CUDA0");
  EXPECT_EQ(mem[1].weights_bytes, 1000u);
  EXPECT_EQ(mem[1].kv_bytes, 200u);  // the larger run
  EXPECT_EQ(mem[1].compute_bytes, 55u);
  EXPECT_EQ(mem[1].capacity_bytes, 24ull << 30);  // the GPU's memory
}

// Llama-8B's CPU weights read 7.67 GiB for a 4.58 GiB file: the mapped file (4.58) and the
// repacked copy (3.09). The mapped originals of the repacked tensors are reclaimable.
TEST(MemoryUsage, ARepackedCopysMappedOriginalsAreReclaimable) {
  constexpr uint64_t kMiB = 1ull << 20;
  RunRecord r = testing::sample_record("cpu");
  r.params.load_mode = "auto";
  r.memory.buffers = {{"CPU", "CPU_Mapped", 4690 * kMiB, 0, 0}, {"CPU", "CPU_REPACK", 3164 * kMiB, 0, 0},
                      {"CPU", "CPU", 0, 512 * kMiB, 300 * kMiB}};
  auto mem = memory_by_device(std::vector<RunRecord>{r});
  ASSERT_EQ(mem.size(), 1u);
  EXPECT_EQ(mem[0].weights_bytes, 7854 * kMiB);
  EXPECT_EQ(mem[0].reclaimable_bytes, 3164 * kMiB);
  EXPECT_EQ(mem[0].resident_bytes(), (4690 + 512 + 300) * kMiB);
  r.params.load_mode = "mlock";  // locked pages stay
  mem = memory_by_device(std::vector<RunRecord>{r});
  EXPECT_EQ(mem[0].reclaimable_bytes, 0u);
  EXPECT_EQ(mem[0].resident_bytes(), mem[0].total_bytes());
}

}  // namespace
}  // namespace rigbench::report
