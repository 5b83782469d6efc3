// rigbench: a server's base URL, split into the parts the HTTP client needs. Credentials in
// the URL (user:password@) are kept apart and never appear in redacted(), the form that is
// printed and stored.
#pragma once

#include <string>

#include "core/status.h"

namespace rigbench::net {

struct Url {
  std::string scheme = "http";  // "http" or "https"
  std::string host;             // name or address, IPv6 without brackets
  int port = 0;                 // explicit or the scheme's default (80, 443)
  std::string base_path;        // "" or "/prefix" (no trailing '/'), prepended to every endpoint
  std::string user;             // from user:password@, never printed or stored
  std::string password;         // idem

  // scheme://host:port/base_path, without credentials, query or fragment: the form printed and stored.
  std::string redacted() const;
};

// Parses "http://host:port/path". A URL without a scheme is taken as http://. A path ending in
// /v1 (the OpenAI base URL as OpenAI clients take it, http://127.0.0.1:8080/v1) is accepted:
// the /v1 is dropped, since the OpenAI endpoints add it ("/v1/completions"). Errors
// (kUsage): empty host, bad port, a scheme other than http/https. The message never repeats
// credentials.
Result<Url> parse_url(const std::string& text);

// Whether `url` names this machine: localhost, ::1 or 127.x.x.x (a server beside the client).
bool is_loopback(const Url& url);

}  // namespace rigbench::net
