// rigbench: the compute buffer llama.cpp's scheduler reserves for the worst-case graph, from
// the model's shape and the context alone (docs/fit.md).
#pragma once

#include <cstdint>

#include "fit/context_params.h"
#include "model/model_shape.h"

namespace rigbench::fit {

// Peak bytes of the worst-case graph (n_tokens = min(n_ctx, n_ubatch), every token an
// output) on one device, the largest of three phases of live tensors:
//   attention: mask (F16 with flash attention, else F32) + activations (4 n_embd + q + 2 kv
//              per token) + without flash attention the KQ scores (n_kv x n_tokens x n_head,
//              F32); MLA adds the absorbed query and output (2 x n_head x (kv_lora + rope))
//   FFN:       mask + (2 n_embd + 3 n_ff) per token, for MoE 3 x (used experts x expert n_ff
//              + shared) per token
//   output:    (n_vocab + 2 n_embd) per token (F32 logits of every token), only on the
//              device that holds the output layer (`include_output`)
// Derived from llama.cpp's graph and checked against its no_alloc simulation
// (tests/unit/fit/fit_memory_model_test.cpp, bench/fit_accuracy).
uint64_t compute_buffer_bytes(const model::ModelShape& shape, const ContextParams& ctx, bool include_output);

}  // namespace rigbench::fit
