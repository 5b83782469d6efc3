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
  uint64_t mask = 0;      // the KQ masks (graph inputs) within the attention phase
  uint64_t ffn_mask = 0;  // the KQ masks within the FFN phase (those a later block reads)
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

// llama.cpp's pipeline parallelism (llama-context.cpp: more than one device, every layer and the
// output layer offloaded, the KV cache offloaded, no tensor overrides, devices with async compute
// and events: memory_model.h backend_pipelines; estimate_split_devices applies the rule, for
// rpc-servers and for --count devices alike). ggml's scheduler (ggml-backend.cpp, ggml_backend_sched_split_graph)
// then keeps kPipelineCopies copies of every tensor that crosses into a split, each allocated
// first and never freed (input and output flags), so that the next micro-batch can be copied in
// while this one runs. Traced in ggml-alloc's allocation of llama.cpp's no_alloc plan of
// stories260K and Llama-3.2-1B over two rpc-servers, and stories260K over two and three Vulkan
// devices (lavapipe; fit_device_split_test.cpp holds the bytes).
constexpr uint64_t kPipelineCopies = 4;  // GGML_SCHED_MAX_COPIES

// Where a device sits in the split, in layer order.
struct PipelineRole {
  bool first = false;         // holds block 0: its hidden state is the embedding lookup
  bool output = false;        // holds the output layer (and the last block, whose output ids it reads)
  bool middle_layer = false;  // holds a block that is neither its own first nor the model's last
};

// The position of a token, one i32 (llama-graph.cpp's inp_pos, read by RoPE).
constexpr uint64_t kPositionBytesPerToken = 4;

// Bytes per token of the graph inputs a split reads besides the hidden state and the KQ masks:
// the position (kPositionBytesPerToken) and the K/V row ids of each cache
// (kv_cache.h row_id_bytes_per_token). The one count of them for the compute buffers under
// pipeline parallelism (their copies of each input, below) and for what ggml's RPC client sends
// a hop per token (device_split.h token_inputs, rpc_hop_traffic). Llama-3.1-70B with flash
// attention: 4 + 16 bytes.
uint64_t position_and_row_id_bytes(const model::ModelShape& shape, const ContextParams& ctx);

// The host's compute buffer under pipeline parallelism: kPipelineCopies copies of each graph
// input a node reads (token ids and positions i32, the K/V row ids of each cache,
// row_id_bytes_per_token, the output ids i32, the KQ masks), beside the embedding input and the
// embedding lookup (2 n_embd f32 per token). stories260K at -c 4096: 4 x (4 MiB + 28 B x 512) +
// 256 KiB = 16.30 MiB, as llama.cpp plans.
uint64_t pipeline_host_compute_bytes(const model::ModelShape& shape, const ContextParams& ctx);

// A device's compute buffer under pipeline parallelism: kPipelineCopies copies of each tensor its
// split reads from another backend: the hidden state (n_embd f32 per token), positions, row ids
// and the masks, on the output device the output ids; a device after the first also the first
// block's norm (n_embd f32): llama.cpp's no_alloc plan sizes the graph after
// ggml_backend_sched_reserve_size has reset the scheduler, which drops llama.cpp's pin of each
// block's norm to the block's device (graph_get_cb), so that norm runs on the previous device and
// crosses too (the real allocation, whose reserve keeps the pin, is 4 n_embd f32 per token smaller
// there; fit follows the plan, the larger, which llama.cpp's --fit also plans with). Above the
// copies, the device's own graph: the largest of its attention phase and FFN phase without the
// masks (now copies) and, on the output device, the logits with one n_embd; a block that is neither
// the device's first nor the model's last (its residual a tensor of this buffer, not a copy)
// leaves a hole of one n_embd below the FFN's tensors. Llama-3.2-1B at -c 4096 over two servers:
// 92.04 and 302.55 MiB, as llama.cpp plans.
uint64_t pipeline_device_compute_bytes(const model::ModelShape& shape, const ContextParams& ctx,
                                       const PipelineRole& role);

// Compute buffer of a vision projector (mtmd/clip), approximate: llama.cpp reserves it with its
// warmup image, warmup_image_size pixels per side (model/projector_shape.h: clip.vision.image_size,
// or the type's capped token count). Peak = the input image (3 x side^2 F32) + the larger of the
// attention phase (n_patches x 4 x (5 n_embd); without flash attention also the F32 scores,
// n_patches^2 x n_head) and the FFN phase (n_patches x 4 x (2 n_embd + 2 n_ff); with a gated FFN
// 3 n_embd + 3 n_ff). 0 without a vision encoder. A LightOnOCR projector (448 px warm-up, 1024
// patches): 62.3 and 86.3 MiB with and without flash attention where llama.cpp reserves 64.30
// and 86.30 MiB (tests/e2e/fit_e2e_test.cpp).
uint64_t projector_compute_bytes(const model::ProjectorShape& projector, bool flash_attn);

}  // namespace rigbench::fit
