// rigbench: the bytes of llama.cpp's per-layer memory, from the model's shape and the context
// alone (docs/fit.md, "KV cache and recurrent state by kind"): the KV cells of attention layers
// (full or sliding-window, one stream per sequence), the indexer keys of sparse attention, and
// the recurrent state of recurrent and hybrid models.
#pragma once

#include <cstdint>

#include "core/status.h"
#include "fit/context_params.h"
#include "model/model_shape.h"

namespace rigbench::fit {

// llama.cpp's context padding: n_ctx rounded up to 256; with n_seq > 1 streams (the cache is
// not unified) each stream's share rounded up to 256 again: n_seq x PAD(PAD(n_ctx) / n_seq).
int padded_context(int n_ctx, int n_seq);

// KV streams of the context: one per sequence (llama.cpp's default), one for all with
// kv_unified (-kvu).
int kv_streams(const ContextParams& ctx);

// The context llama.cpp creates, tokens: padded_context over the KV streams.
int context_cells(const ContextParams& ctx);

// llama.cpp's n_ctx_seq, tokens: the context one sequence (a server slot) may fill: the whole
// context with kv_unified, else its stream's PAD(PAD(n_ctx) / n_seq).
int context_per_sequence(const ContextParams& ctx);

// Cells of the cache kept for layer `il`, all streams together: the padded context for
// full-attention layers; for sliding-window layers streams x PAD(min(n_ctx_seq, n_swa x W +
// n_ubatch), 256) with W = n_seq with kv_unified (the windows of every sequence in one stream),
// else 1 (llama-kv-cache-iswa.cpp); with swa_full, the padded context as a full layer.
uint64_t layer_cells(const model::ModelShape& shape, const ContextParams& ctx, uint32_t il);

// Bytes of the KV cache of layer `il`: K rows (type_k, head_k x n_head_kv of the layer) and V rows
// (type_v; without flash attention V is stored transposed and every layer is sized at the
// widest layer's V; MLA keeps no V) times the layer's cells, plus the indexer keys of sparse
// attention. 0 for encoders and for layers that keep no KV (recurrent layers, shared-KV layers).
uint64_t layer_cache_bytes(const model::ModelShape& shape, const ContextParams& ctx, uint32_t il);

// Bytes of the recurrent state of layer `il`: (r + s) f32 rows for each of max(1, n_seq)
// sequences, with -kvu too (it shares the attention cells, not the states)
// sequences; 0 for layers without one. Independent of the context length.
uint64_t layer_state_bytes(const model::ModelShape& shape, const ContextParams& ctx, uint32_t il);

// Bytes of the Hadamard rotations llama.cpp applies to a quantized cache (llama-kv-cache.cpp
// attn_rot_k / attn_rot_v; LLAMA_ATTN_ROT_DISABLE turns them off): graph inputs, F32, live from
// the first attention to the last. Per cache (the full one, the sliding-window one) whose layers
// share one head size: K's matrix nrot x nrot where K is quantized and the model's head_k is a
// multiple of 64 (nrot the largest power of two from 64 that divides the head), V's 64 x 64
// where V is quantized and head_v a multiple of 64 (never with MLA). 0 with F16/BF16/F32 caches.
// Llama-3.1-8B (head 128) at -ctk q8_0 -ctv q8_0: 64 KiB + 16 KiB; Llama-3.2-1B (head 64) 16 + 16 KiB.
uint64_t rotation_input_bytes(const model::ModelShape& shape, const ContextParams& ctx);

// The combinations llama.cpp refuses to create a context for (llama_init_from_model): a
// quantized V cache without flash attention (Grok always runs without: llama.cpp forces it
// off); with flash attention (on or auto), a quantized K or V type whose block size does not
// divide a layer's head size (n_embd_head_k, n_embd_head_v: q8_0's 32 and a head of 8);
// different K and V types where V is not a cache of its own (MLA, DeepSeek-V4).
// Errors: kInvalidInput naming the flags and what to do.
Status check_cache_types(const model::ModelShape& shape, const ContextParams& ctx);

// The KV caches llama.cpp's attention reads, each with its own KQ mask and K/V row ids as graph
// inputs: the full cache where some attention layer is global, the sliding-window cache where
// some layer slides (both: build_attn_inp_kv_iswa). `window_cells`: the window cache's cells per
// sequence (layer_cells / n_seq); 0 without one. Neither for encoders and recurrent-only models.
struct AttentionCaches {
  bool full = false;
  bool window = false;
  uint64_t window_cells = 0;
  int count() const { return (full ? 1 : 0) + (window ? 1 : 0); }
};
AttentionCaches attention_caches(const model::ModelShape& shape, const ContextParams& ctx);

// Bytes of the K and V row ids one token takes into the graph (llama_kv_cache::build_input_k_idxs,
// build_input_v_idxs), over the caches the attention reads: an i64 for K and, where V is cached
// (not MLA), an i64 with flash attention, else one per value of the widest layer's V (V is stored
// transposed: n_embd_v_gqa_max i64s; Llama-3.2-1B: 512 x 8 = 4 KiB per token).
uint64_t row_id_bytes_per_token(const model::ModelShape& shape, const ContextParams& ctx);

// Bytes of `n` values of the cache type `type` ("f16", "q8_0", ...; an unknown name is f16), as
// ggml lays out a row of them (ggml_row_size).
uint64_t cache_row_bytes(const std::string& type, uint64_t n);

// Cells the attention of the worst-case graph spans: the padded context for decoders, the
// batch for encoders (they attend within the batch).
uint64_t graph_kv_cells(const model::ModelShape& shape, const ContextParams& ctx);

}  // namespace rigbench::fit
