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

Result<uint64_t> max_op_tensor_bytes(const std::string& device) {
  init_llama();
  ggml_backend_dev_t dev = ggml_backend_dev_by_name(device.c_str());
  if (!dev) return fail(ErrorCode::kNotFound, "ggml has no device named '" + device + "'");
  // An addition of two F32 vectors of `bytes`: only the metadata is made (no_alloc).
  bool probed = true;  // false once a probe context cannot be made
  auto accepts = [&](uint64_t bytes) {
    ggml_init_params params{/*mem_size=*/4 * ggml_tensor_overhead() + 1024, /*mem_buffer=*/nullptr, /*no_alloc=*/true};
    ggml_context* ctx = ggml_init(params);
    if (!ctx) {
      probed = false;
      return false;
    }
    const int64_t n = static_cast<int64_t>(bytes / 4);
    ggml_tensor* a = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, n);
    ggml_tensor* b = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, n);
    const bool ok = ggml_backend_dev_supports_op(dev, ggml_add(ctx, a, b));
    ggml_free(ctx);
    return ok;
  };
  uint64_t lo = 1ull << 20, hi = 1ull << 40;  // bytes: accepted, refused (kept multiples of 4, one F32)
  if (!accepts(lo)) {
    return fail(ErrorCode::kRuntime, probed ? "device " + device + " refuses an addition of two 1 MiB F32 vectors"
                                            : "no ggml context for the probe of device " + device);
  }
  if (accepts(hi)) return uint64_t{0};
  while (hi - lo > 4) {
    const uint64_t mid = lo + (hi - lo) / 2 / 4 * 4;
    (accepts(mid) ? lo : hi) = mid;
  }
  if (!probed) return fail(ErrorCode::kRuntime, "no ggml context for the probe of device " + device);
  return lo;
}

std::string llama_commit() {
  const std::string configured = RIGBENCH_LLAMA_COMMIT;
  if (!configured.empty() && configured != "unknown") return configured;  // full hash when known
  return ggml_commit();
}

}  // namespace rigbench::engine
