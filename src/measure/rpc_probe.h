// rigbench: live rpc-servers (llama.cpp's ggml-rpc-server) asked for their devices' free
// memory and their round trip, before anything is planned or run: what fit::rpc_split_setup
// makes a split of, as `fit --rpc` and `bench --rpc` both plan it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "fit/device_split.h"
#include "measure/plan.h"

namespace rigbench::measure {

// Probes each rpc-server of `rpc` (a --rpc value, "HOST:PORT,..."; "none": none, an empty
// list) through engine::probe_rpc_server, each wait at most `timeout_s` seconds: per server,
// in order, its endpoint, each device's free memory (bytes) and the probe's round trip (ms).
// Errors: kUsage for a malformed value; the probe's kRuntime naming the endpoint (refused,
// silent, another protocol version).
Result<std::vector<fit::RpcServerMemory>> probe_rpc_memory(const std::string& rpc, double timeout_s);

// Probes every server that a --rpc value of `plan` names (probe_rpc_memory, 5 s per wait):
// --rpc value -> its servers; values that name none ("none") are left out, and a plan without
// --rpc gives an empty map. Errors: kUsage for a malformed value; kRuntime when a value names a
// server and this build's llama.cpp has no RPC backend (naming -DGGML_RPC=ON); the first failed
// probe's kRuntime, one line naming the endpoint.
Result<std::map<std::string, std::vector<fit::RpcServerMemory>>> probe_rpc_servers(const PlanSpec& plan);

}  // namespace rigbench::measure
