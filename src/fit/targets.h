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

// This machine's devices as llama.cpp takes them by default (llama_prepare_model_devices): every
// discrete GPU this build offloads to, else its first integrated one; never an accelerator (BLAS)
// nor a GPU only a driver lists. Empty: the CPU alone.
std::vector<const DeviceInfo*> default_machine_devices(const MachineInfo& machine);

// This machine as a fit target: the first of default_machine_devices (its free memory as
// capacity), else the CPU with the machine's total RAM as capacity (MemTotal, what ggml's CPU
// device reports and llama.cpp's --fit plans against: stable from run to run, unlike the RAM
// available at the moment). `host_bandwidth_gbps`: hw::host_bandwidth_gbps(machine) or the
// user's figure.
Target this_machine(const MachineInfo& machine, double host_bandwidth_gbps);

// This machine with the device `gpu` (one of machine.gpus, a ggml device) as the target, as
// this_machine plans its first one; nullptr: the CPU and RAM (llama.cpp's -dev none).
Target machine_device_target(const MachineInfo& machine, double host_bandwidth_gbps, const DeviceInfo* gpu);

// What fit -dev/--device names: this machine's devices, or the catalog.
struct MachineDevices {
  bool on_machine = false;              // planned on this machine, not on catalog devices
  bool named = false;                   // the devices were named (-dev, or -sm none's one), not auto
  std::vector<const DeviceInfo*> gpus;  // in llama.cpp's order; empty = the CPU alone
  // llama.cpp's -dev for --check: the named devices ("Vulkan0/Vulkan1", "none"), else its default.
  std::string devices_spec() const;
};

// `device` (fit -dev/--device) resolved on `machine`: auto = default_machine_devices; none = the
// CPU alone; this machine's ggml device names, '/' between them (matched without case: "Vulkan0",
// "CUDA0/CUDA1"), in the order given; anything else (all, a catalog name) is not this machine's
// (on_machine false). Errors (kUsage, naming the value): several names, or a ggml-style one (a
// backend's prefix and a number: CUDA1, Vulkan2), that are not this machine's GPUs; the message
// lists the ones it has, or says it has none.
Result<MachineDevices> resolve_machine_devices(const MachineInfo& machine, const std::string& device);

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
