// rigbench: one trial of `rigbench tune --objective serve`: a candidate's llama-server
// (measure/llama_server.h, started with the candidate's knobs as core/llama_commands.h spells
// them), serve-bench's load against it (measure/serve_job.h, one load run per repetition, at
// the spec's concurrency, its SLO), then the server stopped. docs/tune.md.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "measure/job.h"
#include "measure/race.h"
#include "measure/tune.h"

namespace rigbench::measure {

// What one serve trial gave.
struct ServeTrial {
  // The race's outcome: one sample per load run (objective_samples of its record), the wall
  // time (the server's start and stop included); `error` "refused by llama-server: <its last
  // log line>" when the server did not start, or the load's error (a warm-up that failed, the
  // server lost); `interrupted` on Ctrl-C or when the sink failed.
  TrialOutcome outcome;
  Status sink_error;  // the sink's own error (the database): the race stops
  int records = 0;    // records handed to the sink
};

// Runs `repetitions` load runs of `spec.serve` against a llama-server started for `candidate`
// (its knobs, -c spec.n_ctx, -np spec.n_parallel, on `candidate.model_path`). Each run's
// record (serve-bench's, its server part with every metric) carries the candidate's knobs in
// its params and `tags` besides the job's; it goes to `sink` as the run ends.
ServeTrial serve_trial(const TuneSpec& spec, const Job& job, const TestCase& candidate, int repetitions,
                       const std::vector<std::string>& tags, const RecordSink& sink);

}  // namespace rigbench::measure
