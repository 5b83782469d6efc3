// rigbench: the `tune` use case: which flags run this model fastest on this machine, at the
// context and parallelism the user needs. Candidates are the cartesian product of knob lists
// (tune's own for this machine's backends, or the user's: tune_knobs), each planned by fit
// first (what does not fit, or what llama.cpp refuses, is dropped with the reason), then raced
// (measure/race.h) with bench's runner, every trial a stored record tagged with the tune run.
// docs/tune.md says how it decides and how sure it is.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "measure/job.h"
#include "measure/race.h"

namespace rigbench::measure {

// What tune ranks by. tg: the tg test's t/s; pp: the pp test's t/s; ttft: the pp test's time
// to first token, ms (lower is better); balanced: one request's tokens over its time, t/s:
// (n_prompt + n_gen) / (pp time + tg time) per repetition, as a -pg test measures it.
enum class TuneObjective { kTg, kPp, kTtft, kBalanced };

// "tg", "pp", "ttft", "balanced".
const char* tune_objective_name(TuneObjective o);

// Parses `text` (one of the names above). Errors: kUsage naming --objective and the values.
Result<TuneObjective> parse_tune_objective(const std::string& text);

struct TuneSpec {
  std::string model_path;
  int n_ctx = 4096;      // -c: the context every candidate is planned (fit) and created at, tokens
  int n_parallel = 1;    // -np: the server's slots, for the printed commands (fit plans n_ctx cells either way)
  int n_depth = 0;       // -d: tokens in the KV cache before each timed test
  int n_prompt = 512;    // -p: the pp test's tokens (objectives pp, ttft, balanced)
  int n_gen = 128;       // -n: the tg test's tokens (objectives tg, balanced)
  TuneObjective objective = TuneObjective::kTg;
  // The user's knob lists (canonical text, as bench's PlanSpec::knobs): each replaces tune's
  // own list for that knob; a knob in neither runs at its default.
  std::map<std::string, std::vector<std::string>> knobs;
  RaceConfig race;       // --max-time is race.budget_s; lower_is_better is set from the objective
  int warmup = 1;        // warmup passes per trial (bench's --warmup)
  std::vector<std::string> tags;  // --tag, kept with every trial's record besides the tune tag
};

// Tune's own knob lists for this machine (the keys of core/knobs.h), for knobs the user did
// not list: threads at the physical core count, half of it and the logical CPU count;
// flash attention on and off; the KV cache at f16 and q8_0 (K and V alike); poll 0 and 50;
// for the objectives that process a prompt, -ub 256 and 512; with a GPU that this build
// offloads to, -ngl all, half the blocks and 0, and for a mixture of experts -ncmoe 0, a
// quarter, half and all of the blocks. `machine` is hw::machine_info()'s.
std::map<std::string, std::vector<std::string>> tune_knobs(const MachineInfo& machine, const model::ModelShape& shape,
                                                           TuneObjective objective);

// One configuration tune considered.
struct TuneCandidate {
  TestCase test;        // the full test: the candidate's knobs, the objective's tokens, n_ctx, fixed repetitions
  std::string dropped;  // "" = raced; else why not, one line: fit's refusal, or llama.cpp's rule
  bool does_not_fit = false;  // dropped because fit says it will not fit this machine
  Roofline roofline;          // fit's tg bound for it (preflight)
};

// The candidates of `spec` for `job` (its model inspected, its machine and target set:
// prepare_job, set_job_target; tune_knobs reads job.context.machine): the product of `spec.knobs` over tune_knobs for the rest, in the plan's
// order (core/knobs.h: model-load knobs outermost, so the model loads once per value); K and V
// cache types tied (equal) unless the user listed either; a KV cache llama.cpp refuses for the
// model (fit::check_cache_types) dropped with the reason (tune's own lists never pair a
// quantized V with flash attention off); each planned by fit at
// spec.n_ctx (measure::preflight) and dropped when it does not fit.
std::vector<TuneCandidate> tune_candidates(const TuneSpec& spec, const Job& job);

// The objective's samples in `rec` (per repetition, in the objective's unit: t/s, or ms for
// ttft). Empty when the test did not run.
std::vector<double> objective_samples(TuneObjective objective, const RunRecord& rec);

// "tg128 t/s", "pp512 t/s", "TTFT ms (pp512)", "pp512+tg128 t/s": the figure tune ranks by.
std::string objective_label(const TuneSpec& spec);

struct TuneResult {
  std::string tune_id;  // 32 hex digits; every trial's record carries the tag "tune:<tune_id>"
  std::vector<TuneCandidate> candidates;
  std::vector<int> raced;  // race entry k is candidates[raced[k]]
  RaceResult race;
  std::vector<std::string> varied;  // knob keys whose value differs among the candidates, in knobs() order
  int trials = 0;                   // records made (every trial, failed ones too)
};

// Runs tune: the candidates, then the race, each trial one run_plan of its test (fixed
// repetitions, warmup as spec.warmup) whose record goes to `sink` tagged "tune:<id>" and
// "tune_round:<k>" (0 = the screen, a quarter of the tokens for tg; the rest the full test).
// Ctrl-C (`runner`'s cancel flag) ends the race: the trials so far are stored, the result
// holds the best so far (race.end kInterrupted). Errors: kInvalidInput when no candidate fits
// or every one is refused, naming the first reason (fit's numbers); the sink's error.
Result<TuneResult> run_tune(const TuneSpec& spec, const Job& job, Runner& runner,
                            const RecordSink& sink);

}  // namespace rigbench::measure
