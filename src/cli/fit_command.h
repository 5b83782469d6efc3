// rigbench: `rigbench fit` (will it fit, and how fast could it be). `rigbench hw` and
// `rigbench devices` are cli/hw_command.h.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/status.h"
#include "measure/fit_job.h"

namespace rigbench::cli {

// fit's flags: what the use case is asked (measure::FitRequest, measure/fit_job.h: every field
// with its flag and default) and how the answer is printed.
struct FitOptions : measure::FitRequest {
  std::string output = "md";  // -o: md | csv | json | jsonl
  bool wide = false;          // --wide: every column in the md table
  bool predict_accuracy = false;  // --predict-accuracy: the speed prediction checked leave-one-device-out
};

// Declares `fit` and its flags on `app`; `o` receives the parsed values.
CLI::App* add_fit_command(CLI::App& app, FitOptions& o);

// Answers `o` (measure::answer_fit) and prints it on stdout: the plans (report::print_fit) or
// the catalog ranked (report::print_fit_ranking); with --check, llama.cpp's plan after them
// (md) or alone (csv, json, jsonl). Errors: kUsage for a bad -o; answer_fit's; --check's, after
// the plans in md.
Status run_fit_command(const FitOptions& o);

}  // namespace rigbench::cli
