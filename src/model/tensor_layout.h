// rigbench: the tensors (names and shapes) that llama.cpp v0.4.0 loads for a preset's
// architecture, in the order a converted GGUF holds them.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "model/preset.h"

namespace rigbench::model {

// One tensor: ne[0] is the row length (llama.cpp's order), unused dims are 1.
struct TensorSpec {
  std::string name;
  std::array<int64_t, 4> ne{1, 1, 1, 1};
  int n_dims = 1;
  // What the values are (synth_values.h): weights random, norms 1, biases 0; the roles
  // below get the recipe that gives attention a trained model's shape.
  enum class Fill {
    kWeight,
    kQueryKey,       // makes attention queries or keys: attn_q, attn_k, attn_qkv (its value rows too);
                     // MLA's attn_q or attn_q_b, attn_kv_a_mqa, attn_k_b
    kEmbedding,      // token_embd
    kResidualWrite,  // writes the residual stream: attn_output, ffn_down (also of experts)
    kAttnNorm,       // attn_norm
    kOnes,
    kMinusOnes,  // a recurrent layer's decay A = -exp(A_log) at A_log = 0 (ssm_a)
    kZeros,
  } fill = Fill::kWeight;
  int32_t layer = -1;  // block index, -1 outside the blocks

  uint64_t n_elements() const { return static_cast<uint64_t>(ne[0] * ne[1] * ne[2] * ne[3]); }
};

// A tensor named `name` of shape `ne` (row length first, 1 to 4 dims), filled as `fill`,
// in block `layer` (-1 outside the blocks).
TensorSpec tensor_spec(const std::string& name, std::initializer_list<int64_t> ne,
                       TensorSpec::Fill fill = TensorSpec::Fill::kWeight, int32_t layer = -1);

// The tensors of `p`, following llama.cpp's load_arch_tensors for p.arch (llama, phi3,
// qwen2, gemma2, gemma3, deepseek2, bert, qwen35, qwen35moe, mamba), in the order llama.cpp's converter
// writes them. An architecture outside that list gives an empty list.
std::vector<TensorSpec> tensor_layout(const Preset& p);

}  // namespace rigbench::model
