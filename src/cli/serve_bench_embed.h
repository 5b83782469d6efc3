// rigbench: `serve-bench URL --embeddings`, the embedding half of serve-bench: the job
// (measure/serve_embed_job.h) built from the flags, its records stored and printed by embed's
// own table (report/embed_table.h) or as records (-o json/jsonl), compared like embed's.
#pragma once

#include "cli/serve_bench_options.h"
#include "core/status.h"
#include "measure/serve_job.h"
#include "report/table.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

// Runs every model of common.target at every --concurrency of `opts` against the server
// (already probed). `common` is the generation job's shared part: its url, client, target,
// energy (--energy auto: the same meters as generation, an idle window with the model loaded,
// then the loaded window over the counted requests: J per input token and per text, cost per
// Mtok of input tokens with a price), machine, build, tags and stop flag. `db` may be null
// (--no-db). Errors: the query file's; the warm-up's (kRuntime, one line); the store's;
// kRuntime for a run whose every request failed; kInterrupted after Ctrl-C (the finished
// records kept and stored).
Status run_serve_embeddings(const ServeBenchOptions& opts, const measure::ServeJob& common, store::SqliteStore* db,
                            report::OutputFormat format, bool show_progress);

}  // namespace rigbench::cli
