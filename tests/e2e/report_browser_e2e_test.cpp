// End-to-end: `rigbench report` on records of two machines (real runs of the shipped model
// with stated power and a price, one renamed `<script>alert(1)</script>`), loaded in real headless Chromium (Debian's
// chromium; scripts/test installs it) by e2e/report_browser_check.mjs through playwright-core
// (scripts/setup installs it with npm): no console error, no network request, no dialog,
// every chart painted, a screenshot, and the hostile name shown as text. The report and
// its screenshot are left in the test's working directory (report_browser_e2e.{html,png}).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

constexpr const char* kHostileName = "<script>alert(1)</script>";

std::string from_env(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string node_path() {
  for (const char* p : {"/usr/bin/node", "/usr/local/bin/node"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

// The records of `hosts` (two machines unless told), one model renamed to a script, imported into `db`.
void make_database(const TempDir& dir, const std::string& db,
                   const std::vector<std::string>& hosts = {"rig-a", "rig-b"}) {
  // A stated 50 W and a price give every record energy and cost figures (labelled stated).
  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench",   RIGBENCH_TEST_MODEL,
                                           "-p",         "0",       "-n",
                                           "0",          "-pg",     "32,8",
                                           "-r",         "2",       "-t",
                                           "1",          "--no-db", "-o",
                                           "jsonl",      "--watts", "50",
                                           "--price",    "0.30",    "--idle-seconds",
                                           "0"});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  // One record per test (pp, tg), each copied as below.
  std::string text;
  for (const std::string& line : split(trim(bench.out), '\n')) {
    json rec = json::parse(line);
    const std::string id = rec["record_id"].get<std::string>().substr(0, 30);
    for (std::size_t h = 0; h < hosts.size(); ++h) {
      rec["machine"]["hostname"] = hosts[h];
      rec["record_id"] = id + "a" + std::to_string(h);
      text += rec.dump() + "\n";
    }
    rec["model"]["name"] = kHostileName;
    rec["model"]["fingerprint"] = "xxh64:000000000000000c";  // another file: another model
    rec["record_id"] = id + "c0";
    text += rec.dump() + "\n";
    // A model 300 times slower (as a 1B model beside the 260K one): its bars must stay visible.
    rec["model"]["name"] = "Slow-1B model with a long name that used to wrap over five lines";
    rec["model"]["fingerprint"] = "xxh64:000000000000000d";
    rec["record_id"] = id + "d0";
    for (const char* test : {"pp", "tg", "ttft"}) {
      if (!rec["results"].contains(test)) continue;
      for (auto& ns : rec["results"][test]["samples_ns"]) ns = ns.get<int64_t>() * 300;
    }
    text += rec.dump() + "\n";
  }
  testing::write_file(dir.file("runs.jsonl"), text);
  const ProcessResult imp = run_process({RIGBENCH_BIN, "import", "--db", db, dir.file("runs.jsonl")});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
}

TEST(ReportBrowserE2E, LoadsOfflineDrawsEveryChartAndKeepsNamesAsText) {
  const std::string chromium = from_env("RIGBENCH_CHROMIUM", "/usr/bin/chromium");
  const std::string node = from_env("RIGBENCH_NODE", node_path());
  ASSERT_TRUE(std::filesystem::exists(chromium)) << chromium << " is missing: scripts/test installs Debian's chromium";
  ASSERT_FALSE(node.empty()) << "node is missing: scripts/setup installs nodejs";
  ASSERT_TRUE(std::filesystem::exists(std::string(RIGBENCH_NPM_DIR) + "/node_modules/playwright-core"))
      << "playwright-core is missing from " << RIGBENCH_NPM_DIR << ": run scripts/setup";

  TempDir dir;
  make_database(dir, dir.file("r.db"));
  if (HasFatalFailure()) return;
  const std::string html_path = std::filesystem::absolute("report_browser_e2e.html").string();
  const std::string png_path = std::filesystem::absolute("report_browser_e2e.png").string();
  std::filesystem::remove(png_path);
  const ProcessResult report = run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "--output-file",
                                            html_path, "--title", "<img src=x onerror=alert(2)>"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.out, html_path + "\n");
  const std::string html = testing::read_file(html_path);
  EXPECT_EQ(html.find(kHostileName), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);

  const ProcessResult check =
      run_process({node, RIGBENCH_BROWSER_CHECK, RIGBENCH_NPM_DIR, chromium, html_path, png_path});
  ASSERT_EQ(check.exit_code, 0) << check.err << check.out;
  const json r = json::parse(check.out);
  EXPECT_EQ(r["console_errors"], json::array()) << r["console_errors"].dump();
  EXPECT_EQ(r["requests"], json::array()) << r["requests"].dump();
  EXPECT_EQ(r["dialogs"], json::array()) << r["dialogs"].dump();
  EXPECT_EQ(r["injected_scripts"], 0);
  std::vector<std::string> ids;
  for (const json& c : r["charts"]) {
    ids.push_back(c["id"]);
    EXPECT_GT(c["width"].get<int>(), 100) << c.dump();
    EXPECT_GT(c["painted"].get<int>(), 1000) << c.dump();  // axes, labels and bars drawn
  }
  // chart-itl: tg's per-token latency, which every bench run records now.
  EXPECT_EQ(ids, (std::vector<std::string>{"chart-tg", "chart-pp", "chart-ttft", "chart-itl", "chart-energy",
                                           "chart-cost", "chart-memory", "chart-power"}));
  // Speeds 300 times apart: a log axis, on which the slow model's bars are plainly visible.
  for (const json& c : r["charts"]) {
    const std::string id = c["id"];
    if (id != "chart-tg" && id != "chart-pp" && id != "chart-ttft") continue;
    EXPECT_EQ(c["scale"], "logarithmic") << c.dump();
    EXPECT_GT(c["min_bar_px"].get<double>(), 20) << c.dump();
  }
  // A stated power (--watts 50) is drawn dashed, never as a measured trace.
  ASSERT_GE(r["charts"][7]["dashed"].size(), 4u) << r["charts"][7].dump();
  for (const json& d : r["charts"][7]["dashed"]) EXPECT_TRUE(d.get<bool>()) << r["charts"][7].dump();
  for (const json& label : r["charts"][7]["labels"])
    EXPECT_TRUE(label.get<std::string>().ends_with(" (stated)")) << label;
  // Tables at a 1400 px viewport: names on one line, a wide table scrolls inside its box,
  // the page itself is not wider than the window.
  for (const json& t : r["tables"]) {
    EXPECT_LT(t["tallest_cell_px"].get<double>(), 40) << t.dump();  // two machines: nothing needs to break
    const std::string overflow = t["overflow_x"];
    EXPECT_TRUE(overflow == "auto" || overflow == "scroll") << t.dump();
  }
  EXPECT_LE(r["page_width"].get<int>(), 1400);
  EXPECT_EQ(r["charts"][5]["y_title"], "EUR per Mtok");  // the cost axis names the currency
  const std::string texts = r["texts"];
  EXPECT_NE(texts.find(std::string(kHostileName) + " F32"), std::string::npos);
  EXPECT_NE(texts.find("<img src=x onerror=alert(2)>"), std::string::npos);
  const std::string png = testing::read_file(png_path);
  ASSERT_GT(png.size(), 10000u);
  EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
}

// Six machines with long hostnames at a 1280 px window (#37: the per-test tables were up to
// 1713 px wide, scrolled sideways): every table fits the page, a figure wrapping between its
// pieces (its interval, its ratio, its noise codes), a header, a name or a verdict at its
// spaces and after its hyphens; a test and a lone figure on one line. Run on a loaded machine
// too (its cells then carry noise codes).
TEST(ReportBrowserE2E, SixMachinesWithLongNamesFitA1280PxWindow) {
  const std::string chromium = from_env("RIGBENCH_CHROMIUM", "/usr/bin/chromium");
  const std::string node = from_env("RIGBENCH_NODE", node_path());
  ASSERT_TRUE(std::filesystem::exists(chromium) && !node.empty()) << "chromium or node is missing";
  TempDir dir;
  make_database(dir, dir.file("r.db"),
                {"desktop-rx6600xt-vulkan", "linux-2080ti-cuda-workstation", "macbook-pro-m2-pro-32gb",
                 "office-ryzen-7950x-cpu-only", "lab-arc-b580-intel", "studio-m3-ultra-512gb"});
  if (HasFatalFailure()) return;
  const std::string html_path = dir.file("six.html");
  const ProcessResult report =
      run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "--output-file", html_path});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const ProcessResult check =
      run_process({node, RIGBENCH_BROWSER_CHECK, RIGBENCH_NPM_DIR, chromium, html_path, dir.file("six.png"), "1280"});
  ASSERT_EQ(check.exit_code, 0) << check.err << check.out;
  const json r = json::parse(check.out);
  ASSERT_FALSE(r["tables"].empty());
  for (const json& t : r["tables"]) {
    EXPECT_LE(t["scroll_width"].get<int>(), t["client_width"].get<int>()) << t.dump();
    EXPECT_LT(t["tallest_name_px"].get<double>(), 40) << t.dump();  // a test, a figure alone: one line
  }
  EXPECT_LE(r["page_width"].get<int>(), 1280);
}

// The check itself sees what it is there to see: a page that fetches, logs an error and
// opens a dialog is reported with all three.
TEST(ReportBrowserE2E, TheCheckSeesRequestsErrorsAndDialogs) {
  const std::string chromium = from_env("RIGBENCH_CHROMIUM", "/usr/bin/chromium");
  const std::string node = from_env("RIGBENCH_NODE", node_path());
  ASSERT_TRUE(std::filesystem::exists(chromium) && !node.empty()) << "chromium or node is missing";
  TempDir dir;
  testing::write_file(dir.file("bad.html"),
                      "<!DOCTYPE html><html><body><img src=\"http://rigbench.invalid/x.png\">"
                      "<script>console.error('boom'); alert(3);</script></body></html>");
  const ProcessResult check = run_process(
      {node, RIGBENCH_BROWSER_CHECK, RIGBENCH_NPM_DIR, chromium, dir.file("bad.html"), dir.file("bad.png")});
  ASSERT_EQ(check.exit_code, 0) << check.err << check.out;
  const json r = json::parse(check.out);
  EXPECT_EQ(r["requests"], json({"http://rigbench.invalid/x.png"})) << r.dump();
  EXPECT_NE(r["console_errors"].dump().find("boom"), std::string::npos) << r.dump();
  EXPECT_EQ(r["dialogs"], json({"alert: 3"})) << r.dump();
}

TEST(ReportBrowserE2E, MissingDatabaseOrLibraryFailsWithOneLine) {
  TempDir dir;
  const ProcessResult no_db =
      run_process({RIGBENCH_BIN, "report", "--db", dir.file("none.db"), "--output-file", dir.file("r.html")});
  EXPECT_EQ(no_db.exit_code, 1);
  EXPECT_EQ(std::count(no_db.err.begin(), no_db.err.end(), '\n'), 1) << no_db.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.html")));
  make_database(dir, dir.file("r.db"));
  setenv("RIGBENCH_CHART_JS", dir.file("none.js").c_str(), 1);
  const ProcessResult no_lib =
      run_process({RIGBENCH_BIN, "report", "--db", dir.file("r.db"), "--output-file", dir.file("r.html")});
  unsetenv("RIGBENCH_CHART_JS");
  EXPECT_EQ(no_lib.exit_code, 1);
  EXPECT_NE(no_lib.err.find("charting library '" + dir.file("none.js") + "': cannot read"), std::string::npos)
      << no_lib.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.html")));
}

}  // namespace
}  // namespace rigbench
