// rigbench: the HTML report (`rigbench report --output-file FILE.html`), one self-contained file that
// opens offline and makes no network request: the charting library (Chart.js, from the
// npm registry, installed by scripts/setup) and the glue that draws the charts are inlined,
// a Content-Security-Policy forbids every fetch, and the figures travel as a JSON block.
//
// Sections, each only where the records hold its figures, each chart with its table beside
// it (the tables are plain HTML, readable without scripts):
//   answers         first: the sentences (report/answers_html.h): who leads and the reversals
//                   between pairs per metric (report/reversals.h), the cheapest model per Mtok
//                   per machine (cost/model_costs.h), what to buy per model (fit/ranking.h),
//                   each linked to the table it comes from
//   machines        what each machine is (CPU, RAM, GPUs, OS, backends)
//   tg, pp          grouped bars of mean tokens/s per model and test, one bar per machine
//   TTFT            grouped bars of mean ms, likewise
//   energy, cost    grouped bars of J per generated token and electricity cost per million
//                   generated tokens, where runs measured them (report/comparison.h)
//   memory fit      weights / KV / compute per model, machine and device, stacked as a
//                   share of the device's capacity (the axis ends at 100 %)
//   power           power over time, a line per run that measured energy: the watts between
//                   successive meter reads from the idle baseline through the repetitions
//                   (EnergyRecord::power_trace, at most 240 points per run)
//   regressions     report/regressions.h, as a table
//   power           power over time per run (the sampler's readings kept in the record); a
//                   stated or estimated constant is drawn dashed and labelled so
//   synthetic note  what "(synthetic vN, seed S)" after a model name means, where one occurs
// A bar chart whose largest bar is more than 20 times its smallest uses a log axis (said in
// its note and axis title). Tables keep names on one line and scroll sideways when wide.
// The report says which sections it leaves out.
//
// All text (model names come from GGUF metadata, machine names from other machines' files)
// is escaped: HTML text through html_escape, the JSON block through json_for_script, and the
// charts draw labels on a canvas, never as markup.
#pragma once

#include <span>
#include <string>

#include "core/record.h"
#include "core/status.h"
#include "report/answers_html.h"
#include "report/regressions.h"

namespace rigbench::report {

struct ReportAssets {
  // The page, with the placeholders {{title}}, {{generated}}, {{body}}, {{data}},
  // {{chart_js}} and {{glue_js}}, each present at least once and replaced in one pass
  // (data/report/template.html).
  std::string page_template;
  std::string glue_js;   // draws the charts described by the JSON data block (data/report/report.js)
  std::string chart_js;  // the charting library's UMD build, defining the global Chart
};

struct HtmlReportOptions {
  std::string title = "rigbench report";  // --title; escaped
  std::string generated_at;               // UTC ISO 8601 time shown in the header ("" = none)
  double alpha = kDefaultAlpha;           // significance level of the regressions and of every winner (Welch)
  AnswerInputs answers;                   // the price of the cost answers; the what-to-buy rankings
};

// The report of `records`. Errors: kInvalidInput when there are no records or the template
// lacks a placeholder (naming it).
Result<std::string> render_html_report(std::span<const RunRecord> records, const ReportAssets& assets,
                                       const HtmlReportOptions& options);

}  // namespace rigbench::report
