// rigbench: the `--rpc` value (llama-bench's -rpc): rpc-server endpoints, "HOST:PORT[,HOST:PORT...]".
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench {

// "none" (or "") -> no endpoint; otherwise comma-separated HOST:PORT, spaces trimmed, port
// 1-65535, host non-empty without spaces, no endpoint twice. Returns them in order.
// Errors: kUsage naming the bad endpoint ("--rpc 'host': expected HOST:PORT").
Result<std::vector<std::string>> parse_rpc_endpoints(const std::string& text);

// The canonical text of a parsed list: "none" when empty, else the endpoints joined by ','.
std::string rpc_endpoints_text(const std::vector<std::string>& endpoints);

// Whether a run's rpc value (BenchParams::rpc) names rpc-servers: a split run (bench --rpc),
// not "none" or "" (a local run).
bool names_rpc_servers(const std::string& rpc);

}  // namespace rigbench
