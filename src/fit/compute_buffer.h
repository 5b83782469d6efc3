// rigbench: the compute buffer llama.cpp's scheduler reserves for the worst-case graph, from
// the model's shape and the context alone (docs/fit.md).
#pragma once

#include <cstdint>

#include "fit/context_params.h"
#include "model/model_shape.h"
#include "model/projector_shape.h"

namespace rigbench::fit {

// Bytes live at the peak of each phase of the worst-case graph (see compute_buffer_bytes).
struct ComputePhases {
  uint64_t attention = 0, ffn = 0, output = 0;
};
ComputePhases compute_phases(const model::ModelShape& shape, const ContextParams& ctx);

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

// Compute buffer of a vision projector (mtmd/clip), approximate: llama.cpp reserves it with a
// warmup image of clip.vision.image_size pixels per side (some projector types use other
// warmup sizes, not followed here). Peak = the input image (3 x side^2 F32) + the larger of the
// attention phase (n_patches x 4 x (4 n_embd); without flash attention also the F32 scores,
// n_patches^2 x n_head) and the FFN phase (n_patches x 4 x (2 n_embd + 2 n_ff)). 0 without a
// vision encoder.
uint64_t projector_compute_bytes(const model::ProjectorShape& projector, bool flash_attn);

}  // namespace rigbench::fit
