// rigbench: net/'s small readers of one field of a JSON object a server sent (nlohmann's
// json), shared by the stream readers and the API answers. Internal to net/.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace rigbench::net {

// j[key] as an int when it is a number; nullopt when absent or not a number.
inline std::optional<int> int_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<int>();
}

// j[key] when it is a number; NaN when absent or not a number.
inline double number_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::numeric_limits<double>::quiet_NaN();
  return it->get<double>();
}

// A server's "error" value as one text: the string, an object's "message", else its JSON.
inline std::string error_text(const nlohmann::json& e) {
  if (e.is_string()) return e.get<std::string>();
  if (e.is_object() && e.contains("message") && e["message"].is_string()) return e["message"].get<std::string>();
  return e.dump();
}

}  // namespace rigbench::net
