// rigbench: the devices fit plans for: this machine (as hw/describe.h describes it) and the
// catalog's entries (each discrete GPU beside its stated host, or the host the user names).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "fit/planner.h"
#include "hw/catalog.h"

namespace rigbench::fit {

// This machine as a fit target: its first GPU that this build can offload to (a ggml device,
// its free memory as capacity; a GPU only a driver lists is not one), else the CPU with the
// machine's total RAM as capacity (MemTotal, what ggml's CPU device reports and llama.cpp's
// --fit plans against: stable from run to run, unlike the RAM available at the moment).
// `host_bandwidth_gbps`: hw::host_bandwidth_gbps(machine) or the user's figure.
Target this_machine(const MachineInfo& machine, double host_bandwidth_gbps);

// This machine with the device `gpu` (one of machine.gpus, a ggml device) as the target, as
// this_machine plans its first one; nullptr: the CPU and RAM (llama.cpp's -dev none).
Target machine_device_target(const MachineInfo& machine, double host_bandwidth_gbps, const DeviceInfo* gpu);

// The ggml devices of this machine that `spec` names (fit -dev/--device, llama.cpp's -dev: one
// name or several with '/', matched without case, e.g. "Vulkan0" or "CUDA0/CUDA1"), in the
// order given: its GPUs (discrete or integrated), never an accelerator (BLAS). Errors (kUsage,
// naming the spec): a name that is none of them (the message lists them, or says there are none).
Result<std::vector<const DeviceInfo*>> machine_devices(const MachineInfo& machine, const std::string& spec);

// Where a catalog GPU's host comes from: the user's figures, each unset (nullopt) taking the
// entry's stated host (hw::CatalogDevice::host), else this machine's.
struct HostChoice {
  std::optional<uint64_t> ram_bytes;     // --host-ram
  std::optional<double> bandwidth_gbps;  // --host-bandwidth
  uint64_t machine_ram_bytes = 0;        // this machine's RAM, when the entry states no host
  double machine_bandwidth_gbps = 0;     // this machine's measured bandwidth, likewise
};

// A catalog device as a fit target. A "gpu" sits beside host RAM: the user's figures, else
// its stated host entry from `catalog`, else this machine's (HostChoice). Apple and other
// unified entries use their usable bytes as capacity and have no separate host.
Target catalog_target(const hw::CatalogDevice& d, const std::vector<hw::CatalogDevice>& catalog,
                      const HostChoice& host);

}  // namespace rigbench::fit
