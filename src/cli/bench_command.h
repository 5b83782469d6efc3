// rigbench: `rigbench bench`, the in-process benchmark.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/bench_options.h"
#include "core/status.h"

namespace rigbench::cli {

// Declares the subcommand and its flags on `app`; `opts` receives the parsed values.
CLI::App* add_bench_command(CLI::App& app, BenchOptions& opts);

// Runs the benchmark: validate, inspect models, open the database, run, store and print.
// Records go to stdout as they finish; errors come back to main, which prints them.
Status run_bench_command(BenchOptions& opts);

}  // namespace rigbench::cli
