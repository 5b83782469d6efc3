// rigbench: what this binary was built from, and where its embedded default model lives.
#pragma once

#include <string>

#include "core/record.h"

namespace rigbench::cli {

// rigbench version, llama.cpp commit and source, build type (from CMake at configure time).
BuildInfo build_info();

// The embedded default model (models/stories260K.gguf of the source tree).
std::string default_model_path();

}  // namespace rigbench::cli
