#include "measure/job.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>
#include <set>
#include <utility>

#include "core/model_name.h"
#include "core/repetitions.h"
#include "engine/llama_engine.h"
#include "fit/device_split.h"
#include "hw/machine.h"
#include "measure/model_kind.h"
#include "measure/noise.h"
#include "model/model_file.h"

namespace rigbench::measure {

RunRecord new_served_record(const MachineInfo& machine, const BuildInfo& build, const std::string& model_id,
                            const std::vector<std::string>& tags) {
  RunRecord rec;
  rec.record_id = new_record_id();
  rec.test_time = utc_now_iso8601();
  rec.machine = machine;
  rec.build = build;
  rec.model.name = served_model_name(model_id);  // as bench names the file (llama-server's id is its path)
  rec.params.n_threads = 0;
  rec.tags = tags;
  return rec;
}

std::string new_record_id() {
  std::random_device rd;
  char buf[33];
  std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// The run in progress, for salvage_run_in_progress().
struct InProgress {
  std::mutex mu;
  const RunRecord* record = nullptr;  // its record so far (no results)
  const Runner* runner = nullptr;
};
InProgress& in_progress() {
  static InProgress p;
  return p;
}

// What every record of the job shares, for the run `tc`: what was asked, before any
// repetition ran. A record that never gets results (refused, failed) keeps it: -r auto's mode,
// target and budget, and 0 repetitions (auto counts those run; -r N keeps the N asked).
RunRecord base_record(const TestCase& tc, const ModelInfo& model, const JobContext& context) {
  RunRecord rec;
  rec.record_id = new_record_id();
  rec.test_time = utc_now_iso8601();
  rec.machine = context.machine;
  rec.build = context.build;
  rec.model = model;
  rec.params = tc.params;
  if (tc.rule.automatic) rec.params.repetitions = 0;
  rec.precision.repetitions_mode = tc.rule.automatic ? "auto" : "fixed";
  rec.precision.ci_target_pct = tc.rule.ci_target_pct;
  if (tc.rule.automatic) rec.precision.max_time_s = tc.rule.max_time_s;
  rec.tags = context.tags;
  return rec;
}

// The record's precision: the rule, why it stopped, and whether every measured t/s has its
// 95 % interval within the target (asked of -r N too, so a fixed run says how tight it is).
Precision precision_of(const RepetitionRule& rule, const RunOutcome& outcome, const Results& results) {
  Precision p;
  p.repetitions_mode = rule.automatic ? "auto" : "fixed";
  p.ci_target_pct = rule.ci_target_pct;
  if (rule.automatic) p.max_time_s = rule.max_time_s;
  p.stopped_by = outcome.interrupted ? "interrupted" : stop_reason_name(outcome.stopped);
  bool reached = results.pp || results.tg;
  if (results.pp) reached = reached && interval_within(results.pp->samples_tps, rule.ci_target_pct);
  if (results.tg) reached = reached && interval_within(results.tg->samples_tps, rule.ci_target_pct);
  p.reached = reached;
  return p;
}

}  // namespace

RunRecord refused_record(const TestCase& tc, const ModelInfo& model, const JobContext& context,
                         const Roofline& roofline, const std::string& why) {
  RunRecord rec = base_record(tc, model, context);
  rec.roofline = roofline;
  rec.refused = why;
  return rec;
}

Result<JobSummary> run_plan(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                            const JobContext& context, Runner& runner, const RecordSink& sink,
                            const std::vector<Roofline>& rooflines, const std::vector<std::string>& refusals) {
  JobSummary summary;
  summary.total = static_cast<int>(plan.size());
  auto problem = [&summary](const std::string& what) {
    if (summary.first_problem.empty()) summary.first_problem = what;
  };
  double finished_s = 0;  // wall time of the runs finished so far, for the progress's estimate
  int finished = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const TestCase& tc = plan[i];
    const int after = static_cast<int>(plan.size() - i - 1);
    runner.set_position(static_cast<int>(i + 1), static_cast<int>(plan.size()), models.at(tc.model_path).name,
                        finished > 0 ? after * finished_s / finished : std::nan(""));
    const Roofline roofline = i < rooflines.size() ? rooflines[i] : Roofline{};
    if (i < refusals.size() && !refusals[i].empty()) {
      if (Status s = sink(refused_record(tc, models.at(tc.model_path), context, roofline, refusals[i])); !s) {
        return std::unexpected(s.error());
      }
      ++summary.refused;
      problem(refusals[i]);
      continue;
    }
    RunRecord rec = base_record(tc, models.at(tc.model_path), context);
    rec.roofline = roofline;

    // Energy: a sampler per run (meters reopened each time), phases marked by the runner.
    std::unique_ptr<EnergySession> session;
    std::vector<power::MeterStatus> meter_status;
    if (context.energy) session = EnergySession::open(context.energy->meters, &meter_status);
    if (session) {
      if (Status s = session->start(); !s) return std::unexpected(s.error());
      // A stated idle power (--idle-watts) replaces the idle window.
      const double idle_s = std::isnan(context.energy->idle_watts) ? context.energy->idle_s : 0;
      runner.set_phase_marker([&session](const std::string& phase) { session->mark(phase); }, idle_s);
    } else {
      runner.set_phase_marker({}, 0);
    }

    const MachineWatch watch(context.kernel);
    {
      std::lock_guard<std::mutex> lock(in_progress().mu);
      in_progress().record = &rec;
      in_progress().runner = &runner;
    }
    auto outcome = runner.run(tc);
    {
      std::lock_guard<std::mutex> lock(in_progress().mu);
      in_progress().record = nullptr;
      in_progress().runner = nullptr;
    }
    if (!outcome) {
      rec.failed = outcome.error().message;
      rec.memory.peak_rss_bytes = hw::peak_rss_bytes();
      if (Status s = sink(rec); !s) return std::unexpected(s.error());
      ++summary.failed;
      problem(rec.failed);
      continue;
    }
    rec.results = std::move(outcome->results);
    rec.memory.buffers = std::move(outcome->memory);
    rec.memory.peak_rss_bytes = hw::peak_rss_bytes();
    rec.devices_used = std::move(outcome->devices_used);
    rec.topology = std::move(outcome->topology);
    rec.params = outcome->params;  // what ran: llama.cpp clamps n_ubatch to n_batch
    rec.interrupted = outcome->interrupted;
    finished_s += outcome->seconds;
    ++finished;
    rec.precision = precision_of(tc.rule, *outcome, rec.results);
    if (tc.rule.automatic)
      rec.params.repetitions = static_cast<int>(
          std::max(rec.results.pp ? rec.results.pp->tps.n : 0, rec.results.tg ? rec.results.tg->tps.n : 0));
    rec.noise = sample_notes(rec.results);
    for (auto& n : watch.finish(tc.params.n_threads)) rec.noise.push_back(std::move(n));
    if (session)
      rec.energy =
          session->finish(rec.results, context.energy->idle_s, context.energy->idle_watts, outcome->marked_tokens);
    else if (context.energy) rec.energy = unavailable_energy(meter_status);
    if (context.energy && context.energy->pricing)
      rec.cost = price_run(rec, *context.energy->pricing);

    const bool has_samples = rec.results.pp || rec.results.tg || rec.results.suite;
    if (has_samples) {
      if (Status s = sink(rec); !s) return std::unexpected(s.error());
    }
    if (outcome->interrupted) {
      summary.interrupted = true;
      if (has_samples) ++summary.ok;
      break;
    }
    ++summary.ok;
  }
  return summary;
}

std::optional<RunRecord> salvage_run_in_progress(const std::string& why) {
  std::lock_guard<std::mutex> lock(in_progress().mu);
  if (!in_progress().record || !in_progress().runner) return std::nullopt;
  RunRecord rec = *in_progress().record;
  rec.failed = why;
  rec.memory.peak_rss_bytes = hw::peak_rss_bytes();
  if (auto done = in_progress().runner->finished_so_far()) {
    rec.results = std::move(done->results);
    rec.devices_used = std::move(done->devices_used);
    rec.topology = std::move(done->topology);
    rec.params = done->params;
    rec.params.repetitions = static_cast<int>(
        std::max(rec.results.pp ? rec.results.pp->tps.n : 0, rec.results.tg ? rec.results.tg->tps.n : 0));
    rec.noise = sample_notes(rec.results);
  }
  return rec;
}

Status inspect_models(const std::vector<std::string>& paths, Job& job) {
  for (const auto& path : paths) {
    if (job.models.count(path)) continue;
    auto file = model::check_model_file(path, /*with_fingerprint=*/true);  // the check fit runs too
    if (!file) return std::unexpected(file.error());
    if (Status s = engine::check_loadable(path); !s) return s;
    job.models.emplace(path, std::move(file->info));
    job.shapes.emplace(path, std::move(file->shape));
  }
  return {};
}

Status check_placements(const std::vector<TestCase>& plan) {
  for (const TestCase& tc : plan) {
    if (Status s = engine::check_placement(tc.params); !s) return s;
  }
  return {};
}

Result<RpcServers> prepare_job(const PlanSpec& spec, Job& job) {
  if (Status s = inspect_models(spec.models, job); !s) return std::unexpected(s.error());
  // An encoder generates nothing: no pp/tg/TTFT run and no tg bound; embed measures it. A model
  // whose header says causal is none, and costs no second vocabulary load (about a second for
  // a 128k vocabulary on 2 cores, which llama-bench does not pay).
  for (const auto& path : spec.models) {
    if (job.shapes.at(path).causal) continue;
    auto refusal = bench_refusal_for_encoder(path);
    if (!refusal) return std::unexpected(refusal.error());
    if (!refusal->empty()) return fail(ErrorCode::kUsage, *refusal);
  }
  // A device, buffer type or split this build lacks, refused before anything opens or runs;
  // then every rpc-server of the plan answers, and the probe times the round trip that the
  // records keep.
  job.plan = expand(spec);
  if (Status s = check_placements(job.plan); !s) return std::unexpected(s.error());
  return probe_rpc_servers(spec);
}

void set_job_target(Job& job, const fit::Target& target, const RpcServers& servers) {
  job.target = target;
  for (const auto& [value, probed] : servers) job.rpc_splits.emplace(value, fit::rpc_split_setup(probed, target, 0, -1));
}

Status check_job_prompts(const Job& job, engine::Engine& engine, const PromptSuite& suite,
                         const std::function<void(const Warning&)>& warn) {
  std::set<std::pair<std::string, int>> checked;
  for (const TestCase& tc : job.plan) {
    if (!checked.insert({tc.model_path, tc.params.n_ctx}).second) continue;
    if (Status s = engine.load(tc.model_path, tc.params); !s) return s;
    auto prepared = prepare_prompts(engine, suite, tc.params.n_ctx);
    if (!prepared) return std::unexpected(prepared.error());
    const ModelInfo& m = job.models.at(tc.model_path);
    if (tc.params.n_ctx <= 0) {
      if (auto w = context_warning(suite_n_ctx(*prepared), m.n_ctx_train, m.name, ContextSource::kSuite)) warn(*w);
    }
  }
  return {};
}

Result<JobSummary> run_job(const Job& job, Runner& runner, const RecordSink& sink) {
  // A KV cache llama.cpp cannot create: refused before anything runs (--force tries it anyway).
  if (!job.force) {
    if (Status s = check_cache_types(job.plan, job.shapes); !s)
      return fail(s.error().code, s.error().message + " (--force tries it anyway)");
  }
  if (Status s = check_placements(job.plan); !s) return std::unexpected(s.error());
  const Preflight pre = preflight(job.plan, job.shapes, job.target, job.force, job.rpc_splits);
  return run_plan(job.plan, job.models, job.context, runner, sink, pre.rooflines, pre.refusals);
}

}  // namespace rigbench::measure
