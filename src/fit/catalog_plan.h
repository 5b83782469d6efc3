// rigbench: the catalog as `fit --rank/--vs` plans it (also the report's what-to-buy answers,
// report/buy_answers.h): the catalog file and, for a GPU entry, its host (the user's figures,
// else the entry's stated host, else this machine's RAM and measured bandwidth:
// hw::host_bandwidth_gbps, probed only when an entry states no host).
#pragma once

#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "fit/planner.h"
#include "fit/targets.h"
#include "hw/catalog.h"

namespace rigbench::fit {

struct CatalogPlan {
  std::vector<hw::CatalogDevice> catalog;
  HostChoice host;
  Target target(const hw::CatalogDevice& d) const { return catalog_target(d, catalog, host); }
};

// `host_ram_gib`, `host_bandwidth_gbps`: --host-ram, --host-bandwidth (0 = not given). Errors:
// hw::load_catalog's.
Result<CatalogPlan> catalog_plan(double host_ram_gib, double host_bandwidth_gbps, const MachineInfo& machine);

}  // namespace rigbench::fit
