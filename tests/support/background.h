// Test support: a server process started for one test (the fake LLM server, llama-server) and
// killed at its end, its stdout and stderr in files.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace rigbench::testing {

class Background {
 public:
  // Starts argv[0] (a path) with stdin closed.
  explicit Background(const std::vector<std::string>& argv);
  ~Background();
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  // The port the server printed ("port N" on stdout, as the fake does), waiting up to 30 s;
  // -1 when none came.
  int port() const;
  std::string err() const;
  // Sends `sig` to the process (SIGTERM: a server's graceful shutdown, mid-run).
  void signal(int sig) const;

 private:
  TempDir dir_;
  std::string out_;
  pid_t pid_ = -1;
};

}  // namespace rigbench::testing
