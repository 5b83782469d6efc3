// rigbench: what this binary was built from.
#pragma once

#include <string>

#include "core/record.h"

namespace rigbench::cli {

// rigbench version, llama.cpp commit and source, build type (from CMake at configure time).
BuildInfo build_info();

}  // namespace rigbench::cli
