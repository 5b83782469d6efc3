#include "cli/record_flags.h"

#include <cstdio>

namespace rigbench::cli {

void add_record_flags(CLI::App& cmd, std::string& db_path, bool& no_db, std::vector<std::string>& tags,
                      std::string& machine, const std::string& what) {
  cmd.add_option("--db", db_path, "results database (default: $XDG_DATA_HOME/rigbench/results.db)")->take_last();
  cmd.add_flag("--no-db", no_db, "do not store the " + what);
  cmd.add_option("--tag", tags, "text kept with every record (repeatable)");
  cmd.add_option("--machine", machine,
                 "the machine's name in the records, which compare goes by (default: the host's name)")
      ->take_last();
}

RecordSink::RecordSink(store::SqliteStore* db, report::OutputFormat format, std::ostream& out) : db_(db) {
  if (format == report::OutputFormat::kJson || format == report::OutputFormat::kJsonl) {
    printer_ = report::make_printer(format, out);
    printer_->begin();
  }
}

Status RecordSink::add(const RunRecord& rec) {
  if (db_) {
    if (Status s = db_->save(rec); !s) {
      store_failed_ = true;  // the output stays as it was
      return s;
    }
    ++stored_;
  }
  if (printer_) printer_->add(rec);
  return {};
}

void RecordSink::finish() {
  if (printer_ && !store_failed_) printer_->end();
  printer_.reset();
}

void say_stored(const store::SqliteStore* db, int stored, const std::string& what) {
  if (db && stored > 0)
    std::fprintf(stderr, "rigbench: %d %s%s stored in %s\n", stored, what.c_str(), stored == 1 ? "" : "s",
                 db->path().c_str());
}

}  // namespace rigbench::cli
