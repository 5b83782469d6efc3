// rigbench: a model's shape as llama.cpp sees it, read from GGUF metadata and tensor infos
// alone (never the weights): what the memory model (fit/) needs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/gguf_file.h"

namespace rigbench::model {

struct TensorInfo {
  std::string name;
  uint64_t bytes = 0;  // bytes, from GGUF tensor info (ggml type row size x rows)
  int layer = -1;      // block index from "blk.N.", -1 for token_embd, output, output_norm, ...
  std::string type;    // ggml type name ("q4_K", "f32", ...)
  int64_t n_rows = 1;  // ne[1]: rows of a matrix (1 for a vector)
};

// A tensor of llama.cpp's input layer (token_embd, position_embd, token_types, outside the
// blocks): looked up on the host, a row per token, never offloaded nor read whole per token.
bool is_input_tensor(const TensorInfo& t);

struct ModelShape {
  std::string arch;      // general.architecture
  std::string name;      // general.name or the file stem
  uint32_t n_vocab = 0;  // <arch>.vocab_size, else the token list's length
  uint32_t n_ctx_train = 0;
  uint32_t n_embd = 0;
  uint32_t n_layer = 0;
  std::vector<uint32_t> n_head;     // per layer (a scalar key is repeated)
  std::vector<uint32_t> n_head_kv;  // per layer; 0 marks a layer without KV (recurrent)
  std::vector<uint32_t> n_ff;       // per layer
  uint32_t head_k = 0;              // <arch>.attention.key_length, else n_embd / n_head
  uint32_t head_v = 0;              // <arch>.attention.value_length, else n_embd / n_head
  uint32_t n_swa = 0;               // sliding window of the sliding-window layers (0 = none)
  uint32_t n_expert = 0, n_expert_used = 0, n_ff_exp = 0, n_expert_shared = 0;
  uint32_t kv_lora_rank = 0, qk_rope_dim = 0;  // MLA (DeepSeek): the K cache holds kv_lora + rope
  uint32_t head_k_mla = 0;                     // MLA: query/key head size before compression (nope + rope)
  bool causal = true;                          // false for encoders (BERT): no KV cache
  bool mla = false;                            // key_length_mla and value_length_mla set: K holds latent + rope, no V

  // The memory of each layer, as llama.cpp lays it out (docs/fit.md, "KV cache and recurrent
  // state by kind"): from metadata, with a small per-architecture table where llama.cpp itself
  // hard-codes (default sliding-window periods, which layers of a hybrid are recurrent): see
  // model/memory_layout.h.
  std::vector<uint8_t> swa_layer;           // 1: the layer's cache is the sliding-window one
  std::vector<uint8_t> kv_layer;            // 1: the layer keeps K (and V) cells (empty: all do)
  std::vector<uint8_t> recurrent_layer;     // 1: the layer keeps a recurrent state per sequence
  std::vector<uint8_t> indexer_layer;       // 1: sparse attention (DSA) keeps an indexer key per cell
  uint32_t n_layer_nextn = 0;               // next-token prediction layers at the end (nextn_predict_layers)
  uint32_t head_k_swa = 0, head_v_swa = 0;  // head sizes of sliding-window layers (key_length_swa)
  uint32_t indexer_head_k = 0;              // DSA: the indexer key's size (attention.indexer.key_length)
  uint32_t indexer_pool = 0;                // Qwen4exp: cells the indexer pools into one scored block
                                            // (attention.compress_ratios of its indexer layers; 0: none)
  uint64_t state_r = 0, state_s = 0;        // recurrent state per sequence and layer, f32 elements:
                                            // r = convolution / token shift, s = the SSM / WKV state
  uint32_t n_hc = 0;                        // DeepSeek-V4: hyper-connection copies of the residual
                                            // (hyper_connection.count; 0: none)
  std::vector<uint32_t> compress_ratio;     // DeepSeek-V4: per layer, 4 (CSA) or 128 (HCA) compressed
                                            // K caches beside the sliding window (0: none)
  uint64_t state_ple = 0;                   // and on the layers ple_layer marks, the PLE convolution history
  std::vector<uint8_t> ple_layer;
  bool fused_qkv = false;  // one attn_qkv tensor
  std::vector<TensorInfo> tensors;
  uint64_t tensor_bytes = 0;  // sum of tensor bytes

  bool is_mla() const { return mla; }
  // Whether layer `il` uses the sliding-window cache.
  bool is_swa(uint32_t il) const { return il < swa_layer.size() && swa_layer[il] != 0; }
  // Whether layer `il` keeps K/V cells (an empty kv_layer: every layer does).
  bool has_kv(uint32_t il) const { return kv_layer.empty() || (il < kv_layer.size() && kv_layer[il] != 0); }
  bool is_recurrent(uint32_t il) const { return il < recurrent_layer.size() && recurrent_layer[il] != 0; }
};

// Reads the shape of the GGUF at `path`. Errors: as model::inspect (kNotFound,
// kInvalidInput for not GGUF / corrupt), and kInvalidInput when a key the shape needs
// (block_count, embedding_length; attention.head_count unless the architecture is purely
// recurrent) is missing or absurd (0 layers, more than 4096 layers, a zero dimension).
Result<ModelShape> read_shape(const std::string& path);
// The same, from a header already parsed by open_gguf (no second parse).
Result<ModelShape> read_shape(const GgufFile& file);

}  // namespace rigbench::model
