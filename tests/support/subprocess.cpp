#include "support/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "support/temp_dir.h"

extern char** environ;

namespace rigbench::testing {

pid_t spawn_process(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

namespace {

// spawn_process, or an exception when it cannot start.
pid_t spawn(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path) {
  const pid_t pid = spawn_process(argv, out_path, err_path);
  if (pid < 0) throw std::runtime_error("posix_spawn failed for " + argv[0]);
  return pid;
}

ProcessResult finish(pid_t pid, const std::string& out_path, const std::string& err_path) {
  int status = 0;
  waitpid(pid, &status, 0);
  ProcessResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

}  // namespace

std::vector<std::string> argv_plus(std::vector<std::string> argv, const std::vector<std::string>& extra) {
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

ProcessResult run_process(const std::vector<std::string>& argv, double signal_after_s, int sig) {
  TempDir dir;
  const std::string out_path = dir.file("stdout"), err_path = dir.file("stderr");
  const pid_t pid = spawn(argv, out_path, err_path);
  if (signal_after_s > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(signal_after_s));
    kill(pid, sig);
  }
  return finish(pid, out_path, err_path);
}

ProcessResult run_process_signal_when(const std::vector<std::string>& argv, int sig,
                                      const std::function<bool(const std::string&)>& ready, bool& ready_seen) {
  TempDir dir;
  const std::string out_path = dir.file("stdout"), err_path = dir.file("stderr");
  const pid_t pid = spawn(argv, out_path, err_path);
  ready_seen = false;
  for (int i = 0; i < 6000; ++i) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {  // ended before it was ready
      ProcessResult r;
      r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      r.out = read_file(out_path);
      r.err = read_file(err_path);
      return r;
    }
    if (ready(read_file(err_path))) {
      ready_seen = true;
      kill(pid, sig);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return finish(pid, out_path, err_path);
}

}  // namespace rigbench::testing
