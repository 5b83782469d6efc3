// Test support: runs the real binary as a child process and captures what it prints.
#pragma once

#include <string>
#include <vector>

namespace rigbench::testing {

struct ProcessResult {
  int exit_code = -1;  // exit status; 128 + signal number when killed by a signal
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs `argv` (argv[0] is the program path) with stdin closed; waits for it.
// `signal_after_s` > 0 sends `sig` after that many seconds (to test interruption).
ProcessResult run_process(const std::vector<std::string>& argv, double signal_after_s = 0, int sig = 2);

}  // namespace rigbench::testing
