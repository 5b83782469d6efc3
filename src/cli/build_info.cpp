#include "cli/build_info.h"

#include "engine/llama_build.h"
#include "hw/describe.h"

namespace rigbench::cli {

BuildInfo build_info() {
  BuildInfo b;
  b.rigbench_version = RIGBENCH_VERSION;
  b.llama_cpp_commit = engine::llama_commit();
  b.llama_cpp_source = RIGBENCH_LLAMA_SOURCE;
  b.build_type = RIGBENCH_BUILD_TYPE;
  return b;
}

MachineInfo machine_info() { return hw::describe({engine::ggml_backends(), engine::ggml_devices()}); }

}  // namespace rigbench::cli
