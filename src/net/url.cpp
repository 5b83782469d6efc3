#include "net/url.h"

#include <charconv>

namespace rigbench::net {

std::string Url::redacted() const {
  const bool ipv6 = host.find(':') != std::string::npos;
  std::string out = scheme;
  out += "://";
  if (ipv6) out += '[';
  out += host;
  if (ipv6) out += ']';
  const bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  if (!default_port) out += ":" + std::to_string(port);
  return out + base_path;
}

bool is_loopback(const Url& url) {
  return url.host == "localhost" || url.host == "::1" || url.host.starts_with("127.");
}

Result<Url> parse_url(const std::string& text) {
  Url url;
  std::string rest = text;
  const auto scheme_end = rest.find("://");
  if (scheme_end != std::string::npos) {
    url.scheme = rest.substr(0, scheme_end);
    for (auto& c : url.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    rest = rest.substr(scheme_end + 3);
  }
  if (url.scheme != "http" && url.scheme != "https") {
    return fail(ErrorCode::kUsage, "URL scheme '" + url.scheme + "': use http:// or https://");
  }
  // Cut the fragment and query, then the path.
  if (const auto q = rest.find_first_of("?#"); q != std::string::npos) rest = rest.substr(0, q);
  std::string authority = rest;
  if (const auto slash = rest.find('/'); slash != std::string::npos) {
    authority = rest.substr(0, slash);
    url.base_path = rest.substr(slash);
    while (!url.base_path.empty() && url.base_path.back() == '/') url.base_path.pop_back();
    // The OpenAI prefix, as OpenAI clients take the URL (http://host:8080/v1): the endpoints
    // add it themselves, so it is accepted and dropped (else every request went to /v1/v1/...).
    if (url.base_path == "/v1" || url.base_path.ends_with("/v1")) url.base_path.resize(url.base_path.size() - 3);
  }
  if (const auto at = authority.rfind('@'); at != std::string::npos) {
    const std::string info = authority.substr(0, at);
    authority = authority.substr(at + 1);
    const auto colon = info.find(':');
    url.user = info.substr(0, colon);
    if (colon != std::string::npos) url.password = info.substr(colon + 1);
  }
  std::string port_text;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) return fail(ErrorCode::kUsage, "URL host: unclosed '[' in an IPv6 address");
    url.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') port_text = authority.substr(close + 2);
  } else {
    const auto colon = authority.rfind(':');
    url.host = authority.substr(0, colon);
    if (colon != std::string::npos) port_text = authority.substr(colon + 1);
  }
  if (url.host.empty()) return fail(ErrorCode::kUsage, "URL '" + url.redacted() + "': no host");
  url.port = url.scheme == "https" ? 443 : 80;
  if (!port_text.empty()) {
    int port = 0;
    const auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || p != port_text.data() + port_text.size() || port < 1 || port > 65535) {
      return fail(ErrorCode::kUsage, "URL port '" + port_text + "': not a port number (1-65535)");
    }
    url.port = port;
  }
  return url;
}

}  // namespace rigbench::net
