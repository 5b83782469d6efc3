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
  uint64_t mask = 0;  // the KQ masks (graph inputs) within the attention phase
};
ComputePhases compute_phases(const model::ModelShape& shape, const ContextParams& ctx);

// Peak bytes of the worst-case graph (n_tokens = min(n_ctx, n_ubatch), every token an
// output) on one device, the largest of three phases of live tensors, with the kind of block
// read from block 0's tensor names (gated FFN or not, FFN norm or FFN beside the attention,
// fused QKV, experts in block 0, a sparse-attention indexer). Per token, in F32 values:
//   attention: mask (F16 with flash attention, else F32; n_kv cells) + 4 n_embd + q + k + v
//              (the widest layer's heads); 3 n_embd for a sequential FFN without a gate with
//              flash attention; without flash attention + the KQ scores (n_kv x n_head), and
//              with a fused QKV that RoPE reads n_embd + 2 q + k + v. MLA: 3 n_embd + q +
//              the compressed row (kv_lora + rope) + the absorbed query and output
//              (2 n_head (kv_lora + rope)) (beside an indexer or linear attention the wider
//              4 n_embd + q + 2 kv_lora + rope); DeepSeek sparse attention the
//              indexer's scores and mask (5.5 bytes per cell) and 1.5 x its query width.
//              Grok: flash attention off, as llama.cpp forces it.
//   Mamba (no attention anywhere, an ssm_x in block 0): no mask; 2 n_embd + 5 d_inner +
//              dt_rank + 2 d_state, and the scan states (d_state x d_inner per sequence);
//              its logits phase keeps one n_embd more. Mamba-2 (ssm_norm): 2 n_embd + 2 x the
//              in-projection + 2 d_inner, and the scan states (with the mask only where the
//              block also runs attention: Falcon-H1). Gated delta net (Qwen3.5, Qwen3-Next):
//              mask + 3 n_embd + 3 x the convolution's channels
//   FFN:       the masks a later block reads (ggml-alloc frees an input after its last reader:
//              a window mask that only block 0 reads is gone by its FFN) + 2 n_embd + 3 n_ff
//              (2 n_ff without a gate; + 2 n_embd beside the attention); MoE with experts from
//              block 0: 4 n_embd (3 without a KV cache) + 3 x used x expert n_ff
//              (the expert width from its tensors, up or fused gate+up), with leading dense
//              blocks the dense FFN. A skip from the embedding into every block (Talkie):
//              n_embd more in the attention phase, 2 n_embd more in the FFN phase
//   output:    (n_vocab + 2 n_embd) (F32 logits of every token), only on the device that holds
//              the output layer (`include_output`)
// Plus 2 KiB of reservation slack. Derived from llama.cpp's graphs and fitted to its no_alloc
// plan of a tiny model of every architecture (test-llama-archs) and of real shapes
// (tests/unit/fit/fit_compute_buffer_test.cpp, fit_memory_model_test.cpp). Newer attentions
// (per-head indexers, lightning attention, DeepSeek-V4's compressed attention, MLA beside linear
// attention) are traced kinds of their own (fit_compute_kinds_test.cpp; compute_buffer.cpp says
// what is live). LFM2's attention block, Llama 4's shared expert after routed ones and JAIS's
// fused QKV are not followed yet (docs/fit.md lists them).
uint64_t compute_buffer_bytes(const model::ModelShape& shape, const ContextParams& ctx, bool include_output);

// The host's compute buffer when a device holds every layer and the output layer (-ngl all):
// ggml's scheduler keeps the graph's inputs on the CPU backend and copies them to the device
// (the KQ masks, and the token ids, positions and output ids, 4 bytes each per token), and
// beside them run the embedding lookup (token_embd stays on the host) and the first op after it
// that reads no weight (the first norm), n_embd F32 each per token. llama.cpp puts this buffer
// in the device's pinned host type where it has one (CUDA_Host, Vulkan_Host), else the CPU's;
// either way it is host RAM. `with_output`: the host also runs the output layer (the device
// cannot: see estimate_memory's max_tensor_bytes), whose phase (the logits) is then the peak.
// Measured: llama.cpp's no_alloc plan of stories260K and Llama-3.2-1B with every layer on an
// rpc-server (CPU 4.26 and 12.01 MiB at n_ctx 4096) and on lavapipe (Vulkan_Host 4.26 MiB, and
// 258.50 MiB with the 1B's output layer on the host; fit_memory_model_test.cpp).
uint64_t offloaded_host_compute_bytes(const model::ModelShape& shape, const ContextParams& ctx,
                                      bool with_output = false);

// Compute buffer of a vision projector (mtmd/clip), approximate: llama.cpp reserves it with a
// warmup image of clip.vision.image_size pixels per side (some projector types use other
// warmup sizes, not followed here). Peak = the input image (3 x side^2 F32) + the larger of the
// attention phase (n_patches x 4 x (4 n_embd); without flash attention also the F32 scores,
// n_patches^2 x n_head) and the FFN phase (n_patches x 4 x (2 n_embd + 2 n_ff)). 0 without a
// vision encoder.
uint64_t projector_compute_bytes(const model::ProjectorShape& projector, bool flash_attn);

}  // namespace rigbench::fit
