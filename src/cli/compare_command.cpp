#include "cli/compare_command.h"

#include <iostream>

#include "cli/args.h"
#include "report/compare_printers.h"
#include "report/comparison.h"
#include "report/embed_table.h"
#include "report/served_overhead.h"
#include "store/record_sources.h"

namespace rigbench::cli {

CLI::App* add_compare_command(CLI::App& app, CompareOptions& o) {
  CLI::App* cmd = app.add_subcommand("compare",
                                     "Stored results side by side: per model, one column per machine (or model, "
                                     "build or backend), winners, ratios, regressions, the answers");
  cmd->add_option("--by", o.by,
                  "what the columns are: machine, model, build or backend (the one the layers ran on: CPU, CUDA, "
                  "Vulkan, Metal; a backend's cell shows its best machine: --machine keeps to one)")
      ->capture_default_str();
  cmd->add_option("--baseline", o.baseline,
                  "the column ratios are against (a name or a unique part of one; default: the first with results)");
  cmd->add_flag("--across-sizes", o.across_sizes,
                "--by model: rank models of different parameter counts against each other (by default only "
                "quantizations of one size are: a smaller model is not faster, it does less)");
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option(
         "--alpha", o.alpha,
         "significance level of Welch's t-test: the table's winners and the answers (two-sided), regressions (one-sided)")
      ->check(range(1e-9, 0.5))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "md, csv, json or jsonl")->capture_default_str();
  cmd->footer(R"(
Examples:
  rigbench compare                           per model, a column per machine: winners, ratios, answers
  rigbench compare --by build --model qwen   one model under several builds: regressions (Welch's t-test)
  rigbench compare --by backend -o json      every cell with its interval and noise notes
  rigbench compare --db a.db --db b.db       two machines' databases side by side

Exit codes: 0 success; 1 a database missing or unreadable; 2 a bad flag or value, or a filter that
matches no record.)");
  return cmd;
}

Status run_compare_command(const CompareOptions& o) {
  auto by = report::parse_compare_by(o.by);
  if (!by) return std::unexpected(by.error());
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  auto records = store::load_records(o.db_paths, o.filter, store::RecordView::kCompare, store::Pooling::kRepetitions);
  if (!records) return std::unexpected(records.error());
  const report::RecordIdentities ids(*records);  // once, for both
  auto cmp = report::compare(*records, report::CompareOptions{*by, o.baseline, o.across_sizes, o.alpha}, ids);
  if (!cmp) return std::unexpected(cmp.error());
  const auto regressions = report::find_regressions(*records, o.alpha, ids);
  // The answers (report/reversals.h) of each metric the rows hold: tg, pp, TTFT, J/token, cost;
  // the stored capacity sweeps' answers; bench and serve-bench of one model file side by side.
  report::CompareExtras extras;
  for (const report::Metric m : report::answer_metrics()) {
    report::Answers a = report::find_answers(*cmp, m);
    if (!a.sentences.empty()) extras.answers.push_back(std::move(a));
  }
  extras.capacity = report::stored_capacities(*records, ids);
  extras.served = report::served_overheads(*records, ids);
  report::print_comparison(*cmp, regressions, o.alpha, *format, std::cout, extras);
  // Embedding records (rigbench embed): their own table per machine, in md only (report/embed_table.h).
  if (*format == report::OutputFormat::kMarkdown && report::has_embeddings(*records)) {
    std::cout << "\nEmbeddings\n\n";
    report::render(report::embedding_table(*records), *format, std::cout);
  }
  return {};
}

}  // namespace rigbench::cli
