// rigbench: the options of `rigbench bench`. The run knobs (-t, -ngl, -fa, ...) are declared
// from core/knobs.h, so a knob's flag, help and default live in one place; the rest are
// declared here. Validation is separate and names the flag.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/cost_flags.h"
#include "core/status.h"
#include "measure/plan.h"

namespace rigbench::cli {

struct BenchOptions {
  measure::PlanSpec plan;                // models, tests and every knob's list (see bench/plan.h)
  std::vector<std::string> model_flags;  // -m/--model (llama-bench's spelling), added to plan.models
  std::vector<std::string> pg;           // -pg PP,TG: one pp+tg test per pair (repeatable)
  std::vector<std::string> mmap;         // -mmp 0|1 (llama-bench, deprecated there): -lm none|mmap
  std::string repetitions = "auto";      // -r: "auto" (until the interval is tight) or N
  bool no_warmup = false;                // --no-warmup: as --warmup 0
  std::string output = "md";             // -o: md | csv | json | jsonl | sql
  std::string db_path;                   // --db: SQLite file; empty = the default path
  bool no_db = false;                    // --no-db: store nothing
  std::vector<std::string> tags;         // --tag: free text kept with every record
  std::string machine;          // --machine: the machine's name in records (machine.hostname); empty = the host's name
  bool force = false;           // --force: run even when fit says it will not fit
  bool progress = false;        // --progress: progress lines on stderr even when it is not a terminal
  bool no_progress = false;     // --no-progress: no progress, even on a terminal
  bool verbose = false;         // -v/--verbose: llama.cpp's own log on stderr
  bool wide = false;            // --wide: every column in the markdown table
  std::string energy = "auto";  // --energy auto|off: measure energy with the meters found
  double idle_s = 2;            // --idle-seconds: idle baseline per run (model loaded)
  double watts = 0;             // --watts: a constant power the user states (W), as a meter
  std::string power_log;        // --power-log: CSV timestamp,watts of a wall meter
  double estimate_tdp_w = 0;    // --estimate-power TDP: TDP x CPU utilization, asked for explicitly
  CostFlags cost;               // --price/--tariff/--currency/... (see cli/cost_flags.h)
  std::string prompts;          // --prompts FILE|builtin: a prompt suite instead of the pp/tg tests
  bool ignore_eos = false;      // --ignore-eos: a suite's prompts generate their n_gen, end of generation or not
};

// Declares the flags of `bench` on `cmd`, bound to `opts`.
void add_bench_options(CLI::App& cmd, BenchOptions& opts);

// Checks and completes parsed options: every knob value normalized (core/knobs.h: -fa 1 ->
// on, -ctk Q8_0 -> q8_0, integers in range); -m added to the models; -pg pairs parsed; -mmp
// mapped to -lm; -o a known format; --db and --no-db not both; a quantized V cache with
// -fa off, or -c smaller than a test needs, refused up front; n_threads defaulted to
// `default_threads`. Models are left as given (empty = the caller's default).
// Errors: kUsage naming the flag and the bad value.
Status validate(BenchOptions& opts, int default_threads);

}  // namespace rigbench::cli
