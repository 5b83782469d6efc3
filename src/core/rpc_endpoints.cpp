#include "core/rpc_endpoints.h"

#include <algorithm>
#include <charconv>

#include "core/strings.h"

namespace rigbench {

Result<std::vector<std::string>> parse_rpc_endpoints(const std::string& text) {
  std::vector<std::string> out;
  const std::string all = trim(text);
  if (all.empty() || to_lower(all) == "none") return out;
  for (const std::string& part : split(all, ',')) {
    const std::string e = trim(part);
    const auto colon = e.rfind(':');
    const std::string host = colon == std::string::npos ? "" : e.substr(0, colon);
    const std::string port = colon == std::string::npos ? "" : e.substr(colon + 1);
    long n = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), n);
    const bool port_ok = !port.empty() && ec == std::errc() && end == port.data() + port.size() && n >= 1 && n <= 65535;
    if (host.empty() || host.find_first_of(" \t") != std::string::npos || !port_ok) {
      return fail(ErrorCode::kUsage, "--rpc '" + e + "': expected HOST:PORT (an rpc-server's address, e.g. 192.168.1.7:50052)");
    }
    if (std::find(out.begin(), out.end(), e) != out.end()) {
      return fail(ErrorCode::kUsage, "--rpc '" + e + "': named twice");
    }
    out.push_back(e);
  }
  return out;
}

std::string rpc_endpoints_text(const std::vector<std::string>& endpoints) {
  return endpoints.empty() ? std::string("none") : join(endpoints, ",");
}

bool names_rpc_servers(const std::string& rpc) {
  const std::string v = trim(rpc);
  return !v.empty() && to_lower(v) != "none";
}

}  // namespace rigbench
