#include "engine/llama_build.h"

#include <ggml-backend.h>
#include <ggml.h>

#include "engine/llama_support.h"

#ifndef RIGBENCH_LLAMA_COMMIT
#define RIGBENCH_LLAMA_COMMIT "unknown"
#endif

namespace rigbench::engine {

namespace {

const char* device_type_name(enum ggml_backend_dev_type t) {
  switch (t) {
    case GGML_BACKEND_DEVICE_TYPE_GPU: return "gpu";
    case GGML_BACKEND_DEVICE_TYPE_IGPU: return "igpu";
    default: return "accel";
  }
}

}  // namespace

std::vector<std::string> ggml_backends() {
  init_llama();
  std::vector<std::string> out;
  for (size_t i = 0; i < ggml_backend_reg_count(); ++i)
    out.emplace_back(ggml_backend_reg_name(ggml_backend_reg_get(i)));
  return out;
}

std::vector<DeviceInfo> ggml_devices() {
  init_llama();
  std::vector<DeviceInfo> out;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_CPU) continue;
    DeviceInfo d;
    d.name = ggml_backend_dev_name(dev);
    d.description = ggml_backend_dev_description(dev);
    d.type = device_type_name(ggml_backend_dev_type(dev));
    size_t free = 0, total = 0;
    ggml_backend_dev_memory(dev, &free, &total);
    d.memory_total_bytes = total;
    d.memory_free_bytes = free;
    out.push_back(std::move(d));
  }
  return out;
}

std::string llama_commit() {
  const std::string configured = RIGBENCH_LLAMA_COMMIT;
  if (!configured.empty() && configured != "unknown") return configured;  // full hash when known
  return ggml_commit();
}

}  // namespace rigbench::engine
