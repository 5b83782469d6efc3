// Test support: GGUF files derived from a real one with ggml's GGUF API.
#pragma once

#include <string>

namespace rigbench::testing {

// Copies the GGUF at `src` (tensor data included) to `dst` with the string key `key` set to
// `value`, e.g. general.architecture = "nonesuch". Throws on failure.
void write_gguf_with_key(const std::string& src, const std::string& dst, const std::string& key,
                         const std::string& value);

// Copies the first `n_bytes` of `src` to `dst` (a cut-off download).
void write_truncated(const std::string& src, const std::string& dst, std::size_t n_bytes);

}  // namespace rigbench::testing
