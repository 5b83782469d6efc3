// rigbench: the `embed` use case: every embedding model at every thread count, each run timed
// by measure::run_embed (latency at batch 1, throughput per batch size) and made a RunRecord.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "core/repetitions.h"
#include "engine/embedder.h"
#include "hw/activity.h"
#include "measure/embed.h"
#include "measure/job.h"  // RecordSink

namespace rigbench::measure {

// A whole `rigbench embed` job.
struct EmbedJob {
  std::vector<std::string> models;               // GGUF paths, run in this order
  std::map<std::string, ModelInfo> model_infos;  // path -> inspected model (prepare_embed_job)
  EmbedSpec base;                                // the query set and batch sizes; model_path and params are set per run
  std::vector<int> threads;                      // one run per model and thread count, in this order
  BenchParams params;   // n_gpu_layers, flash_attn, repetitions (-r N), warmup (the rest is set per run)
  RepetitionRule rule;  // -r auto's rule (EmbedSpec::rule); not automatic: params.repetitions passes
  hw::KernelPaths kernel;  // where the machine's activity is read for the noise notes (measure/noise.h)
  MachineInfo machine;  // what every record shares
  BuildInfo build;
  std::vector<std::string> tags;
};

// Reads the query set into job.base (`queries`: a file, or "" for the built-in set, named
// "builtin" in the records) and inspects every model of job.models into job.model_infos (as
// bench inspects them), then checks that each is an embedding model (check_embedding_model),
// before anything runs. Errors, in that order: the query file's (kNotFound, kInvalidInput),
// the first bad model file's (kNotFound, kInvalidInput), kUsage for a model that is not an
// embedding model.
Status prepare_embed_job(EmbedJob& job, const std::string& queries);

// How a job went.
struct EmbedJobSummary {
  int kept = 0;              // records handed to the sink
  bool interrupted = false;  // `cancel` was set: the run in progress kept with its finished samples, no more run
  Status problem;            // the first failed run's error (its record kept, marked failed); ok when none
};

// Runs every model of `job` at every thread count on `embedder`. Each run becomes a record
// (a fresh record_id, test_time at its start, the machine, build and tags, the run's knobs
// with embeddings=1 and n_batch the largest batch size, its EmbeddingResult, llama.cpp's
// memory and the peak RSS, its precision (the rule, why the passes stopped, whether every
// phase's interval is within the target), the machine's noise notes over the run (another
// process's CPU time, steal, governor, throttling: measure/noise.h MachineWatch, as bench);
// energy is not measured, said in its notes) handed to `sink` when it
// has a latency sample or failed. A run that fails at run time is kept marked failed and the
// job goes on. `progress` (may be empty) gets run_embed's lines. Errors: a query or model that
// run_embed refuses (kInvalidInput, kUsage) and the sink's error end the job; the records
// before are in the sink.
Result<EmbedJobSummary> run_embed_job(const EmbedJob& job, engine::Embedder& embedder, const std::atomic<bool>& cancel,
                                      const std::function<void(const std::string&)>& progress, const RecordSink& sink);

}  // namespace rigbench::measure
