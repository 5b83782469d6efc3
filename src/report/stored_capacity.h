// rigbench: "how many people can this machine serve?" said where results are compared: the
// answer of each stored capacity sweep (serve-bench --capacity, measure/capacity.h), which its
// last run keeps (ServerRun::capacity, capacity_load). compare prints them under its answers
// (md: "Capacity ..." lines; json: "capacity"), and the report in its answers section.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/record_identities.h"

namespace rigbench::report {

struct StoredCapacity {
  std::string machine;  // as compare labels it
  std::string model;    // as compare labels it
  std::string server;   // server_label: software, version, API, URL
  std::string workload;  // workload_text: "" plain random prompts, "turns 3", "prefix 128 on 50 %"
  std::string sweep;    // the load it raised: "concurrency" or "rate"
  double capacity = 0;  // concurrent requests or req/s that met the SLO (ServerRun::capacity_load; 0: none)
  std::string answer;   // the sweep's one-line answer, as serve-bench printed it
  std::string test_time;  // when the sweep's last run ended (ISO 8601)
};

// The latest sweep of each machine, model, server, workload and swept load among `records` (a record
// whose server run carries a capacity answer), ordered by machine, model, server. Records of
// no sweep give none.
std::vector<StoredCapacity> stored_capacities(std::span<const RunRecord> records, const RecordIdentities& ids);

// md: "Capacity (serve-bench --capacity; the latest sweep per machine, model, server and workload):"
// and one "- MACHINE · MODEL · SN[ · WORKLOAD]: ANSWER" item each, wrapped at 120 columns; SN is the server's tag
// in `servers` (compare's legend under its table: report/compare_printers.h row_servers), a
// server not among them is named below the items with the next tag. "" when there are none.
std::string capacity_lines(const std::vector<StoredCapacity>& answers, std::vector<std::string> servers = {});

}  // namespace rigbench::report
