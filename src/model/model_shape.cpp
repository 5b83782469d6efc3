#include "model/model_shape.h"

#include <ggml.h>
#include <gguf.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "model/gguf_file.h"
#include "model/gguf_reader.h"
#include "model/memory_layout.h"

namespace rigbench::model {

bool is_input_tensor(const TensorInfo& t) {
  if (t.layer >= 0) return false;
  for (const char* prefix : {"token_embd", "position_embd", "token_types"})
    if (t.name.rfind(prefix, 0) == 0) return true;
  return false;
}

Result<ModelShape> read_shape(const std::string& path) {
  auto file = open_gguf(path);
  if (!file) return std::unexpected(file.error());
  return read_shape(*file);
}

Result<ModelShape> read_shape(const GgufFile& file) {
  const std::string& path = file.path;
  const std::string where = "model '" + path + "'";
  const gguf_context* ctx = file.get();

  ModelShape s;
  const int64_t arch_id = gguf_find_key(ctx, "general.architecture");
  if (arch_id < 0 || gguf_get_kv_type(ctx, arch_id) != GGUF_TYPE_STRING) {
    return fail(ErrorCode::kInvalidInput, where + ": GGUF has no general.architecture key");
  }
  s.arch = gguf_get_val_str(ctx, arch_id);
  const int64_t name_id = gguf_find_key(ctx, "general.name");
  s.name = (name_id >= 0 && gguf_get_kv_type(ctx, name_id) == GGUF_TYPE_STRING)
               ? gguf_get_val_str(ctx, name_id)
               : std::filesystem::path(path).stem().string();
  const GgufReader r{ctx, s.arch};
  const uint64_t n_layer = r.u("block_count");
  const uint64_t n_embd = r.u("embedding_length");
  if (n_layer == 0 || n_layer > 4096) {
    return fail(ErrorCode::kInvalidInput,
                where + ": " + s.arch + ".block_count is " + std::to_string(n_layer) + " (expected 1..4096)");
  }
  if (n_embd == 0 || n_embd > (1u << 20)) {
    return fail(ErrorCode::kInvalidInput, where + ": " + s.arch + ".embedding_length is " + std::to_string(n_embd));
  }
  s.n_layer = static_cast<uint32_t>(n_layer);
  s.n_embd = static_cast<uint32_t>(n_embd);
  s.n_ctx_train = static_cast<uint32_t>(r.u("context_length"));
  s.n_head = r.per_layer("attention.head_count", s.n_layer, 0);
  s.n_head_kv = r.per_layer("attention.head_count_kv", s.n_layer, 0);
  if (!r.has("attention.head_count_kv")) s.n_head_kv = s.n_head;  // llama.cpp: n_head_kv defaults to n_head
  s.n_ff = r.per_layer("feed_forward_length", s.n_layer, 0);
  const bool attention_free = is_attention_free(s.arch);
  if ((!attention_free && s.n_head[0] == 0) || s.n_head[0] > s.n_embd) {
    return fail(ErrorCode::kInvalidInput, where + ": " + s.arch + ".attention.head_count is missing or absurd");
  }
  // llama.cpp: head sizes default to n_embd / n_head; a model without heads has none.
  const uint32_t head = s.n_head[0] ? s.n_embd / s.n_head[0] : 0;
  s.head_k = s.n_head[0] ? static_cast<uint32_t>(r.u("attention.key_length", head)) : 0;
  s.head_v = s.n_head[0] ? static_cast<uint32_t>(r.u("attention.value_length", head)) : 0;
  s.head_k_swa = static_cast<uint32_t>(r.u("attention.key_length_swa", s.head_k));
  s.head_v_swa = static_cast<uint32_t>(r.u("attention.value_length_swa", s.head_v));
  s.n_layer_nextn = std::min(s.n_layer, static_cast<uint32_t>(r.u("nextn_predict_layers")));
  s.n_expert = static_cast<uint32_t>(r.u("expert_count"));
  s.n_expert_used = static_cast<uint32_t>(r.u("expert_used_count"));
  s.n_ff_exp = static_cast<uint32_t>(r.u("expert_feed_forward_length", s.n_ff[0]));
  s.n_expert_shared = static_cast<uint32_t>(r.u("expert_shared_count"));
  s.kv_lora_rank = static_cast<uint32_t>(r.u("attention.kv_lora_rank"));
  s.mla = r.u("attention.key_length_mla") > 0 && r.u("attention.value_length_mla") > 0;
  s.qk_rope_dim = s.kv_lora_rank ? static_cast<uint32_t>(r.u("rope.dimension_count")) : 0;
  s.head_k_mla = s.kv_lora_rank ? static_cast<uint32_t>(r.u("attention.key_length_mla", s.head_k)) : 0;
  s.causal = r.u("attention.causal", s.arch == "bert" ? 0 : 1) != 0;
  read_memory_layout(r, s);

  s.n_vocab = static_cast<uint32_t>(r.u("vocab_size"));
  if (s.n_vocab == 0) {
    const int64_t tok = gguf_find_key(ctx, "tokenizer.ggml.tokens");
    if (tok >= 0 && gguf_get_kv_type(ctx, tok) == GGUF_TYPE_ARRAY)
      s.n_vocab = static_cast<uint32_t>(gguf_get_arr_n(ctx, tok));
  }

  for (int64_t i = 0; i < gguf_get_n_tensors(ctx); ++i) {
    TensorInfo t;
    t.name = gguf_get_tensor_name(ctx, i);
    t.bytes = gguf_get_tensor_size(ctx, i);
    std::sscanf(t.name.c_str(), "blk.%d.", &t.layer);
    t.type = ggml_type_name(gguf_get_tensor_type(ctx, i));
    t.n_rows = gguf_get_tensor_ne(ctx, i)[1];
    if (t.name.find("attn_qkv") != std::string::npos) s.fused_qkv = true;
    s.tensor_bytes += t.bytes;
    s.tensors.push_back(std::move(t));
  }
  return s;
}

}  // namespace rigbench::model
