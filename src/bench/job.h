// rigbench: the `bench` use case: runs a plan and turns each run into a RunRecord.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/energy.h"
#include "bench/plan.h"
#include "bench/runner.h"
#include "core/record.h"
#include "core/status.h"

namespace rigbench::bench {

// Energy measurement for a job (`--energy auto`).
struct EnergyConfig {
  power::MeterConfig meters;                 // where to look, what the user stated
  double idle_s = 2;                         // idle window per run, model loaded
  std::optional<cost::CostInputs> pricing;   // prices etc. when --price or --tariff was given
};

// What every record of a job shares.
struct JobContext {
  MachineInfo machine;
  BuildInfo build;
  std::vector<std::string> tags;
  std::optional<EnergyConfig> energy;        // nullopt = --energy off
};

// Receives each finished record (printing and storing happen there). An error stops the job.
using RecordSink = std::function<Status(const RunRecord&)>;

// Runs `plan` in order. `models` maps each plan model path to its inspected ModelInfo.
// For each run, the record gets a fresh record_id, test_time (UTC, run start), the run's
// results, llama.cpp's memory breakdown, the process peak RSS and, with context.energy, the
// energy of its phases (a sampler per run, an idle window first) and their cost; it then
// goes to `sink`.
// A run cut short by the cancel flag still goes to the sink when it has at least one
// sample, and then the job returns kInterrupted ("interrupted: N of M runs finished").
// Other errors (load, decode, sink) stop the job and are returned; earlier records were
// already handed on.
// `rooflines` (empty, or one per plan entry) go into the records.
Status run_plan(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                const JobContext& context, Runner& runner, const RecordSink& sink,
                const std::vector<Roofline>& rooflines = {});

// The record of a run that was not attempted (`why`, e.g. fit's refusal): its model,
// machine, knobs and roofline, no results; compare shows it as "won't fit".
RunRecord refused_record(const TestCase& tc, const ModelInfo& model, const JobContext& context, const Roofline& roofline,
                         const std::string& why);

// 32 random hex digits (std::random_device): a record's identity.
std::string new_record_id();

// The current UTC time as ISO 8601 with seconds, e.g. "2026-11-29T14:08:04Z".
std::string utc_now_iso8601();

}  // namespace rigbench::bench
