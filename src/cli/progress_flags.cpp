#include "cli/progress_flags.h"

#include <cstdio>
#include <string>

namespace rigbench::cli {

void add_progress_flags(CLI::App& cmd, bool& progress, bool& no_progress) {
  cmd.add_flag("--progress", progress,
               "progress lines on stderr even when it is not a terminal (on a terminal: on by default)");
  cmd.add_flag("--no-progress", no_progress, "no progress, even on a terminal");
}

Result<bool> show_progress(bool progress, bool no_progress, bool stderr_is_terminal) {
  if (progress && no_progress) return fail(ErrorCode::kUsage, "--progress and --no-progress: give one, not both");
  return !no_progress && (progress || stderr_is_terminal);
}

std::function<void(const measure::Progress&)> progress_printer(bool show, bool rewrite) {
  return [show, rewrite](const measure::Progress& p) {
    if (!show) return;
    const std::string line = measure::progress_line(p);
    if (rewrite) std::fprintf(stderr, "\r\033[K%s", line.c_str());
    else std::fprintf(stderr, "rigbench: %s\n", line.c_str());
    std::fflush(stderr);
  };
}

}  // namespace rigbench::cli
