// rigbench: SIGINT as a flag. The first SIGINT sets the flag (work in flight stops at the
// next decode and finished results are kept); a second one kills the process as usual.
#pragma once

#include <atomic>

namespace rigbench::cli {

// Installs the handler (idempotent) and returns the flag it sets.
const std::atomic<bool>& install_interrupt_flag();

}  // namespace rigbench::cli
