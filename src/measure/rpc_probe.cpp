#include "measure/rpc_probe.h"

#include "core/rpc_endpoints.h"
#include "engine/llama_rpc.h"

namespace rigbench::measure {

Result<std::vector<fit::RpcServerMemory>> probe_rpc_memory(const std::string& rpc, double timeout_s) {
  auto endpoints = parse_rpc_endpoints(rpc);
  if (!endpoints) return std::unexpected(endpoints.error());
  std::vector<fit::RpcServerMemory> servers;
  for (const std::string& e : *endpoints) {
    auto info = engine::probe_rpc_server(e, timeout_s);
    if (!info) return std::unexpected(info.error());
    fit::RpcServerMemory m;
    m.endpoint = e;
    m.rtt_ms = info->rtt_ms;
    for (const auto& d : info->devices) m.free_bytes.push_back(d.memory_free_bytes);
    servers.push_back(std::move(m));
  }
  return servers;
}

Result<std::map<std::string, std::vector<fit::RpcServerMemory>>> probe_rpc_servers(const PlanSpec& plan) {
  std::map<std::string, std::vector<fit::RpcServerMemory>> out;
  auto it = plan.knobs.find("rpc");
  if (it == plan.knobs.end()) return out;
  for (const std::string& value : it->second) {
    auto endpoints = parse_rpc_endpoints(value);
    if (!endpoints) return std::unexpected(endpoints.error());
    if (endpoints->empty()) continue;
    if (!engine::rpc_supported()) {
      return fail(ErrorCode::kRuntime,
                  "--rpc: this rigbench's llama.cpp has no RPC backend (build it with -DGGML_RPC=ON; scripts/setup does)");
    }
    auto servers = probe_rpc_memory(value, 5);
    if (!servers) return std::unexpected(servers.error());
    out.emplace(value, std::move(*servers));
  }
  return out;
}

}  // namespace rigbench::measure
