// rigbench: byte signatures, the hash-map keys that group records by what they share (their
// setup, the shape of their results) so that work done for one record serves the others. A
// signature is only compared for equality within one process: never stored, never printed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rigbench::report {

// Appends `v` to a signature: its length, then its bytes, so no two sequences of fields read alike.
inline void append_field(std::string& sig, std::string_view v) {
  const auto n = static_cast<uint32_t>(v.size());
  sig.append(reinterpret_cast<const char*>(&n), sizeof n);
  sig.append(v);
}

// Appends the bytes of `v`, a value of fixed size (a number, a bool).
template <typename T>
void append_raw(std::string& sig, T v) {
  sig.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace rigbench::report
