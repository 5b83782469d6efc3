// rigbench: what this build of llama.cpp is and sees: its commit, the ggml backends compiled
// in and the devices they enumerate. The machine description (hw/describe.h) puts these
// beside the OS's and the drivers' view; hw never links the engine, so the caller (cli)
// passes them in.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::engine {

// ggml backend registry names, in registration order (e.g. "CPU", "CUDA"). Initializes
// llama.cpp first.
std::vector<std::string> ggml_backends();

// Every ggml device but the CPU, in ggml's order: name (e.g. "CUDA0"), description (the
// GPU's model), type "gpu", "igpu" or "accel", memory total and free bytes from
// ggml_backend_dev_memory. Initializes llama.cpp first.
std::vector<DeviceInfo> ggml_devices();

// The largest tensor, in bytes, that the ggml device named `device` (e.g. "Vulkan0") accepts in
// an op, found by asking the device (ggml_backend_dev_supports_op on an F32 addition, no memory
// allocated): ggml-vulkan refuses tensors beyond the device's maxStorageBufferRange (without
// 64-bit indexing) or its largest buffer; 128 MiB on Mesa's lavapipe. 0 when the device
// accepts every size tried (up to 1 TiB). Initializes llama.cpp first.
// Errors: kNotFound when ggml has no device of that name; kRuntime when the probe cannot tell
// (no ggml context for the probe, or the device refuses even 1 MiB).
Result<uint64_t> max_op_tensor_bytes(const std::string& device);

// The llama.cpp commit the binary was built against: the full hash known at configure time,
// else ggml_commit() (short).
std::string llama_commit();

}  // namespace rigbench::engine
