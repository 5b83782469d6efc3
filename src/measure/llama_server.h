// rigbench: a llama-server that rigbench starts itself (`rigbench tune --objective serve`, one
// per candidate): the binary built from the same llama.cpp sources (RIGBENCH_BUILD_PEERS=ON
// puts it beside rigbench, in build/bin), started on 127.0.0.1 at a free port with its output in
// a temporary log, waited for until GET /health answers 200, and stopped (SIGTERM, then
// SIGKILL) when done. Not thread-safe; one object owns one child process.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "net/url.h"

namespace rigbench::measure {

// The llama-server binary: `given` when not empty, else "llama-server" in the directory of
// this executable (/proc/self/exe). Errors: kNotFound "llama-server not found at PATH (...):
// build it from the same sources: RIGBENCH_BUILD_PEERS=ON scripts/setup", naming `flag` (the
// flag that gives another path) when the default was looked for.
Result<std::string> find_llama_server(const std::string& given, const std::string& flag);

// The last non-empty line of `text` (a server's log), trimmed; "" when none.
std::string last_log_line(const std::string& text);

class LlamaServer {
 public:
  // Starts `binary` with `args` and then "--host 127.0.0.1 --port P --no-webui" (P a port the
  // system had free a moment before), in its own process group (Ctrl-C reaches rigbench, which
  // stops it), its stdout and stderr in a temporary file; then waits until GET /health answers
  // 200, at most `timeout_s` seconds, checking every 50 ms that the child still runs and that
  // `stop` (may be null) is not set. Errors: kRuntime "refused by llama-server: <its last log
  // line>" when it exits (a flag it refuses, a model it cannot load, memory) or does not answer
  // in time (then it is killed); kInterrupted when `stop` was set; kRuntime when it cannot be
  // started at all (the system's reason).
  static Result<std::unique_ptr<LlamaServer>> start(const std::string& binary, const std::vector<std::string>& args,
                                                    double timeout_s, const std::atomic<bool>* stop);
  ~LlamaServer();  // stop()
  LlamaServer(const LlamaServer&) = delete;
  LlamaServer& operator=(const LlamaServer&) = delete;

  const net::Url& url() const { return url_; }  // http://127.0.0.1:P
  std::string log() const;                      // what it wrote so far
  // SIGTERM, then SIGKILL when it has not exited within 10 s; waits for it; removes the log.
  // Idempotent.
  void stop();

 private:
  LlamaServer() = default;
  pid_t pid_ = -1;
  net::Url url_;
  std::string log_path_;
};

}  // namespace rigbench::measure
