#include "cli/export_command.h"

#include <iostream>

#include "report/printer.h"
#include "cli/args.h"
#include "store/record_sources.h"

namespace rigbench::cli {

CLI::App* add_export_command(CLI::App& app, ExportOptions& o) {
  CLI::App* cmd = app.add_subcommand("export", "Print every stored record (jsonl by default, what `rigbench import` reads)");
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("-o,--output", o.output, "jsonl, json, csv, md or sql")->check(CLI::IsMember({"jsonl", "json", "csv", "md", "sql"}))->capture_default_str();
  return cmd;
}

Status run_export_command(const ExportOptions& o) {
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  auto records = store::load_records(o.db_paths, o.filter);
  if (!records) return std::unexpected(records.error());
  auto printer = report::make_printer(*format, std::cout);
  printer->begin();
  for (const RunRecord& rec : *records) printer->add(rec);
  printer->end();
  return {};
}

}  // namespace rigbench::cli
