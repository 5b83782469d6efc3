#include "fit/targets.h"

#include <algorithm>

#include "core/strings.h"
#include "hw/describe.h"
#include "hw/machine.h"

namespace rigbench::fit {

namespace {

std::string backend_of(const std::string& device_name) {
  const std::string n = to_lower(device_name);
  for (const char* b : {"cuda", "metal", "vulkan", "rocm", "sycl"}) {
    if (n.rfind(b, 0) == 0) return b;
  }
  return "gpu";
}

}  // namespace

Target this_machine(const MachineInfo& machine, double host_bw) {
  Target t;
  t.host_ram_bytes = hw::available_ram_bytes();
  t.host_bandwidth_gbps = host_bw;
  const auto gpu = std::find_if(machine.gpus.begin(), machine.gpus.end(), hw::offloadable);
  if (gpu != machine.gpus.end()) {
    t.name = "this machine: " + gpu->name + " (" + gpu->description + ")";
    t.backend = backend_of(gpu->name);
    t.unified = t.backend == "metal";
    t.capacity_bytes = gpu->memory_free_bytes;
    t.bandwidth_gbps = 0;  // unknown without a probe on the device; the bound then says 0
    return t;
  }
  t.name = "this machine: " + machine.cpu + " (RAM available)";
  t.backend = "cpu";
  t.capacity_bytes = t.host_ram_bytes;
  t.bandwidth_gbps = host_bw;
  return t;
}

Target catalog_target(const hw::CatalogDevice& d, uint64_t host_ram_bytes, double host_bw) {
  Target t;
  t.name = d.name;
  t.backend = d.backend;
  t.unified = d.kind == "apple";
  t.capacity_bytes = d.usable_bytes();
  t.host_ram_bytes = d.kind == "gpu" ? host_ram_bytes : 0;
  t.bandwidth_gbps = d.bandwidth_gbps;
  t.host_bandwidth_gbps = host_bw;
  return t;
}

}  // namespace rigbench::fit
