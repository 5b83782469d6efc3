// rigbench: why a connection to a server could not be made, in words that point at the fix.
// A host name that does not resolve is not a refused connection: "refused" sends people to
// look for a server that is down, when the name in the URL is wrong (or no resolver answers).
#pragma once

#include <string>

namespace rigbench::net {

// Why `host` (a name or an address) does not resolve to an address, in getaddrinfo's words
// (gai_strerror: "Name or service not known", "Temporary failure in name resolution"), or ""
// when it resolves.
std::string resolve_error(const std::string& host);

// The message of a failed connection to `host`: "cannot connect: the host name 'H' does not
// resolve (<resolve_error>)" when it does not resolve, else "cannot connect (refused or
// unreachable)".
std::string cannot_connect_text(const std::string& host);

}  // namespace rigbench::net
