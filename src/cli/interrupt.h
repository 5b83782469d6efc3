// rigbench: SIGINT and SIGTERM as a flag. The first signal sets the flag (work in flight
// stops at the next decode and finished results are kept); a second one ends the process as
// the signal normally does.
#pragma once

#include <atomic>

namespace rigbench::cli {

// Installs the handlers (idempotent) and returns the flag they set.
const std::atomic<bool>& install_interrupt_flag();

// The signal that set the flag (SIGINT or SIGTERM), 0 when none did.
int interrupt_signal();

}  // namespace rigbench::cli
