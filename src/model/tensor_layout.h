// rigbench: the tensors (names and shapes) that llama.cpp v0.4.0 loads for a preset's
// architecture, in the order a converted GGUF holds them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/preset.h"

namespace rigbench::model {

// One tensor: ne[0] is the row length (llama.cpp's order), unused dims are 1.
struct TensorSpec {
  std::string name;
  std::array<int64_t, 4> ne{1, 1, 1, 1};
  int n_dims = 1;
  // What the values are: weights get random values, norms 1, biases 0.
  enum class Fill { kWeight, kOnes, kZeros } fill = Fill::kWeight;

  uint64_t n_elements() const { return static_cast<uint64_t>(ne[0] * ne[1] * ne[2] * ne[3]); }
};

// The tensors of `p`, following llama.cpp's load_arch_tensors for p.arch (llama, phi3,
// qwen2, gemma2, deepseek2, bert). An architecture outside that list gives an empty list.
std::vector<TensorSpec> tensor_layout(const Preset& p);

}  // namespace rigbench::model
