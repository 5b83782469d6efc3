// rigbench: `rigbench tune`, which flags run a model fastest on this machine at the context
// the user needs: candidates planned by fit, raced with bench's runner (measure/tune.h).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::cli {

struct TuneOptions {
  std::vector<std::string> models;                         // the model (one; default: bench's embedded default)
  std::vector<std::string> model_flags;                    // -m/--model
  int n_ctx = 0;  // -c: the context planned and created; 0 = 4096, or the model's n_ctx_train where smaller
  int n_parallel = 1;                                      // -np: server slots: fit plans them; the commands
  int n_depth = 0;                                         // -d
  int n_prompt = 512;                                      // -p
  int n_gen = 128;                                         // -n
  std::string objective = "tg";                            // --objective tg|pp|ttft|balanced|serve
  int concurrency = 0;                                     // --concurrency (serve): requests in flight; 0 = -np
  int num_requests = 0;                                    // --num-requests (serve): per load run; 0 = its default
  std::string slo;                                         // --slo (serve): goodput's objectives
  std::string server_bin;                                  // --server-bin (serve): llama-server; "" = beside rigbench
  double max_time_s = 300;                                 // --max-time: seconds of trials in all
  double alpha = 0.05;                                     // --alpha
  double tie_pct = 1;                                      // --tie
  int warmup = 1;                                          // --warmup
  std::map<std::string, std::vector<std::string>> knobs;   // the knob lists given (-t 1,2 -fa on,off ...)
  std::string output = "md";                               // -o md | csv | json | jsonl
  std::string db_path;                                     // --db
  bool no_db = false;                                      // --no-db
  std::vector<std::string> tags;                           // --tag
  std::string machine;                                     // --machine
  bool progress = false, no_progress = false, verbose = false;
};

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_tune_command(CLI::App& app, TuneOptions& opts);

// Runs it: checks, the model inspected, the database opened, then measure::run_tune with every
// trial stored as it ends, then the answer printed. Errors: kUsage for bad flags; kInvalidInput
// for a bad model file or when no configuration fits (one line with fit's numbers: exit 1);
// kNotFound when --objective serve finds no llama-server (the line says how to build it: exit 1);
// kInterrupted on Ctrl-C after the best so far is printed (exit 130).
Status run_tune_command(TuneOptions& opts);

}  // namespace rigbench::cli
