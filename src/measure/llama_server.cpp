#include "measure/llama_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/strings.h"
#include "net/http_client.h"

extern char** environ;

namespace rigbench::measure {

namespace {

constexpr auto kPoll = std::chrono::milliseconds(50);
constexpr double kStopGraceS = 10;

// A TCP port on 127.0.0.1 that the system had free: bound to port 0, read back, closed.
Result<int> free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return fail(ErrorCode::kRuntime, std::string("llama-server: no socket for a free port: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  const int err = errno;
  close(fd);
  if (port <= 0) return fail(ErrorCode::kRuntime, std::string("llama-server: no free port on 127.0.0.1: ") + std::strerror(err));
  return port;
}

// Whether `pid` has exited (reaped here when it has).
bool exited(pid_t pid) {
  int status = 0;
  const pid_t r = waitpid(pid, &status, WNOHANG);
  return r == pid || (r < 0 && errno == ECHILD);
}

}  // namespace

Result<std::string> find_llama_server(const std::string& given, const std::string& flag) {
  std::string path = given;
  if (path.empty()) {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    path = ec ? std::string("llama-server") : (self.parent_path() / "llama-server").string();
  }
  if (access(path.c_str(), X_OK) == 0) return path;
  return fail(ErrorCode::kNotFound, "llama-server not found at " + path +
                                        (given.empty() ? " (beside rigbench; " + flag + " PATH names another)" : "") +
                                        ": build it from the same sources: RIGBENCH_BUILD_PEERS=ON scripts/setup");
}

std::string last_log_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!trim(line).empty()) last = trim(line);
  }
  return last;
}

Result<std::unique_ptr<LlamaServer>> LlamaServer::start(const std::string& binary, const std::vector<std::string>& args,
                                                        double timeout_s, const std::atomic<bool>* stop) {
  auto port = free_port();
  if (!port) return std::unexpected(port.error());
  std::unique_ptr<LlamaServer> server(new LlamaServer());
  server->url_.host = "127.0.0.1";
  server->url_.port = *port;
  char log_template[] = "/tmp/rigbench-llama-server-XXXXXX";
  const int log_fd = mkstemp(log_template);
  if (log_fd < 0) return fail(ErrorCode::kRuntime, std::string("llama-server: no temporary log: ") + std::strerror(errno));
  close(log_fd);
  server->log_path_ = log_template;

  std::vector<std::string> words = {binary};
  words.insert(words.end(), args.begin(), args.end());
  for (const char* w : {"--host", "127.0.0.1", "--port"}) words.emplace_back(w);
  words.push_back(std::to_string(*port));
  words.emplace_back("--no-webui");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, server->log_path_.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  const int rc = posix_spawn(&server->pid_, binary.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    server->pid_ = -1;
    return fail(ErrorCode::kRuntime, "llama-server " + binary + ": cannot start: " + std::strerror(rc));
  }

  net::ClientOptions options;
  options.timeout_s = 2;
  options.connect_timeout_s = 1;
  net::HttpClient client(server->url_, options);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (true) {
    if (exited(server->pid_)) {
      server->pid_ = -1;
      return fail(ErrorCode::kRuntime, "refused by llama-server: " + last_log_line(server->log()));
    }
    if (stop && stop->load()) return fail(ErrorCode::kInterrupted, "interrupted while llama-server started");
    if (client.get("/health").status == 200) return server;
    if (std::chrono::steady_clock::now() > deadline) {
      const std::string last = last_log_line(server->log());
      return fail(ErrorCode::kRuntime, "refused by llama-server: no answer on " + server->url_.redacted() +
                                           "/health within " + format_fixed(timeout_s, 0) + " s" +
                                           (last.empty() ? "" : "; its last line: " + last));
    }
    std::this_thread::sleep_for(kPoll);
  }
}

LlamaServer::~LlamaServer() { stop(); }

std::string LlamaServer::log() const {
  std::ifstream in(log_path_);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void LlamaServer::stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kStopGraceS);
    while (!exited(pid_)) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        int status = 0;
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      std::this_thread::sleep_for(kPoll);
    }
    pid_ = -1;
  }
  if (!log_path_.empty()) {
    std::remove(log_path_.c_str());
    log_path_.clear();
  }
}

}  // namespace rigbench::measure
