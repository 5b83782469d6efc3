// rigbench: the `bench` use case: runs a plan and turns each run into a RunRecord.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "hw/activity.h"
#include "measure/energy.h"
#include "measure/plan.h"
#include "measure/preflight.h"
#include "measure/prompt_suite.h"
#include "measure/rpc_probe.h"
#include "measure/runner.h"
#include "measure/warnings.h"

namespace rigbench::measure {

// Energy measurement for a job (`--energy auto`).
struct EnergyConfig {
  power::MeterConfig meters;                // where to look, what the user stated
  double idle_s = 2;                        // idle window per run, model loaded
  double idle_watts = kUnmeasured;          // --idle-watts: idle power stated, W (no idle window then)
  std::optional<cost::CostInputs> pricing;  // prices etc. when --price or --tariff was given
};

// What every record of a job shares.
struct JobContext {
  MachineInfo machine;
  BuildInfo build;
  std::vector<std::string> tags;
  std::optional<EnergyConfig> energy;  // nullopt = --energy off
  hw::KernelPaths kernel;              // where the machine's activity is read (measure/noise.h)
};

// Receives each record, whatever its status (printing and storing happen there). An error
// from the sink (e.g. the database cannot be written) stops the job.
using RecordSink = std::function<Status(const RunRecord&)>;

// How a job went: runs by status (core/record.h run_status).
struct JobSummary {
  int total = 0;  // runs in the plan
  int ok = 0;
  int refused = 0;            // not attempted: fit says they will not fit (`refusals`)
  int failed = 0;             // an error after the run started (load, context, decode)
  bool interrupted = false;   // Ctrl-C: the run in progress was kept (if it had samples), the rest not run
  std::string first_problem;  // the first refusal's or failure's message, "" when none
};

// Runs `plan` in order. `models` maps each plan model path to its inspected ModelInfo.
// Every run becomes a record handed to `sink`:
// - a run with a non-empty `refusals[i]` is not attempted: a refused record (no results);
// - otherwise the record gets a fresh record_id, test_time (UTC, run start), the run's
//   results, llama.cpp's memory breakdown, the process peak RSS and, with context.energy,
//   the energy of its phases (a sampler per run, an idle window first) and their cost, its
//   precision (the stopping rule, the interval against its target) and its noise notes
//   (measure/noise.h: the samples and the machine over the run);
// - a run whose load, context or decode fails becomes a failed record (`failed` = the
//   error), and the job goes on with the next run (as Google Benchmark's SkipWithError and
//   llama-bench's failed-test count);
// - a run cut short by the cancel flag goes to the sink when it has at least one sample,
//   and the job stops there (summary.interrupted).
// Only a sink error stops the job with an error. `rooflines` and `refusals` are empty or one
// per plan entry.
Result<JobSummary> run_plan(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                            const JobContext& context, Runner& runner, const RecordSink& sink,
                            const std::vector<Roofline>& rooflines = {}, const std::vector<std::string>& refusals = {});

// A whole `rigbench bench` job: the plan, its models, and this machine as fit sees it.
struct Job {
  std::vector<TestCase> plan;
  std::map<std::string, ModelInfo> models;          // plan model path -> inspected model
  std::map<std::string, model::ModelShape> shapes;  // plan model path -> shape, for fit
  fit::Target target;  // this machine: preflight refuses a run that will not fit, bounds tg
  std::map<std::string, fit::SplitSetup> rpc_splits;  // --rpc value -> the split over its servers (as fit --rpc
                                                      // plans it), for the runs with that value
  bool force = false;  // --force: refuse nothing
  JobContext context;
};

// Reads every model of `paths` into job.models and job.shapes (model::check_model_file, the
// validation fit runs too, then llama.cpp's own check that it can load it), before anything runs, so that a bad file
// measures and stores nothing. Errors: the first bad file's (kNotFound, kInvalidInput), one
// line naming it.
Status inspect_models(const std::vector<std::string>& paths, Job& job);

// Every run's placement checked against this build (engine::check_placement: -dev, -ot, -sm,
// -fitt/-fitc), before anything runs or is opened. Errors: the first run's (kUsage, one line).
Status check_placements(const std::vector<TestCase>& plan);

// --rpc value -> the servers it names, as probed (measure/rpc_probe.h).
using RpcServers = std::map<std::string, std::vector<fit::RpcServerMemory>>;

// `bench`'s checks before anything opens or runs, in this order: every model of spec.models
// inspected into job.models and job.shapes (inspect_models); an encoder refused (a model whose
// header says causal costs no second load; bench_refusal_for_encoder); job.plan = expand(spec)
// with its placements checked (check_placements); every rpc-server of the plan probed
// (probe_rpc_servers: it answers, speaks our protocol, has a device; ggml's own client would
// abort the process on any of these). Returns the probed servers, for set_job_target. Errors:
// inspect_models'; kInvalidInput with llama.cpp's reason, kUsage naming `rigbench embed PATH`
// for an encoder; check_placements'; probe_rpc_servers'.
Result<RpcServers> prepare_job(const PlanSpec& spec, Job& job);

// job.target = `target` (this machine as fit sees it) and, for each --rpc value of `servers`,
// job.rpc_splits its split planned as fit --rpc plans it (fit::rpc_split_setup: the link
// 1 Gb/s assumed, the round trip the probe measured), so that the tg bound beside the measured
// tg is fit's.
void set_job_target(Job& job, const fit::Target& target, const RpcServers& servers);

// Every prompt of `suite` through each plan model's template and tokenizer at each n_ctx of
// job.plan, before anything runs (engine.load, then prepare_prompts; the model stays loaded
// for its first run). Without -c the context is known now (the longest prompt and its
// generation): a context beyond the model's trained one goes to `warn` (context_warning).
// Errors: the load's; prepare_prompts' (kUsage: a chat prompt on a model without a template, a
// prompt longer than -c).
Status check_job_prompts(const Job& job, engine::Engine& engine, const PromptSuite& suite,
                         const std::function<void(const Warning&)>& warn);

// Runs `job`: fit's plan for each run first (bench/preflight.h), then run_plan with its
// refusals and tg bounds. Errors as run_plan; unless job.force, kInvalidInput before anything
// runs when a run's KV cache types are ones llama.cpp refuses (measure::check_cache_types);
// kUsage before anything runs when a run names a device, buffer type or split this build lacks
// (check_placements).
Result<JobSummary> run_job(const Job& job, Runner& runner, const RecordSink& sink);

// The record of a run that was not attempted (`why`, e.g. fit's refusal): its model,
// machine, knobs and roofline, no results; compare shows it as "won't fit".
RunRecord refused_record(const TestCase& tc, const ModelInfo& model, const JobContext& context,
                         const Roofline& roofline, const std::string& why);

// The run in progress (inside run_plan) as a failed record (`failed` = `why`) holding its
// finished repetitions, for a failure that cannot return through the engine: an rpc-server
// lost mid-run, whose ggml client would abort the process (engine/llama_rpc.h
// on_rpc_server_lost). nullopt when no run is in progress. Thread-safe; meant for the thread
// that reports the failure while the run's thread waits inside the engine.
std::optional<RunRecord> salvage_run_in_progress(const std::string& why);

// 32 random hex digits (std::random_device): a record's identity.
std::string new_record_id();

// The current UTC time as ISO 8601 with seconds, e.g. "2026-11-29T14:08:04Z".
std::string utc_now_iso8601();

// The start of a served run's record (serve-bench, serve-bench --embeddings): a new id, now,
// `machine`, `build`, the model named from its id on the server (core/model_name.h
// served_model_name), `tags`; n_threads 0 (the server's own, not known).
RunRecord new_served_record(const MachineInfo& machine, const BuildInfo& build, const std::string& model_id,
                            const std::vector<std::string>& tags);

}  // namespace rigbench::measure
