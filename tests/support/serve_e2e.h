// Test support for serve-bench's end-to-end tests (header-only: RIGBENCH_BIN and the servers'
// paths are the including test binary's definitions): a free loopback port, the real binary
// run as `rigbench serve-bench ...`, the runs of its `-o json`, and llama-server's health.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/subprocess.h"

namespace rigbench::testing {

// A port nothing listens on (bound, then closed).
inline int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

inline std::string url(int port) { return "http://127.0.0.1:" + std::to_string(port); }

// `rigbench serve-bench ARGS...`, waited for.
inline ProcessResult serve_bench(std::vector<std::string> args) {
  std::vector<std::string> argv = {RIGBENCH_BIN, "serve-bench"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

// The runs of `serve-bench -o json`, always one object {"runs": [...], "model_costs": ...}
// (empty when the output is not that shape).
inline nlohmann::json runs_of(const ProcessResult& r) {
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_object() && j.contains("runs") && j["runs"].is_array() ? j["runs"] : nlohmann::json::array();
}

// Whether a server at `port` answers /health with 200 (llama-server: the model is loaded) within 120 s.
inline bool healthy(int port) {
  for (int i = 0; i < 240; ++i) {
    const ProcessResult h =
        run_process({"/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url(port) + "/health"});
    if (h.out == "200") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return false;
}

}  // namespace rigbench::testing
