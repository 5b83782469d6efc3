// rigbench: the devices fit plans for: this machine (as hw/describe.h describes it) and the
// catalog's entries (as if installed in this machine's host).
#pragma once

#include <cstdint>

#include "core/record.h"
#include "fit/planner.h"
#include "hw/catalog.h"

namespace rigbench::fit {

// This machine as a fit target: its first GPU that this build can offload to (a ggml device,
// free memory as capacity; a GPU only a driver lists is not one), else the CPU with the RAM
// available now. `host_bandwidth_gbps`: hw::host_bandwidth_gbps(machine).
Target this_machine(const MachineInfo& machine, double host_bandwidth_gbps);

// A catalog device as a fit target, with `host_ram_bytes` of host RAM beside it.
Target catalog_target(const hw::CatalogDevice& d, uint64_t host_ram_bytes, double host_bandwidth_gbps);

}  // namespace rigbench::fit
