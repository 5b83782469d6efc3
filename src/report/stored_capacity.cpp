#include "report/stored_capacity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "report/metric_values.h"
#include "report/table.h"

namespace rigbench::report {

std::vector<StoredCapacity> stored_capacities(std::span<const RunRecord> records, const RecordIdentities& ids) {
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, StoredCapacity> latest;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RunRecord& r = records[i];
    if (!r.server || r.server->capacity.empty()) continue;
    StoredCapacity c;
    c.machine = ids.of(i).machine.label;
    c.model = ids.of(i).model.label;
    c.server = server_label(*r.server);
    c.workload = workload_text(*r.server);
    c.sweep = r.server->sweep;
    c.capacity = std::isfinite(r.server->capacity_load) ? r.server->capacity_load : 0;
    c.answer = r.server->capacity;
    c.test_time = r.test_time;
    auto [at, fresh] = latest.try_emplace({c.machine, c.model, c.server, c.workload, c.sweep}, c);
    if (!fresh && c.test_time > at->second.test_time) at->second = std::move(c);
  }
  std::vector<StoredCapacity> out;
  for (auto& [key, c] : latest) out.push_back(std::move(c));
  return out;
}

std::string capacity_lines(const std::vector<StoredCapacity>& answers, std::vector<std::string> servers) {
  if (answers.empty()) return "";
  const std::size_t named = servers.size();  // named under compare's table already
  for (const StoredCapacity& c : answers) {
    if (std::find(servers.begin(), servers.end(), c.server) == servers.end()) servers.push_back(c.server);
  }
  std::string out = "Capacity (serve-bench --capacity; the latest sweep per machine, model, server and workload):\n";
  for (const StoredCapacity& c : answers) {
    const auto tag = std::find(servers.begin(), servers.end(), c.server) - servers.begin() + 1;
    out += paragraph_lines("- " + c.machine + " · " + c.model + " · S" + std::to_string(tag) +
                               (c.workload.empty() ? "" : " · " + c.workload) + ": " + c.answer,
                           "  ");
  }
  for (std::size_t i = named; i < servers.size(); ++i)
    out += paragraph_lines("S" + std::to_string(i + 1) + ": the server " + servers[i], "  ");
  return out;
}

}  // namespace rigbench::report
