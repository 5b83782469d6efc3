// rigbench: `rigbench embed`, the embedding benchmark: single-query latency at batch 1 over a
// query set (p50/p95/p99 ms) and throughput (texts/s, tokens/s) per batch size, with the
// model's own pooling, in-process through llama.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/repetition_flags.h"
#include "core/status.h"

namespace rigbench::cli {

struct EmbedOptions {
  std::vector<std::string> models;              // GGUF embedding models
  std::string queries;                          // --queries FILE; "" = the built-in set
  std::vector<int> batch_sizes{1, 8, 32, 128};  // -b: texts per call, list
  std::vector<int> threads;                     // -t: list; empty = physical cores
  int n_gpu_layers = -1;                        // -ngl
  std::string flash_attn = "auto";              // -fa
  RepetitionFlags repetition;                   // -r auto|N (passes over the query set), --ci-target, --max-time
  int warmup = 1;                               // --warmup
  bool no_warmup = false;
  std::string output = "md";  // -o md | csv | json | jsonl
  std::string db_path;        // --db
  bool no_db = false;
  std::vector<std::string> tags;
  std::string machine;
  bool progress = false;     // --progress (cli/progress_flags.h)
  bool no_progress = false;  // --no-progress
  bool verbose = false;
  // Generation flags, declared only to be refused with a reason (exit 2).
  std::vector<std::string> refused;         // the flags given, as shown in the message
  std::vector<std::string> refused_values;  // their values (unused)
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_embed_command(CLI::App& app, EmbedOptions& opts);

// Runs the job (measure/embed_job.h): validate, read the queries and models, open the
// database, run, store and print (json/jsonl: the records as they come; md/csv: the table at
// the end). Errors come back to main: kUsage for a flag, a generation flag or a model that is
// not an embedding model; the files' and the database's; the first failed run's (kRuntime,
// after the output); kInterrupted after Ctrl-C (the finished samples kept).
Status run_embed_command(EmbedOptions& opts);

}  // namespace rigbench::cli
