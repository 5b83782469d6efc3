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

// Writes a header-only vision projector (general.architecture "clip", a SigLIP-like encoder:
// image 896, patch 14, n_embd 1152, n_ff 4304, 16 heads, 27 blocks) at `path` with two F16
// tensors, v.patch_embd.weight [14, 14, 3, 1152] and mm.input_projection.weight [1152, 2560]
// (the data a hole). Returns the tensors' bytes. Throws on failure.
std::size_t write_projector(const std::string& path);

// Writes a header-only LightOnOCR projector that llama.cpp's mtmd loads (no_alloc): the shapes
// of LightOnOCR-1B's (Pixtral encoder: image 1540, patch 14, n_embd 1024, n_ff 4096, 16 heads,
// `n_layer` blocks, spatial merge 2; projection to 1024), every tensor its graph reads, F16
// matrices and F32 norms (the data a hole). Returns the tensors' bytes. Throws on failure.
std::size_t write_lightonocr_projector(const std::string& path, int n_layer = 24);

}  // namespace rigbench::testing
