// rigbench: what this binary was built from, and the machine it runs on as this build sees it.
#pragma once

#include <string>

#include "core/record.h"

namespace rigbench::cli {

// rigbench version, llama.cpp commit and source, build type (from CMake at configure time).
BuildInfo build_info();

// This machine, described once for bench, fit and hw: hw::describe with this build's ggml
// backends and devices (engine/llama_build.h), so every subcommand lists the same GPUs.
MachineInfo machine_info();

}  // namespace rigbench::cli
