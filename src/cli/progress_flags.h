// rigbench: --progress and --no-progress, one meaning for every subcommand that measures (bench,
// serve-bench, embed): progress on stderr when it is a terminal; --progress also when it is not
// (a log, CI); --no-progress never. Giving both is a usage error.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "core/status.h"
#include "measure/progress.h"

namespace rigbench::cli {

// Adds --progress (into `progress`) and --no-progress (into `no_progress`) to `cmd`.
void add_progress_flags(CLI::App& cmd, bool& progress, bool& no_progress);

// Whether to show progress, given whether stderr is a terminal. Errors: kUsage "--progress and
// --no-progress: give one, not both".
Result<bool> show_progress(bool progress, bool no_progress, bool stderr_is_terminal);

// The runner's progress on stderr (measure/progress.h progress_line): nothing unless `show`;
// one line rewritten in place when `rewrite` (a terminal: cleared before any table row and at
// the end by the caller), else a plain "rigbench: ..." line per step.
std::function<void(const measure::Progress&)> progress_printer(bool show, bool rewrite);

}  // namespace rigbench::cli
