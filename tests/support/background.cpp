#include "support/background.h"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "support/subprocess.h"

namespace rigbench::testing {

Background::Background(const std::vector<std::string>& argv) {
  out_ = dir_.file("out");
  pid_ = spawn_process(argv, out_, dir_.file("err"));
}

Background::~Background() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

int Background::port() const {
  for (int i = 0; i < 300; ++i) {
    const std::string out = read_file(out_);
    if (const auto at = out.find("port "); at != std::string::npos && out.find('\n', at) != std::string::npos) {
      return std::atoi(out.c_str() + at + 5);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return -1;
}

void Background::signal(int sig) const {
  if (pid_ > 0) kill(pid_, sig);
}

std::string Background::err() const { return read_file(dir_.file("err")); }

}  // namespace rigbench::testing
