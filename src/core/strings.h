// rigbench: small string helpers shared by the layers. No I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rigbench {

// Splits `s` on `sep`; keeps empty fields ("a,,b" -> {"a", "", "b"}).
std::vector<std::string> split(std::string_view s, char sep);

// Joins with `sep`.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// `s` with every occurrence of `from` (not empty) replaced by `to`, left to right.
std::string replace_all(std::string_view s, std::string_view from, std::string_view to);

// Removes leading and trailing ASCII whitespace.
std::string trim(std::string_view s);

// Natural order: runs of digits compare as numbers ("c2" < "c16", "pp512" < "pp4096"), the rest
// byte by byte; <0, 0, >0 as a before, equal to, after b.
int natural_compare(std::string_view a, std::string_view b);

// Lower-cases ASCII letters.
std::string to_lower(std::string_view s);

// strerror(err) for a message: its first letter lower-cased unless it starts an acronym
// ("permission denied", "is a directory"); "unknown error" for 0.
std::string errno_text(int err);

// A byte count for people: "512 B", "1.13 MiB", "3.80 GiB" (binary units, two decimals).
std::string format_bytes(uint64_t bytes);

// `v` with `decimals` digits after the point, as printf's "%.*f" ("3.14" for 3.14159, 2).
std::string format_fixed(double v, int decimals);

// Bytes as GiB with two decimals, no unit ("4.58"); negative values keep their sign.
std::string format_gib(int64_t bytes);

// A parameter count for people: "999", "292.80 K", "8.03 B" (thousands, two decimals).
std::string format_count(uint64_t n);

}  // namespace rigbench
