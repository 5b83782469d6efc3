#include "report/suite_table.h"

#include <cmath>
#include <cstdio>

#include "core/short_commit.h"
#include "core/strings.h"
#include "core/suite_stats.h"

namespace rigbench::report {

namespace {

TableCell ms_or_tps(double v) { return std::isfinite(v) ? TableCell::number(v, 2) : TableCell::absent(); }

std::vector<TableCell> figure_cells(const SuiteFigures& f) {
  return {ms_or_tps(f.ttft_ms.median), ms_or_tps(f.ttft_ms.p95), ms_or_tps(f.gen_tps.median),
          ms_or_tps(f.gen_tps.p95)};
}

}  // namespace

Table suite_table(const RunRecord& rec) {
  const SuiteResult& s = *rec.results.suite;
  Table t({{"prompt", "prompt"},
           {"category", "category"},
           {"n_prompt_tokens", "prompt tok", Align::kRight},
           {"n_generated", "gen tok", Align::kRight},
           {"prefill_p50_ms", "prefill ms", Align::kRight, /*wide_only=*/true},
           {"ttft_p50_ms", "TTFT p50 ms", Align::kRight},
           {"ttft_p95_ms", "TTFT p95 ms", Align::kRight},
           {"gen_p50_tps", "gen p50 t/s", Align::kRight},
           {"gen_p95_tps", "gen p95 (fast) t/s", Align::kRight},
           {"itl_p50_ms", "ITL p50 ms", Align::kRight, /*wide_only=*/true},
           {"itl_p99_ms", "ITL p99 ms", Align::kRight, /*wide_only=*/true}});
  std::string model = rec.model.name + (rec.model.file_type.empty() ? "" : " " + rec.model.file_type) +
                      (rec.model.synthetic ? " (synthetic)" : "");
  t.add_preamble("Suite " + s.name + " (" + s.hash + "), " + std::to_string(s.prompts.size()) + " prompts, " +
                 std::to_string(s.runs) + " run" + (s.runs == 1 ? "" : "s") + (s.ignore_eos ? ", --ignore-eos" : "") +
                 "; " + model + " on " + join(rec.devices_used, ",") + ", " + std::to_string(rec.params.n_threads) +
                 " threads, n_ctx " + std::to_string(rec.params.n_ctx) + ".");
  for (const PromptResult& p : s.prompts) {
    const SuiteFigures f = prompt_figures(p);
    std::vector<double> gen(p.n_generated.begin(), p.n_generated.end());
    std::vector<double> itl;
    for (const auto& run : p.itl_ns) {
      const std::vector<double> ms = to_milliseconds(run);
      itl.insert(itl.end(), ms.begin(), ms.end());
    }
    const Summary itl_ms = summarize(itl);
    std::vector<TableCell> row = {TableCell::str(p.id), TableCell::str(p.category),
                                  TableCell::integer(p.n_prompt_tokens),
                                  gen.empty() ? TableCell::absent() : TableCell::number(summarize(gen).median, 0),
                                  ms_or_tps(summarize(to_milliseconds(p.prefill_ns)).median)};
    for (TableCell& c : figure_cells(f)) row.push_back(std::move(c));
    row.push_back(itl_ms.n ? ms_or_tps(itl_ms.median) : TableCell::absent());
    row.push_back(itl_ms.n ? ms_or_tps(itl_ms.p99) : TableCell::absent());
    t.add_row(std::move(row));
  }
  auto summary_row = [&](const std::string& label, const std::string& category, const SuiteFigures& f) {
    std::vector<TableCell> row = {TableCell::str(label), TableCell::str(category), TableCell::absent(),
                                  TableCell::absent(), TableCell::absent()};
    for (TableCell& c : figure_cells(f)) row.push_back(std::move(c));
    row.push_back(TableCell::absent());
    row.push_back(TableCell::absent());
    t.add_row(std::move(row));
  };
  const std::vector<std::string> categories = suite_categories(s);
  if (categories.size() > 1) {
    for (const std::string& c : categories) summary_row("(category)", c, suite_figures(s, c));
  }
  summary_row("(suite)", "all", suite_figures(s));
  t.add_note(
      "prompt rows: median (p50) and p95 over the suite's runs; (category) and (suite) rows: median and p95 of "
      "the prompts' medians. gen t/s: tokens after the first over their decode time (the first token is TTFT's); "
      "gen p95 (fast) is the 95th percentile of that rate, its fast end (higher is better: 95 % of the runs were "
      "slower), where TTFT p95 is the slow end of a time.");
  if (!rec.build.llama_cpp_commit.empty()) t.add_footer("llama.cpp build: " + short_commit(rec.build.llama_cpp_commit));
  return t;
}

}  // namespace rigbench::report
