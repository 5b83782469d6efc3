#include "cli/serve_bench_embed.h"

#include <cstdio>
#include <iostream>

#include "measure/queries.h"
#include "measure/serve_embed_job.h"
#include "report/embed_table.h"
#include "report/printer.h"

namespace rigbench::cli {

Status run_serve_embeddings(const ServeBenchOptions& o, const measure::ServeJob& common, store::SqliteStore* db,
                            report::OutputFormat format, bool show_progress) {
  // The texts: embed's query set (the built-in one or --queries). -b and -r are checked as they
  // are parsed (cli/serve_bench_options.cpp's int_range).
  auto queries = measure::read_query_set(o.queries);
  if (!queries) return std::unexpected(queries.error());
  measure::ServeEmbedJob job;
  job.url = common.url;
  job.client = common.client;
  job.server = common.target.server;
  job.ollama = net::is_ollama(common.target.api);
  job.models = common.target.models;
  job.concurrency = o.concurrency;
  job.queries = std::move(queries->queries);
  job.query_set = std::move(queries->name);
  job.batch_sizes = o.batch_sizes;
  job.repetitions = o.repetitions;
  job.warmup = o.warmup;
  job.energy = common.energy;
  job.machine = common.machine;
  job.build = common.build;
  job.tags = common.tags;
  job.stop = common.stop;

  auto printer = (format == report::OutputFormat::kJson || format == report::OutputFormat::kJsonl)
                     ? report::make_printer(format, std::cout)
                     : nullptr;
  if (printer) printer->begin();
  int stored = 0;
  bool store_failed = false;  // the database refused a record: the output stays as it was
  const auto sink = [&](const RunRecord& rec) -> Status {
    if (db) {
      if (Status s = db->save(rec); !s) {
        store_failed = true;
        return s;
      }
      ++stored;
    }
    if (printer) printer->add(rec);
    return {};
  };
  const measure::ServeEmbedJobResult done = measure::run_serve_embed_job(job, sink, [&](const std::string& line) {
    if (show_progress) std::fprintf(stderr, "rigbench: %s\n", line.c_str());
  });
  if (!done.error) {
    if (printer && !store_failed) printer->end();
    return done.error;
  }
  if (printer) printer->end();
  else {
    report::Table table = report::embedding_table(done.records);
    // Energy where the run measured it: one note per run (json/jsonl: the records' energy and cost).
    report::add_serve_embed_notes(table, done.records, done.texts);
    report::render(table, format, std::cout);
  }
  if (db && stored > 0) {
    std::fprintf(stderr, "rigbench: %d record%s stored in %s\n", stored, stored == 1 ? "" : "s", db->path().c_str());
  }
  return measure::serve_embed_job_status(job, done);
}

}  // namespace rigbench::cli
