#include "fit/catalog_plan.h"

#include <algorithm>

#include "hw/bandwidth.h"

namespace rigbench::fit {

Result<CatalogPlan> catalog_plan(double host_ram_gib, double host_bandwidth_gbps, const MachineInfo& machine) {
  auto catalog = hw::load_catalog(hw::catalog_path());
  if (!catalog) return std::unexpected(catalog.error());
  CatalogPlan plan;
  plan.catalog = std::move(*catalog);
  if (host_ram_gib > 0) plan.host.ram_bytes = static_cast<uint64_t>(host_ram_gib * (1ull << 30));
  if (host_bandwidth_gbps > 0) plan.host.bandwidth_gbps = host_bandwidth_gbps;
  plan.host.machine_ram_bytes = machine.ram_bytes;
  const bool stateless_gpu = std::any_of(plan.catalog.begin(), plan.catalog.end(),
                                         [](const hw::CatalogDevice& d) { return d.kind == "gpu" && d.host.empty(); });
  if (stateless_gpu && !plan.host.bandwidth_gbps) plan.host.machine_bandwidth_gbps = hw::host_bandwidth_gbps(machine);
  return plan;
}

}  // namespace rigbench::fit
