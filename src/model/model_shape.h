// rigbench: a model's shape as llama.cpp sees it, read from GGUF metadata and tensor infos
// alone (never the weights): what the memory model (fit/) needs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::model {

struct TensorInfo {
  std::string name;
  uint64_t bytes = 0;  // bytes, from GGUF tensor info (ggml type row size x rows)
  int layer = -1;      // block index from "blk.N.", -1 for token_embd, output, output_norm, ...
  std::string type;    // ggml type name ("q4_K", "f32", ...)
  int64_t n_rows = 1;  // ne[1]: rows of a matrix (1 for a vector)
};

struct ModelShape {
  std::string arch;         // general.architecture
  std::string name;         // general.name or the file stem
  uint32_t n_vocab = 0;     // <arch>.vocab_size, else the token list's length
  uint32_t n_ctx_train = 0;
  uint32_t n_embd = 0;
  uint32_t n_layer = 0;
  std::vector<uint32_t> n_head;      // per layer (a scalar key is repeated)
  std::vector<uint32_t> n_head_kv;   // per layer; 0 marks a layer without KV (recurrent)
  std::vector<uint32_t> n_ff;        // per layer
  uint32_t head_k = 0;      // <arch>.attention.key_length, else n_embd / n_head
  uint32_t head_v = 0;      // <arch>.attention.value_length, else n_embd / n_head
  uint32_t n_swa = 0;       // sliding window (0 = none)
  uint32_t swa_period = 0;  // every swa_period-th layer is full attention (Gemma 2: 2)
  uint32_t n_expert = 0, n_expert_used = 0, n_ff_exp = 0, n_expert_shared = 0;
  uint32_t kv_lora_rank = 0, qk_rope_dim = 0;  // MLA (DeepSeek): the K cache holds kv_lora + rope
  uint32_t head_k_mla = 0;  // MLA: query/key head size before compression (nope + rope)
  bool causal = true;       // false for encoders (BERT): no KV cache
  bool fused_qkv = false;   // one attn_qkv tensor
  std::vector<TensorInfo> tensors;
  uint64_t tensor_bytes = 0;  // sum of tensor bytes

  bool is_mla() const { return kv_lora_rank > 0; }
  // Whether layer `il` uses the sliding window (llama.cpp: all but every swa_period-th).
  bool is_swa(uint32_t il) const { return n_swa > 0 && swa_period > 0 && (il % swa_period) < swa_period - 1; }
};

// Reads the shape of the GGUF at `path`. Errors: as model::inspect (kNotFound,
// kInvalidInput for not GGUF / corrupt), and kInvalidInput when a key the shape needs
// (block_count, embedding_length, attention.head_count) is missing or absurd
// (0 layers, more than 4096 layers, a zero dimension).
Result<ModelShape> read_shape(const std::string& path);

}  // namespace rigbench::model
