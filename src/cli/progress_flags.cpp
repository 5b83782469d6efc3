#include "cli/progress_flags.h"

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

}  // namespace rigbench::cli
