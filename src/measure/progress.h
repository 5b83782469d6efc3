// rigbench: what bench is doing now, for a progress line on a terminal (as hyperfine shows
// it): run i of N, the model, the test and its phase, the repetition, the time left.
#pragma once

#include <limits>
#include <string>

namespace rigbench::measure {

struct Progress {
  int run = 0, runs = 0;  // run `run` (1-based) of `runs` in the plan
  std::string model;      // the model's name
  std::string test;       // "pp512", "tg128", "pp512+tg128", with "@d4096" at depth
  std::string phase;      // "load", "idle baseline", "warmup", "depth fill", "pp", "tg"
  int repetition = 0;     // the repetition in progress, 1-based; 0 before the first
  int repetitions = 0;    // -r N; 0 with -r auto
  double ci_pct = std::numeric_limits<double>::quiet_NaN();         // -r auto: the widest ±% so far
  double ci_target_pct = std::numeric_limits<double>::quiet_NaN();  // -r auto: the target
  double eta_s = std::numeric_limits<double>::quiet_NaN();          // seconds left in the job; NaN = not known yet
};

// One line, no newline, e.g.
// "run 2/4 · Llama-3.2-1B · tg128 · tg · repetition 4 (auto: ±3.1 %, target ±2 %) · ~12 s left".
std::string progress_line(const Progress& p);

// The test's short name: pp512, tg128, pp512+tg128, with @d<depth> when at depth.
std::string test_name(int n_prompt, int n_gen, int n_depth);

}  // namespace rigbench::measure
