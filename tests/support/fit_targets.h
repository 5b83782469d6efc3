// Test support: fit targets (fit/planner.h Target) as the tests of fit and bench's preflight
// build them.
#pragma once

#include <cstdint>
#include <string>

#include "fit/planner.h"

namespace rigbench::testing {

// The machine that runs a split model (plan_device_split's `host`): its RAM in bytes and its
// memory bandwidth in GB/s, nothing else.
inline fit::Target split_host(uint64_t ram_bytes, double bandwidth_gbps) {
  fit::Target t;
  t.host_ram_bytes = ram_bytes;
  t.host_bandwidth_gbps = bandwidth_gbps;
  return t;
}

// This machine as fit::this_machine describes it: a "cpu" backend plans in RAM at the host's
// bandwidth; any other is a GPU of `capacity_bytes` (its free memory) whose bandwidth is unknown
// (0). `ram_bytes` of host RAM at `host_bandwidth_gbps` GB/s either way.
inline fit::Target local_target(const std::string& name, const std::string& backend, uint64_t capacity_bytes,
                                uint64_t ram_bytes, double host_bandwidth_gbps) {
  fit::Target t = split_host(ram_bytes, host_bandwidth_gbps);
  t.name = name;
  t.backend = backend;
  t.capacity_bytes = capacity_bytes;
  t.bandwidth_gbps = backend == "cpu" ? host_bandwidth_gbps : 0;
  return t;
}

}  // namespace rigbench::testing
