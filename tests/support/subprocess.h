// Test support: runs the real binary as a child process and captures what it prints.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace rigbench::testing {

struct ProcessResult {
  int exit_code = -1;  // exit status; 128 + signal number when killed by a signal
  std::string out;     // stdout
  std::string err;     // stderr
};

// Starts `argv` (argv[0] is the program path) with stdin closed, stdout and stderr written to
// the two files, and returns at once: its process id, or -1 when it cannot start.
pid_t spawn_process(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path);

// `argv` with `extra` after it: one command line and its variants ("-o json", "--wide").
std::vector<std::string> argv_plus(std::vector<std::string> argv, const std::vector<std::string>& extra);

// Runs `argv` (argv[0] is the program path) with stdin closed; waits for it.
// `signal_after_s` > 0 sends `sig` after that many seconds (to test interruption).
ProcessResult run_process(const std::vector<std::string>& argv, double signal_after_s = 0, int sig = 2);

// Runs `argv` and sends `sig` once `ready(stderr so far)` holds (checked every 20 ms, for at
// most 120 s), so that the signal lands mid-work (e.g. while a file is being written);
// `ready_seen` says whether it did.
ProcessResult run_process_signal_when(const std::vector<std::string>& argv, int sig,
                                      const std::function<bool(const std::string&)>& ready, bool& ready_seen);

}  // namespace rigbench::testing
