// rigbench: AMD GPUs as the amdgpu driver describes them in sysfs (no ROCm needed):
// /sys/class/drm/card<N>/device/{vendor, device, mem_info_vram_total, mem_info_vram_used,
// product_name}. hw::describe lists them beside the devices ggml sees.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::hw {

// Every AMD GPU (PCI vendor 0x1002) under `drm_root` with a VRAM size. name "amdgpu:cardN",
// description product_name (else "AMD GPU 0x<device>"), type "gpu", memory bytes from
// mem_info_vram_total and (total - mem_info_vram_used). Never fails: unreadable entries are
// skipped. `drm_root` defaults to $RIGBENCH_DRM_ROOT, else /sys/class/drm.
std::vector<DeviceInfo> amd_gpus(std::string drm_root = "");

}  // namespace rigbench::hw
