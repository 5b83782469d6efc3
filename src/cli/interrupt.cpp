#include "cli/interrupt.h"

#include <csignal>

namespace rigbench::cli {

namespace {
std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}
}  // namespace

const std::atomic<bool>& install_interrupt_flag() {
  static_assert(std::atomic<bool>::is_always_lock_free);
  struct sigaction sa{};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  return g_interrupted;
}

}  // namespace rigbench::cli
