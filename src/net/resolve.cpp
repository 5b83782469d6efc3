#include "net/resolve.h"

#include <netdb.h>
#include <sys/socket.h>

namespace rigbench::net {

std::string resolve_error(const std::string& host) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (found) ::freeaddrinfo(found);
  return rc == 0 ? std::string() : std::string(::gai_strerror(rc));
}

std::string cannot_connect_text(const std::string& host) {
  const std::string why = resolve_error(host);
  if (!why.empty()) return "cannot connect: the host name '" + host + "' does not resolve (" + why + ")";
  return "cannot connect (refused or unreachable)";
}

}  // namespace rigbench::net
