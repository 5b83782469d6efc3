// rigbench: the `tune` use case: which flags run this model fastest on this machine, at the
// context and parallelism the user needs. Candidates are the cartesian product of knob lists
// (tune's own for this machine's backends, or the user's: tune_knobs), each planned by fit
// first (what does not fit, or what llama.cpp refuses, is dropped with the reason), then raced
// (measure/race.h) with bench's runner, every trial a stored record tagged with the tune run;
// with --objective serve, raced by serve-bench's load against a llama-server started for each
// candidate (measure/tune_serve.h).
// docs/tune.md says how it decides and how sure it is.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "measure/job.h"
#include "measure/race.h"
#include "measure/serve_metrics.h"

namespace rigbench::measure {

// What tune ranks by. tg: the tg test's t/s; pp: the pp test's t/s; ttft: the pp test's time
// to first token, ms (lower is better); balanced: one request's tokens over its time, t/s:
// (n_prompt + n_gen) / (pp time + tg time) per repetition, as a -pg test measures it; serve:
// one load run per repetition (serve-bench's, at TuneServe::concurrency) against a
// llama-server with the candidate's flags, its goodput (requests/s meeting TuneServe::slo) or,
// without an SLO, its output t/s.
enum class TuneObjective { kTg, kPp, kTtft, kBalanced, kServe };

// "tg", "pp", "ttft", "balanced", "serve".
const char* tune_objective_name(TuneObjective o);

// Parses `text` (one of the names above). Errors: kUsage naming --objective and the values.
Result<TuneObjective> parse_tune_objective(const std::string& text);

// What --objective serve adds: the server, the load, the service level.
struct TuneServe {
  std::string server_binary;     // llama-server (find_llama_server), started once per trial of a candidate
  int concurrency = 1;           // --concurrency: requests in flight in each load run (the CLI's default: -np)
  int num_requests = 0;          // --num-requests: requests counted per load run (one sample); 0 = 4 per
                                 // request in flight, at least 8
  Slo slo;                       // --slo: goodput's objectives (serve-bench's syntax); none = rank by output t/s
  std::string slo_text;          // --slo as given, kept in the records
  double start_timeout_s = 300;  // the longest wait for a server's /health, s
  const std::atomic<bool>* stop = nullptr;  // Ctrl-C: cancels the load in flight
};

// Requests counted per load run: serve.num_requests, else 4 per request in flight, at least 8.
int serve_requests_per_run(const TuneServe& serve);

struct TuneSpec {
  std::string model_path;
  int n_ctx = 4096;    // -c: the context every candidate is planned (fit) and created at, tokens
  int n_parallel = 1;  // -np: the server's slots: fit plans every candidate for this many sequences (a KV
                       // stream of n_ctx / n_parallel cells each, llama.cpp's default); the printed commands;
                       // serve: the started llama-server's -np
  int n_depth = 0;     // -d: tokens in the KV cache before each timed test
  int n_prompt = 512;  // -p: the pp test's tokens (objectives pp, ttft, balanced); serve: each request's prompt
  int n_gen = 128;     // -n: the tg test's tokens (objectives tg, balanced); serve: each request's output
  TuneObjective objective = TuneObjective::kTg;
  // The user's knob lists (canonical text, as bench's PlanSpec::knobs): each replaces tune's
  // own list for that knob; a knob in neither runs at its default.
  std::map<std::string, std::vector<std::string>> knobs;
  RaceConfig race;                // --max-time is race.budget_s; lower_is_better is set from the objective
  int warmup = 1;                 // warmup passes per trial (bench's --warmup)
  std::vector<std::string> tags;  // --tag, kept with every trial's record besides the tune tag
  TuneServe serve;                // objective serve only
};

// Tune's own knob lists for this machine (the keys of core/knobs.h), for knobs the user did
// not list: threads at the physical core count, half of it and the logical CPU count;
// flash attention on and off; the KV cache at f16 and q8_0 (K and V alike); poll 0 and 50;
// for the objectives that process a prompt, -ub 256 and 512; with a GPU that this build
// offloads to, -ngl all, half the blocks and 0, and for a mixture of experts -ncmoe 0, a
// quarter, half and all of the blocks. `machine` is hw::machine_info()'s. Every one of these
// is a llama-server flag too (core/llama_commands.h), so serve takes the same lists.
std::map<std::string, std::vector<std::string>> tune_knobs(const MachineInfo& machine, const model::ModelShape& shape,
                                                           TuneObjective objective);

// One configuration tune considered.
struct TuneCandidate {
  TestCase test;              // the full test: the candidate's knobs, the objective's tokens, n_ctx, fixed repetitions
  std::string dropped;        // "" = raced; else why not, one line: fit's refusal, or llama.cpp's rule
  bool does_not_fit = false;  // dropped because fit says it will not fit this machine
  Roofline roofline;          // fit's tg bound for it (preflight)
};

// The candidates of `spec` for `job` (its model inspected, its machine and target set:
// prepare_job, set_job_target; tune_knobs reads job.context.machine): the product of `spec.knobs` over tune_knobs for
// the rest, in the plan's order (core/knobs.h: model-load knobs outermost, so the model loads once per value); K and V
// cache types tied (equal) unless the user listed either; a KV cache llama.cpp refuses for the
// model (fit::check_cache_types) dropped with the reason (tune's own lists never pair a
// quantized V with flash attention off); each planned by fit at
// spec.n_ctx for spec.n_parallel sequences (measure::preflight) and dropped when it does not
// fit; for serve, a candidate with a knob llama-server's line does not carry
// (llama_server_unmapped) is dropped as refused.
std::vector<TuneCandidate> tune_candidates(const TuneSpec& spec, const Job& job);

// The objective's samples in `rec` (per repetition, in the objective's unit: t/s, or ms for
// ttft). Empty when the test did not run. serve: the load run's one figure (a served record's
// goodput_rps when `slo_set`, else its output_tps; nothing when no request completed).
std::vector<double> objective_samples(TuneObjective objective, const RunRecord& rec, bool slo_set = false);

// "tg128 t/s", "pp512 t/s", "TTFT ms (pp512)", "pp512+tg128 t/s", "goodput req/s (c=4, p128+n64,
// SLO ttft_ms=500)", "out t/s (c=4, p128+n64)": the figure tune ranks by.
std::string objective_label(const TuneSpec& spec);

// The unit of objective_label's figure: "t/s", "ms" (ttft) or "req/s" (serve with an SLO).
std::string objective_unit(const TuneSpec& spec);

// Tokens one trial holds in its context: n_depth plus the objective's n_prompt and n_gen.
int tune_tokens_needed(const TuneSpec& spec);

inline constexpr int kTuneDefaultCtx = 4096;  // tokens: tune's context without -c

// A tune without -c: spec.n_ctx (kTuneDefaultCtx) lowered to the model's n_ctx_train (tokens, from
// the GGUF) where that is smaller and still holds a trial (serve: a request in each of its slots);
// returns what it did, for the user ("" when it kept spec.n_ctx).
std::string lower_default_ctx(TuneSpec& spec, uint32_t n_ctx_train);

struct TuneResult {
  std::string tune_id;  // 32 hex digits; every trial's record carries the tag "tune:<tune_id>"
  std::vector<TuneCandidate> candidates;
  std::vector<int> raced;  // race entry k is candidates[raced[k]]
  RaceResult race;
  std::vector<std::string> varied;  // knob keys whose value differs among the candidates, in knobs() order
  int trials = 0;                   // records made (every trial, failed ones too)
  // Trials whose record carries a note that disturbs a whole run (core/noise_note.h
  // disturbs_run: another process, steal, throttling, the governor, drift), and the first such
  // note of each code, in the order seen: the race compares trials run one after another, so
  // such a machine can move a candidate's figures and the answer says so.
  int disturbed_trials = 0;
  std::vector<NoiseNote> machine_noise;
};

// Counts `trial` into result.disturbed_trials when its record carries a note that disturbs a
// whole run, and keeps the first note of each such code in result.machine_noise.
void count_machine_noise(TuneResult& result, const RunRecord& trial);

// Runs tune: the candidates, then the race, each trial one run_plan of its test (fixed
// repetitions, warmup as spec.warmup) whose record goes to `sink` tagged "tune:<id>" and
// "tune_round:<k>" (0 = the screen, a quarter of the tokens for tg; the rest the full test).
// Ctrl-C (`runner`'s cancel flag) ends the race: the trials so far are stored, the result
// holds the best so far (race.end kInterrupted). Errors: kInvalidInput when no candidate fits
// or every one is refused, naming the first reason (fit's numbers); the sink's error.
Result<TuneResult> run_tune(const TuneSpec& spec, const Job& job, Runner& runner, const RecordSink& sink);

}  // namespace rigbench::measure
