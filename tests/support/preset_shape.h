// Test support: the shape (model::ModelShape) of a real model written as a header-only GGUF
// (synth, tensor data a sparse hole), from a preset or a Hugging Face config.json.
#pragma once

#include <string>

#include "model/model_shape.h"

namespace rigbench::testing {

// The path of `preset` (or, when `config` is given, that config.json) at `quant` as a
// header-only GGUF, written once per test binary into a temporary folder removed when it exits
// (what llama.cpp's no_alloc simulation loads). Throws std::runtime_error naming the file when
// it cannot be written.
std::string preset_file(const std::string& preset, const std::string& quant, const std::string& config = "");

// That file's shape, read back. Throws std::runtime_error naming the file when it cannot be
// written or read.
model::ModelShape preset_shape(const std::string& preset, const std::string& quant, const std::string& config = "");

}  // namespace rigbench::testing
