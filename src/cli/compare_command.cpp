#include "cli/compare_command.h"

#include <iostream>

#include "cli/args.h"
#include "report/compare_printers.h"
#include "report/comparison.h"
#include "store/record_sources.h"

namespace rigbench::cli {

CLI::App* add_compare_command(CLI::App& app, CompareOptions& o) {
  CLI::App* cmd = app.add_subcommand("compare",
                                     "Stored results side by side: per model, one column per machine (or model, or "
                                     "build), winners, ratios, regressions");
  cmd->add_option("--by", o.by, "what the columns are: machine, model or build")->capture_default_str();
  cmd->add_option("--baseline", o.baseline,
                  "the column ratios are against (a name or a unique part of one; default: the first)");
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("--alpha", o.alpha, "significance level of the regression test (Welch's t-test, one-sided)")
      ->check(CLI::Range(1e-9, 0.5))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "md, csv, json or jsonl")->capture_default_str();
  return cmd;
}

Status run_compare_command(const CompareOptions& o) {
  auto by = report::parse_compare_by(o.by);
  if (!by) return std::unexpected(by.error());
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  auto records = store::load_records(o.db_paths, o.filter, store::RecordView::kCompare);
  if (!records) return std::unexpected(records.error());
  const report::RecordIdentities ids(*records);  // once, for both
  auto cmp = report::compare(*records, report::CompareOptions{*by, o.baseline}, ids);
  if (!cmp) return std::unexpected(cmp.error());
  const auto regressions = report::find_regressions(*records, o.alpha, ids);
  report::print_comparison(*cmp, regressions, o.alpha, *format, std::cout);
  return {};
}

}  // namespace rigbench::cli
