#include "cli/import_command.h"

#include <cstdio>
#include <iostream>

#include "cli/args.h"
#include "core/strings.h"
#include "report/listings.h"
#include "store/import.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

CLI::App* add_import_command(CLI::App& app, ImportOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "import", "Import results: rigbench jsonl/json/database from other machines, llama-bench json/jsonl/csv/sql and its "
      "markdown tables as pasted");
  cmd->add_option("files", o.files, "files to import (the format is read from the content); - for standard input")
      ->required();
  cmd->add_option("--db", o.db_path, "database to import into (default: $XDG_DATA_HOME/rigbench/results.db)")
      ->take_last();
  cmd->add_option("--machine,--hostname", o.hostname,
                  "the name of the machine llama-bench output ran on, which the output does not name (default: its "
                  "cpu_info and gpu_info, \"unnamed\" without them; refused with rigbench files, whose records name "
                  "their machine)");
  cmd->add_option("--gpu", o.gpu,
                  "the GPU of a llama-bench markdown table, which names none (default: the device lines printed above "
                  "the table, e.g. 'Device 0: NVIDIA GeForce RTX 4090, ...'); markdown only");
  cmd->add_option("--source", o.source,
                  "where a llama-bench markdown table was published (a URL), kept with each record; markdown only");
  cmd->add_option("-r,--repetitions", o.repetitions,
                  "repetitions of the llama-bench run (its -r), which its csv and sql output do not record (refused "
                  "with files that hold their samples)")
      ->check(int_range(1, 1000000));
  cmd->add_option("-o,--output", o.output, "the summary: md, csv, json or jsonl (one object per file)")
      ->capture_default_str();
  cmd->footer(R"(Examples:
  rigbench import rig-a.jsonl rig-b.db                       # other machines' exports and databases
  rigbench import llama-bench.jsonl                          # llama-bench -o jsonl (json, csv, sql too)
  rigbench import --machine rig-d -r 5 llama-bench.csv       # csv/sql keep mean and sd only: say the repetitions
  llama-bench -m m.gguf -o jsonl | rigbench import --machine rig-d -
  rigbench import --machine m2-pro --gpu 'Apple M2 Pro' --source URL comment.md   # a pasted table
Exit codes: 0 imported; 1 a file missing or unreadable (among several: the others are imported), or a database
error; 2 a bad flag or value.
)");
  return cmd;
}

namespace {

bool from_llama_bench(store::ImportFormat f) {
  return f != store::ImportFormat::kRigbenchJsonl && f != store::ImportFormat::kRigbenchJson &&
         f != store::ImportFormat::kRigbenchDb;
}

// llama-bench output names no machine: --machine names it (else the reader names it from
// cpu_info and gpu_info, with a note). rigbench records name theirs: --machine would be
// ignored there, so it is refused.
Status check_hostname(const store::ImportBatch& batch, const std::string& hostname) {
  if (batch.records.empty()) return {};
  if (!from_llama_bench(batch.format) && !hostname.empty()) {
    return fail(ErrorCode::kUsage, "import '" + batch.path + "': --machine names the machine of llama-bench output; " +
                                       store::format_name(batch.format) +
                                       " records name their own (rigbench bench --machine NAME names it); import this "
                                       "file without --machine");
  }
  return {};
}

// -r says how many repetitions llama-bench's summary-only output (csv, sql, a database of it)
// averaged, which it does not record. Files that hold their samples (rigbench records,
// llama-bench json and jsonl) say it themselves: -r would be ignored there, so it is refused.
Status check_repetitions(const store::ImportBatch& batch, int repetitions) {
  if (repetitions == 0 || batch.records.empty()) return {};
  const bool summary_only = batch.format == store::ImportFormat::kLlamaBenchCsv ||
                            batch.format == store::ImportFormat::kLlamaBenchSql ||
                            batch.format == store::ImportFormat::kLlamaBenchDb ||
                            batch.format == store::ImportFormat::kLlamaBenchMarkdown;
  if (summary_only) return {};
  return fail(ErrorCode::kUsage, "import '" + batch.path + "': -r gives the repetitions of llama-bench csv and sql " +
                                     "output, which does not record them; " + store::format_name(batch.format) +
                                     " records hold their own samples; import this file without -r");
}

// --gpu and --source describe a markdown table, which names neither; the other formats
// record gpu_info themselves (and a source would be kept nowhere), so they are refused there.
Status check_markdown_flags(const store::ImportBatch& batch, const ImportOptions& o) {
  if (batch.format == store::ImportFormat::kLlamaBenchMarkdown || batch.records.empty()) return {};
  const char* flag = !o.gpu.empty() ? "--gpu" : !o.source.empty() ? "--source" : nullptr;
  if (flag == nullptr) return {};
  return fail(ErrorCode::kUsage, "import '" + batch.path + "': " + flag +
                                     " describes a llama-bench markdown table; " + store::format_name(batch.format) +
                                     " output is not one; import this file without " + flag);
}

}  // namespace

Status run_import_command(const ImportOptions& o) {
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  // 1. Every file read and checked before anything is saved.
  store::ImportOptions read_options;
  read_options.llama_bench_hostname = trim(o.hostname);
  read_options.llama_bench_repetitions = o.repetitions;
  read_options.llama_bench_gpu = trim(o.gpu);
  read_options.source_url = trim(o.source);
  // A bad file among several is skipped, named on its own line; the others import.
  std::vector<store::ImportBatch> batches;
  std::size_t bad_files = 0;
  for (const std::string& file : o.files) {
    auto batch = store::read_import_file(file, read_options);
    if (!batch && o.files.size() == 1) return std::unexpected(batch.error());
    if (!batch) {
      ++bad_files;
      std::fprintf(stderr, "rigbench: error: %s; skipped\n", batch.error().message.c_str());
      continue;
    }
    if (Status s = check_hostname(*batch, read_options.llama_bench_hostname); !s) return s;
    if (Status s = check_repetitions(*batch, o.repetitions); !s) return s;
    if (Status s = check_markdown_flags(*batch, o); !s) return s;
    batches.push_back(std::move(*batch));
  }
  const auto skipped_files = [&]() -> Status {
    if (bad_files == 0) return {};
    const bool none = bad_files == o.files.size();
    return fail(ErrorCode::kInvalidInput, "import: " + std::to_string(bad_files) + " of " +
                                              std::to_string(o.files.size()) + " files skipped (named above); " +
                                              (none ? "nothing imported" : "the others were imported"));
  };
  if (batches.empty()) return skipped_files();

  // 2. The target database.
  std::string path = o.db_path;
  if (path.empty()) {
    auto p = store::default_db_path();
    if (!p) return std::unexpected(p.error());
    path = *p;
  }
  auto db = store::SqliteStore::open(path);
  if (!db) return std::unexpected(db.error());

  // 3. Save, then say what happened.
  std::vector<store::ImportCounts> counts;
  for (const store::ImportBatch& batch : batches) {
    auto c = store::save_batch(**db, batch);
    if (!c) return std::unexpected(c.error());
    counts.push_back(*c);
    for (const std::string& note : batch.notes)
      std::fprintf(stderr, "rigbench: note: import '%s': %s\n", batch.path.c_str(), note.c_str());
    for (const auto& [name, n] : c->stored_as)
      std::fprintf(stderr,
                   "rigbench: note: import '%s': %zu of its records are stored already, as machine '%s': kept "
                   "under that name (an import never renames a stored run)\n",
                   batch.path.c_str(), n, name.c_str());
    for (const std::string& why : batch.skipped)
      std::fprintf(stderr, "rigbench: note: %s: %s\n", batch.path.c_str(), why.c_str());
  }
  report::print_import(batches, counts, *format, std::cout);
  return skipped_files();
}

}  // namespace rigbench::cli
