// rigbench: which memory each layer of a model keeps, as llama.cpp lays it out (docs/fit.md,
// "KV cache and recurrent state by kind"): sliding-window and full-attention layers, layers
// without KV, recurrent layers and the size of their state, indexer and compressed caches.
// One rule per mechanism, driven by metadata; a small per-architecture table where llama.cpp
// itself hard-codes (src/models/<arch>.cpp, llama_model::create_memory).
#pragma once

#include <string>

#include "model/gguf_reader.h"
#include "model/model_shape.h"

namespace rigbench::model {

// Whether `arch` is purely recurrent (no attention heads: mamba, mamba2, rwkv*).
bool is_attention_free(const std::string& arch);

// Sets swa_layer, n_swa, kv_layer, recurrent_layer, state_r/state_s/state_ple, ple_layer,
// indexer_layer, indexer_head_k and compress_ratio of `s`, whose n_layer, n_embd, per-layer
// heads and FFN sizes, head sizes and n_layer_nextn are already read.
void read_memory_layout(const GgufReader& r, ModelShape& s);

}  // namespace rigbench::model
