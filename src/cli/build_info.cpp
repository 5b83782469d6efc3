#include "cli/build_info.h"

#include "engine/llama_engine.h"

namespace rigbench::cli {

BuildInfo build_info() {
  BuildInfo b;
  b.rigbench_version = RIGBENCH_VERSION;
  b.llama_cpp_commit = engine::llama_commit();
  b.llama_cpp_source = RIGBENCH_LLAMA_SOURCE;
  b.build_type = RIGBENCH_BUILD_TYPE;
  return b;
}

}  // namespace rigbench::cli
