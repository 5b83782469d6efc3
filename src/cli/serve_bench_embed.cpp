#include "cli/serve_bench_embed.h"

#include <cstdio>
#include <iostream>

#include "cli/record_flags.h"
#include "measure/queries.h"
#include "measure/serve_embed_job.h"
#include "report/embed_table.h"

namespace rigbench::cli {

Status run_serve_embeddings(const ServeBenchOptions& o, const measure::ServeJob& common, store::SqliteStore* db,
                            report::OutputFormat format, bool show_progress) {
  // The texts: embed's query set (the built-in one or --queries). -b and -r are checked as they
  // are parsed (cli/serve_bench_options.cpp's int_range).
  auto queries = measure::read_query_set(o.queries);
  if (!queries) return std::unexpected(queries.error());
  measure::ServeEmbedJob job;
  job.request = {.url = common.url,
                 .client = common.client,
                 .ollama = net::is_ollama(common.target.api),
                 .queries = std::move(queries->queries),
                 .query_set = std::move(queries->name),
                 .batch_sizes = o.batch_sizes,
                 .repetitions = o.repetitions,
                 .warmup = o.warmup};
  job.server = common.target.server;
  job.models = common.target.models;
  job.concurrency = o.concurrency;
  job.energy = common.energy;
  job.machine = common.machine;
  job.build = common.build;
  job.tags = common.tags;
  job.stop = common.stop;

  RecordSink sink(db, format, std::cout);
  const measure::ServeEmbedJobResult done =
      measure::run_serve_embed_job(job, [&](const RunRecord& rec) { return sink.add(rec); }, [&](const std::string& line) {
        if (show_progress) std::fprintf(stderr, "rigbench: %s\n", line.c_str());
      });
  const bool printed = sink.printing();
  sink.finish();
  if (!done.error) return done.error;
  if (!printed) {
    report::Table table = report::embedding_table(done.records);
    // Energy where the run measured it: one note per run (json/jsonl: the records' energy and cost).
    report::add_serve_embed_notes(table, done.records, done.texts);
    report::render(table, format, std::cout);
  }
  sink.say_stored();
  return measure::serve_embed_job_status(job, done);
}

}  // namespace rigbench::cli
