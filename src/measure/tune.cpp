#include "measure/tune.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "core/knobs.h"
#include "core/llama_commands.h"
#include "core/noise_note.h"
#include "core/stats.h"
#include "core/strings.h"
#include "hw/describe.h"
#include "measure/preflight.h"
#include "measure/tune_serve.h"

namespace rigbench::measure {

const char* tune_objective_name(TuneObjective o) {
  switch (o) {
    case TuneObjective::kTg: return "tg";
    case TuneObjective::kPp: return "pp";
    case TuneObjective::kTtft: return "ttft";
    case TuneObjective::kBalanced: return "balanced";
    case TuneObjective::kServe: return "serve";
  }
  return "";
}

Result<TuneObjective> parse_tune_objective(const std::string& text) {
  for (TuneObjective o : {TuneObjective::kTg, TuneObjective::kPp, TuneObjective::kTtft, TuneObjective::kBalanced,
                          TuneObjective::kServe}) {
    if (text == tune_objective_name(o)) return o;
  }
  return fail(ErrorCode::kUsage, "--objective '" + text + "': expected tg, pp, ttft, balanced or serve");
}

namespace {

bool processes_prompt(TuneObjective o) { return o != TuneObjective::kTg; }

// Distinct positive values, in the order given.
std::vector<std::string> distinct(const std::vector<int>& values) {
  std::vector<std::string> out;
  for (int v : values) {
    const std::string s = std::to_string(v);
    if (v >= 0 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

// The test's tokens of the screen round: a quarter of the generated tokens (at least 16); the
// prompt as it is, since the batch sizes raced act on the whole prompt.
TestCase screen_test(const TestCase& full) {
  TestCase tc = full;
  if (tc.params.n_gen > 0) tc.params.n_gen = std::max(16, tc.params.n_gen / 4);
  return tc;
}

}  // namespace

int serve_requests_per_run(const TuneServe& serve) {
  return serve.num_requests > 0 ? serve.num_requests : std::max(8, 4 * serve.concurrency);
}

std::map<std::string, std::vector<std::string>> tune_knobs(const MachineInfo& machine, const model::ModelShape& shape,
                                                           TuneObjective objective) {
  std::map<std::string, std::vector<std::string>> out;
  const int cores = std::max(1, machine.cores > 0 ? machine.cores : machine.threads);
  const int logical = std::max(cores, machine.threads);
  out["n_threads"] = distinct({cores, std::max(1, cores / 2), logical});
  out["flash_attn"] = {"on", "off"};
  out["type_k"] = {"f16", "q8_0"};
  out["type_v"] = {"f16", "q8_0"};
  out["poll"] = {"0", "50"};
  if (processes_prompt(objective)) out["n_ubatch"] = {"256", "512"};
  if (std::any_of(machine.gpus.begin(), machine.gpus.end(), hw::offloadable)) {
    const int blocks = static_cast<int>(shape.n_layer);
    out["n_gpu_layers"] = {"-1"};
    for (const std::string& v : distinct({blocks / 2, 0})) out["n_gpu_layers"].push_back(v);
    if (shape.n_expert > 0) out["n_cpu_moe"] = distinct({0, blocks / 4, blocks / 2, blocks});
  }
  return out;
}

std::vector<TuneCandidate> tune_candidates(const TuneSpec& spec, const Job& job) {
  const MachineInfo& machine = job.context.machine;
  const model::ModelShape& shape = job.shapes.at(spec.model_path);
  PlanSpec plan;
  plan.models = {spec.model_path};
  // balanced and serve: one request of -p then -n tokens (a -pg test; serve's records and
  // printed commands carry both).
  const bool whole_request = spec.objective == TuneObjective::kBalanced || spec.objective == TuneObjective::kServe;
  plan.n_prompt = {processes_prompt(spec.objective) && !whole_request ? spec.n_prompt : 0};
  plan.n_gen = {spec.objective == TuneObjective::kTg ? spec.n_gen : 0};
  if (whole_request) plan.n_pg = {{spec.n_prompt, spec.n_gen}};
  plan.knobs = tune_knobs(machine, shape, spec.objective);
  for (const auto& [key, values] : spec.knobs) plan.knobs[key] = values;
  plan.knobs["n_ctx"] = {std::to_string(spec.n_ctx)};
  plan.knobs["n_depth"] = {std::to_string(spec.n_depth)};
  plan.auto_repetitions = false;
  plan.warmup = spec.warmup;
  const bool user_cache = spec.knobs.count("type_k") > 0 || spec.knobs.count("type_v") > 0;
  const bool user_fa = spec.knobs.count("flash_attn") > 0;

  std::vector<TuneCandidate> out;
  for (TestCase& tc : expand(plan)) {
    TuneCandidate c;
    c.test = std::move(tc);
    const BenchParams& p = c.test.params;
    // Tune's own lists tie K and V and never pair a quantized V with flash attention off.
    if (!user_cache && p.type_k != p.type_v) continue;
    // llama.cpp's rules for the KV cache (fit::check_cache_types): tune's own lists never pair a
    // quantized V with flash attention off; what the user asked for is shown refused.
    if (Status s = check_cache_types({c.test}, job.shapes); !s) {
      if (!user_cache && !user_fa && p.flash_attn == "off" && quantized_kv_type(p.type_v)) continue;
      c.dropped = s.error().message;
    }
    if (const auto unmapped = llama_server_unmapped(p);
        spec.objective == TuneObjective::kServe && c.dropped.empty() && !unmapped.empty()) {
      c.dropped = "llama-server's command line does not carry " + join(unmapped, ", ");
    }
    out.push_back(std::move(c));
  }
  // fit's plan for every candidate at the user's context and slots: what will not fit is dropped.
  std::vector<TestCase> tests;
  for (const auto& c : out) tests.push_back(c.test);
  const Preflight pre = preflight(tests, job.shapes, job.target, /*force=*/false, job.rpc_splits, spec.n_parallel);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].roofline = pre.rooflines[i];
    if (out[i].dropped.empty() && !pre.refusals[i].empty()) {
      out[i].dropped = pre.refusals[i];
      out[i].does_not_fit = true;
    }
  }
  return out;
}

std::vector<double> objective_samples(TuneObjective objective, const RunRecord& rec, bool slo_set) {
  const Results& r = rec.results;
  switch (objective) {
    case TuneObjective::kServe:
      if (!rec.server || rec.server->completed == 0) return {};
      return {slo_set ? rec.server->goodput_rps : rec.server->output_tps};
    case TuneObjective::kTg: return r.tg ? r.tg->samples_tps : std::vector<double>{};
    case TuneObjective::kPp: return r.pp ? r.pp->samples_tps : std::vector<double>{};
    case TuneObjective::kTtft: return r.ttft ? to_milliseconds(r.ttft->samples_ns) : std::vector<double>{};
    case TuneObjective::kBalanced: {
      std::vector<double> out;
      if (!r.pp || !r.tg) return out;
      const size_t n = std::min(r.pp->samples_ns.size(), r.tg->samples_ns.size());
      for (size_t i = 0; i < n; ++i) {
        const double s = static_cast<double>(r.pp->samples_ns[i] + r.tg->samples_ns[i]) / 1e9;
        if (s > 0) out.push_back((r.pp->n_tokens + r.tg->n_tokens) / s);
      }
      return out;
    }
  }
  return {};
}

int tune_tokens_needed(const TuneSpec& spec) {
  const bool tg = spec.objective == TuneObjective::kTg;
  return spec.n_depth + (tg ? 0 : spec.n_prompt) + (tg || spec.objective == TuneObjective::kBalanced ? spec.n_gen : 0);
}

std::string lower_default_ctx(TuneSpec& spec, uint32_t n_ctx_train) {
  const int train = static_cast<int>(n_ctx_train);
  const int per_slot = spec.objective == TuneObjective::kServe ? spec.n_prompt + spec.n_gen : 0;
  const bool holds = train >= tune_tokens_needed(spec) && train / std::max(spec.n_parallel, 1) >= per_slot;
  if (train <= 0 || train >= spec.n_ctx || !holds) return "";
  spec.n_ctx = train;
  return "n_ctx " + std::to_string(train) + ", the model's n_ctx_train (below the default " +
         std::to_string(kTuneDefaultCtx) + "; -c N sets it)";
}

std::string objective_label(const TuneSpec& spec) {
  const std::string pp = "pp" + std::to_string(spec.n_prompt), tg = "tg" + std::to_string(spec.n_gen);
  const std::string at = spec.n_depth > 0 ? " @ d" + std::to_string(spec.n_depth) : "";
  switch (spec.objective) {
    case TuneObjective::kTg: return tg + at + " t/s";
    case TuneObjective::kPp: return pp + at + " t/s";
    case TuneObjective::kTtft: return "TTFT" + at + " ms (" + pp + ")";
    case TuneObjective::kBalanced: return pp + "+" + tg + at + " t/s";
    case TuneObjective::kServe: {
      const std::string load = "c=" + std::to_string(spec.serve.concurrency) + ", " + pp + "+" + tg;
      if (spec.serve.slo.any()) return "goodput req/s (" + load + ", SLO " + spec.serve.slo_text + ")";
      return "out t/s (" + load + ")";
    }
  }
  return "";
}

std::string objective_unit(const TuneSpec& spec) {
  if (spec.objective == TuneObjective::kTtft) return "ms";
  if (spec.objective == TuneObjective::kServe && spec.serve.slo.any()) return "req/s";
  return "t/s";
}

void count_machine_noise(TuneResult& result, const RunRecord& trial) {
  bool disturbed = false;
  for (const NoiseNote& n : trial.noise) {
    if (!disturbs_run(n.code)) continue;
    disturbed = true;
    const auto seen = std::find_if(result.machine_noise.begin(), result.machine_noise.end(),
                                   [&](const NoiseNote& m) { return m.code == n.code; });
    if (seen == result.machine_noise.end()) result.machine_noise.push_back(n);
  }
  result.disturbed_trials += disturbed;
}

Result<TuneResult> run_tune(const TuneSpec& spec, const Job& job, Runner& runner, const RecordSink& sink) {
  TuneResult result;
  result.tune_id = new_record_id();
  result.candidates = tune_candidates(spec, job);
  for (const Knob& k : knobs()) {
    std::set<std::string> values;
    for (const auto& c : result.candidates) values.insert(knob_text(k, c.test.params));
    if (values.size() > 1) result.varied.push_back(k.key);
  }
  for (size_t i = 0; i < result.candidates.size(); ++i) {
    if (result.candidates[i].dropped.empty()) result.raced.push_back(static_cast<int>(i));
  }
  if (result.raced.empty()) {
    // fit's numbers first: "does not fit" is the answer when any candidate got that far.
    const auto first_fit = std::find_if(result.candidates.begin(), result.candidates.end(),
                                        [](const TuneCandidate& c) { return c.does_not_fit; });
    if (first_fit != result.candidates.end()) {
      return fail(ErrorCode::kInvalidInput, "no configuration fits: " + first_fit->dropped);
    }
    return fail(ErrorCode::kInvalidInput,
                "no configuration can run: " +
                    (result.candidates.empty() ? std::string("no candidate") : result.candidates.front().dropped));
  }
  RaceConfig config = spec.race;
  config.lower_is_better = spec.objective == TuneObjective::kTtft;
  // serve's screen is the same load run as its rounds: a full sample costs one screen sample.
  config.full_to_screen_cost = spec.objective == TuneObjective::kTg         ? 4
                               : spec.objective == TuneObjective::kBalanced ? 2
                                                                            : 1;
  // Every trial's record stored, its notes of a disturbed machine counted (TuneResult::machine_noise).
  const RecordSink stored = [&](const RunRecord& rec) -> Status {
    count_machine_noise(result, rec);
    return sink(rec);
  };
  Status sink_error;
  const TrialFn trial = [&](int k, int repetitions, bool screen, int round) -> TrialOutcome {
    TrialOutcome out;
    if (!sink_error) {
      out.error = sink_error.error().message;
      out.interrupted = true;  // the database failed: stop the race, keep what was stored
      return out;
    }
    const TuneCandidate& c = result.candidates[static_cast<size_t>(result.raced[static_cast<size_t>(k)])];
    const std::vector<std::string> tags = {std::string(kTuneTagPrefix) + result.tune_id,
                                           "tune_round:" + std::to_string(round)};
    if (spec.objective == TuneObjective::kServe) {
      ServeTrial served = serve_trial(spec, job, c.test, repetitions, tags, stored);
      result.trials += served.records;
      if (!served.sink_error) sink_error = served.sink_error;
      return served.outcome;
    }
    TestCase tc = screen ? screen_test(c.test) : c.test;
    tc.rule = RepetitionRule{};
    tc.rule.repetitions = repetitions;
    tc.params.repetitions = repetitions;
    JobContext context = job.context;
    context.tags.insert(context.tags.end(), tags.begin(), tags.end());
    const auto t0 = std::chrono::steady_clock::now();
    std::string failed;
    auto summary = run_plan({tc}, job.models, context, runner,
                            [&](const RunRecord& rec) -> Status {
                              ++result.trials;
                              out.samples = objective_samples(spec.objective, rec);
                              if (!rec.failed.empty()) failed = rec.failed;
                              return stored(rec);
                            },
                            {c.roofline});
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!summary) {
      sink_error = std::unexpected(summary.error());
      out.interrupted = true;
      return out;
    }
    out.interrupted = summary->interrupted;
    out.error = failed;
    if (failed.empty() && !out.interrupted && out.samples.empty()) out.error = "the test gave no samples";
    return out;
  };
  result.race = race(static_cast<int>(result.raced.size()), config, trial);
  if (!sink_error) return std::unexpected(sink_error.error());
  return result;
}

}  // namespace rigbench::measure
