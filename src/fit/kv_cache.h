// rigbench: the bytes of llama.cpp's per-layer cache (the KV cache of attention layers), from
// the model's shape and the context alone (docs/fit.md).
#pragma once

#include <cstdint>

#include "fit/context_params.h"
#include "model/model_shape.h"

namespace rigbench::fit {

// llama.cpp's context padding: n_ctx rounded up to 256 (per sequence when n_seq > 1).
int padded_context(int n_ctx, int n_seq);

// Cells of the cache kept for layer `il`: the padded context for full-attention layers,
// PAD(min(kv_size, n_swa x n_seq + n_ubatch), 256) for sliding-window layers.
uint64_t layer_cells(const model::ModelShape& shape, const ContextParams& ctx, uint32_t il);

// Bytes of the cache of layer `il` (K + V rows of its type x its cells; MLA: the compressed
// K only; 0 for encoders and layers without KV).
uint64_t layer_cache_bytes(const model::ModelShape& shape, const ContextParams& ctx, uint32_t il);

// Cells the attention of the worst-case graph spans: the padded context for decoders, the
// batch for encoders (they attend within the batch).
uint64_t graph_kv_cells(const model::ModelShape& shape, const ContextParams& ctx);

}  // namespace rigbench::fit
