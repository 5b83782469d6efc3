#include "measure/embed_job.h"

#include <algorithm>

#include "hw/machine.h"
#include "measure/model_kind.h"
#include "measure/noise.h"
#include "measure/queries.h"

namespace rigbench::measure {

Status prepare_embed_job(EmbedJob& job, const std::string& queries) {
  // The query set, then every model, before anything runs.
  auto set = read_query_set(queries);
  if (!set) return std::unexpected(set.error());
  job.base.queries = std::move(set->queries);
  job.base.query_set = std::move(set->name);
  Job inspected;
  if (Status s = inspect_models(job.models, inspected); !s) return s;
  job.model_infos = std::move(inspected.models);
  for (const auto& path : job.models) {
    if (Status s = check_embedding_model(path); !s) return s;
  }
  return {};
}

Result<EmbedJobSummary> run_embed_job(const EmbedJob& job, engine::Embedder& embedder, const std::atomic<bool>& cancel,
                                      const std::function<void(const std::string&)>& progress, const RecordSink& sink) {
  EmbedJobSummary summary;
  for (const auto& path : job.models) {
    for (int t : job.threads) {
      EmbedSpec spec = job.base;
      spec.model_path = path;
      BenchParams& p = spec.params;
      p = job.params;
      p.n_prompt = 0;
      p.n_gen = 0;
      p.n_threads = t;
      p.embeddings = 1;
      p.n_batch = p.n_ubatch = *std::max_element(job.base.batch_sizes.begin(), job.base.batch_sizes.end());
      RunRecord rec;
      rec.record_id = new_record_id();
      rec.test_time = utc_now_iso8601();
      rec.machine = job.machine;
      rec.build = job.build;
      rec.model = job.model_infos.at(path);
      rec.params = p;
      rec.tags = job.tags;
      spec.rule = job.rule;
      const MachineWatch watch(job.kernel);
      auto outcome = run_embed(embedder, spec, cancel, progress);
      rec.noise = watch.finish(t);
      if (!outcome) {
        if (outcome.error().code == ErrorCode::kInvalidInput || outcome.error().code == ErrorCode::kUsage) {
          return std::unexpected(outcome.error());
        }
        rec.failed = outcome.error().message;
        if (summary.problem) summary.problem = std::unexpected(outcome.error());
      } else {
        rec.results.embedding = std::move(outcome->result);
        rec.memory.buffers = std::move(outcome->memory);
        rec.devices_used = std::move(outcome->devices_used);
        rec.interrupted = outcome->interrupted;
        rec.precision.repetitions_mode = job.rule.automatic ? "auto" : "fixed";
        rec.precision.ci_target_pct = job.rule.ci_target_pct;
        if (job.rule.automatic) {
          rec.precision.max_time_s = job.rule.max_time_s;
          rec.params.repetitions = outcome->latency_passes;
        }
        rec.precision.stopped_by = outcome->stopped_by;
        rec.precision.reached = outcome->reached;
      }
      rec.memory.peak_rss_bytes = hw::peak_rss_bytes();
      rec.energy.notes = {"rigbench embed does not measure energy yet"};
      const bool has_samples = rec.results.embedding && rec.results.embedding->latency.ms.n > 0;
      if (has_samples || !rec.failed.empty()) {
        if (Status s = sink(rec); !s) return std::unexpected(s.error());
        ++summary.kept;
      }
      if (rec.interrupted) {
        summary.interrupted = true;
        return summary;
      }
    }
  }
  return summary;
}

}  // namespace rigbench::measure
