#include "cli/export_command.h"

#include <iostream>

#include "cli/args.h"
#include "report/export_printer.h"
#include "report/printer.h"
#include "store/record_sources.h"

namespace rigbench::cli {

CLI::App* add_export_command(CLI::App& app, ExportOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("export", "Print every stored record (jsonl by default, what `rigbench import` reads)");
  cmd->add_option("--db", o.db_paths, "database to read (repeatable; default: $XDG_DATA_HOME/rigbench/results.db)");
  add_record_filter_flags(*cmd, o.filter);
  cmd->add_option("-o,--output", o.output,
                  "jsonl (what import reads), json, csv, md (csv and md with a machine column) or sql")
      ->capture_default_str();
  cmd->footer(R"(
Examples:
  rigbench export > rig-a.jsonl              every record, for rigbench import on another machine
  rigbench export --model llama -o csv       one model's records as a spreadsheet

Exit codes: 0 success; 1 a database missing or unreadable; 2 a bad flag or value, or a filter that
matches no record.)");
  return cmd;
}

Status run_export_command(const ExportOptions& o) {
  auto format = report::parse_output_format(o.output, report::record_formats());
  if (!format) return std::unexpected(format.error());
  auto records = store::load_records(o.db_paths, o.filter);
  if (!records) return std::unexpected(records.error());
  report::print_records(*records, *format, std::cout);
  return {};
}

}  // namespace rigbench::cli
