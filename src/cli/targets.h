// rigbench: the devices fit plans for: this machine (what hw/ and the engine see) and the
// catalog's entries (as if installed in this machine's host).
#pragma once

#include "core/record.h"
#include "fit/planner.h"
#include "hw/bandwidth.h"
#include "hw/catalog.h"

namespace rigbench::cli {

// This machine's memory bandwidth, GB/s (read probe): the figure cached in
// $XDG_CACHE_HOME/rigbench/bandwidth.json (keyed by CPU and threads), else measured now (a
// 128 MiB probe) and cached. 0 when it cannot be measured.
double host_bandwidth_gbps(const MachineInfo& machine);

// Caches `r` as this machine's bandwidth (what `rigbench hw --bandwidth` measured), replacing
// the figure: a first-use probe on a busy machine reads low. The file is written beside and
// renamed; a failure to write leaves the old figure and is not an error.
void store_bandwidth(const MachineInfo& machine, const hw::BandwidthResult& r);

// This machine as a fit target: its first GPU when ggml sees one (free memory as capacity),
// else the CPU with the RAM available now.
fit::Target this_machine(const MachineInfo& machine, double host_bandwidth_gbps);

// A catalog device as a fit target, with `host_ram_bytes` of host RAM beside it.
fit::Target catalog_target(const hw::CatalogDevice& d, uint64_t host_ram_bytes, double host_bandwidth_gbps);

}  // namespace rigbench::cli
