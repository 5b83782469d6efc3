// libFuzzer target: the GGUF metadata path (model::inspect and model::read_shape, which run
// ggml's GGUF parser and rigbench's reading of keys and tensor infos) on arbitrary bytes.
// Build and run with tests/fuzz/run. A crash, hang or sanitizer report is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "model/gguf_inspect.h"
#include "model/model_shape.h"

namespace {

std::string scratch_path() {
  static const std::string path = "/dev/shm/rigbench-fuzz-" + std::to_string(::getpid()) + ".gguf";
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = scratch_path();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  (void)rigbench::model::inspect(path);
  (void)rigbench::model::read_shape(path);
  return 0;
}
