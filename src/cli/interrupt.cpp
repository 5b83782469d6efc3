#include "cli/interrupt.h"

#include <csignal>

namespace rigbench::cli {

namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};

extern "C" void on_signal(int sig) {
  g_signal.store(sig);
  g_interrupted.store(true);
  std::signal(sig, SIG_DFL);
}
}  // namespace

const std::atomic<bool>& install_interrupt_flag() {
  static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return g_interrupted;
}

int interrupt_signal() { return g_signal.load(); }

}  // namespace rigbench::cli
