// rigbench: a benchmark plan, as llama-bench forms it: the cartesian product of every knob's
// list (core/knobs.h), and for each combination one pp test per -p value, one tg test per -n
// value and one pp+tg test per -pg pair.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/record.h"
#include "core/repetitions.h"

namespace rigbench::measure {

// What `rigbench bench` was asked for. Defaults are llama-bench's.
struct PlanSpec {
  std::vector<std::string> models;        // GGUF paths, in order
  std::vector<int> n_prompt = {512};      // -p: one pp test (with TTFT) per value; 0 = none
  std::vector<int> n_gen = {128};         // -n: one tg test per value; 0 = none
  std::vector<std::pair<int, int>> n_pg;  // -pg: one test per (n_prompt, n_gen) pair, both measured
  // Each knob's values by knob key (core/knobs.h), canonical text ("4", "on", "q8_0"); a knob
  // absent here runs at its default. n_threads absent = the caller's default threads.
  std::map<std::string, std::vector<std::string>> knobs;
  int repetitions = 5;            // -r N (with auto_repetitions: the minimum, at least 3)
  bool auto_repetitions = false;  // -r auto: until the 95 % interval is within ci_target_pct (core/repetitions.h)
  double ci_target_pct = 2;       // --ci-target: ± % of the mean
  double max_time_s = 20;         // --max-time: -r auto's budget per test, seconds
  int warmup = 1;                 // --warmup
  double delay_s = 0;             // --delay: seconds of cool-down before each run
  // --prompts: one suite run per knob combination instead of the pp/tg tests (n_prompt and
  // n_gen 0: the suite's prompts set the tokens; n_ctx as asked, 0 = the suite's longest).
  bool suite = false;

  // The values of knob `key`: knobs[key], or its default alone.
  std::vector<std::string> values(const std::string& key) const;
  // True when the knob's list is not just its default (the table then shows its column).
  bool varies(const std::string& key) const;
};

// One run of the plan.
struct TestCase {
  std::string model_path;
  // n_ctx = the -c value, or n_depth + n_prompt + n_gen when it is 0 (or smaller: validate
  // refuses that up front).
  BenchParams params;
  RepetitionRule rule;  // how many repetitions (params.repetitions is -r N, or auto's minimum)
};

// Expands the spec into runs. Order: model, then the knobs in core/knobs.h's order (the
// model-load knobs n_gpu_layers and load_mode first, so a model is loaded once per pair),
// then the tests: every pp, every tg, every pp+tg pair.
std::vector<TestCase> expand(const PlanSpec& spec);

}  // namespace rigbench::measure
