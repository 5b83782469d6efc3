#include "model/gguf_metadata.h"

#include <gguf.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "model/synth_values.h"
#include "model/token_pieces.h"

namespace rigbench::model {

namespace {

constexpr int32_t kNormal = kTokenNormal, kUnknown = kTokenUnknown, kControl = kTokenControl, kUnused = kTokenUnused,
                  kByte = kTokenByte;

struct Keys {
  gguf_context* ctx;
  std::string arch;
  std::string k(const char* suffix) const { return arch + "." + suffix; }
  void u32(const char* s, uint32_t v) const { gguf_set_val_u32(ctx, k(s).c_str(), v); }
  void f32(const char* s, float v) const { gguf_set_val_f32(ctx, k(s).c_str(), v); }
  void flag(const char* s, bool v) const { gguf_set_val_bool(ctx, k(s).c_str(), v); }
  void str(const char* s, const std::string& v) const { gguf_set_val_str(ctx, k(s).c_str(), v.c_str()); }
};

// The recurrent layers' ssm.* keys (Mamba; Qwen3.5's gated delta net).
void set_ssm_metadata(const Keys& k, const Preset& p) {
  k.u32("ssm.conv_kernel", p.ssm_d_conv);
  k.u32("ssm.inner_size", p.ssm_d_inner);
  k.u32("ssm.state_size", p.ssm_d_state);
  k.u32("ssm.time_step_rank", p.ssm_dt_rank);
  if (!p.is_mamba()) k.u32("ssm.group_count", p.ssm_n_group);
}

void set_string_array(gguf_context* ctx, const char* key, const std::vector<std::string>& values) {
  std::vector<const char*> ptrs;
  ptrs.reserve(values.size());
  for (const auto& v : values) ptrs.push_back(v.c_str());
  gguf_set_arr_str(ctx, key, ptrs.data(), ptrs.size());
}

std::string generate_vocab(gguf_context* ctx, const Preset& p) {
  std::vector<std::string> tokens;
  std::vector<float> scores;
  std::vector<int32_t> types;
  tokens.reserve(p.n_vocab);
  auto push = [&](std::string t, float score, int32_t type) {
    tokens.push_back(std::move(t));
    scores.push_back(score);
    types.push_back(type);
  };
  push("<unk>", 0, kUnknown);
  push("<s>", 0, kControl);
  push("</s>", 0, kControl);
  for (int b = 0; b < 256 && tokens.size() < p.n_vocab; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    push(buf, 0, kByte);
  }
  for (uint32_t i = static_cast<uint32_t>(tokens.size()); i < p.n_vocab; ++i) {
    push("\xE2\x96\x81tok" + std::to_string(i), -static_cast<float>(i), kNormal);
  }
  gguf_set_val_str(ctx, "tokenizer.ggml.model", "llama");
  gguf_set_val_str(ctx, "tokenizer.ggml.pre", "default");
  set_string_array(ctx, "tokenizer.ggml.tokens", tokens);
  gguf_set_arr_data(ctx, "tokenizer.ggml.scores", GGUF_TYPE_FLOAT32, scores.data(), scores.size());
  gguf_set_arr_data(ctx, "tokenizer.ggml.token_type", GGUF_TYPE_INT32, types.data(), types.size());
  gguf_set_val_u32(ctx, "tokenizer.ggml.unknown_token_id", 0);
  gguf_set_val_u32(ctx, "tokenizer.ggml.bos_token_id", 1);
  gguf_set_val_u32(ctx, "tokenizer.ggml.eos_token_id", 2);
  gguf_set_val_bool(ctx, "tokenizer.ggml.add_bos_token", true);
  return "generated (" + std::to_string(p.n_vocab) + " tokens)";
}

std::size_t scalar_size(gguf_type t) {
  switch (t) {
    case GGUF_TYPE_UINT8:
    case GGUF_TYPE_INT8:
    case GGUF_TYPE_BOOL: return 1;
    case GGUF_TYPE_UINT16:
    case GGUF_TYPE_INT16: return 2;
    case GGUF_TYPE_UINT32:
    case GGUF_TYPE_INT32:
    case GGUF_TYPE_FLOAT32: return 4;
    case GGUF_TYPE_UINT64:
    case GGUF_TYPE_INT64:
    case GGUF_TYPE_FLOAT64: return 8;
    default: return 0;
  }
}

// Copies one scalar key (string, number or bool) from src to dst.
void copy_scalar(gguf_context* dst, const gguf_context* src, int64_t i) {
  const char* key = gguf_get_key(src, i);
  switch (gguf_get_kv_type(src, i)) {
    case GGUF_TYPE_STRING: gguf_set_val_str(dst, key, gguf_get_val_str(src, i)); break;
    case GGUF_TYPE_UINT8: gguf_set_val_u8(dst, key, gguf_get_val_u8(src, i)); break;
    case GGUF_TYPE_INT8: gguf_set_val_i8(dst, key, gguf_get_val_i8(src, i)); break;
    case GGUF_TYPE_UINT16: gguf_set_val_u16(dst, key, gguf_get_val_u16(src, i)); break;
    case GGUF_TYPE_INT16: gguf_set_val_i16(dst, key, gguf_get_val_i16(src, i)); break;
    case GGUF_TYPE_UINT32: gguf_set_val_u32(dst, key, gguf_get_val_u32(src, i)); break;
    case GGUF_TYPE_INT32: gguf_set_val_i32(dst, key, gguf_get_val_i32(src, i)); break;
    case GGUF_TYPE_FLOAT32: gguf_set_val_f32(dst, key, gguf_get_val_f32(src, i)); break;
    case GGUF_TYPE_UINT64: gguf_set_val_u64(dst, key, gguf_get_val_u64(src, i)); break;
    case GGUF_TYPE_INT64: gguf_set_val_i64(dst, key, gguf_get_val_i64(src, i)); break;
    case GGUF_TYPE_FLOAT64: gguf_set_val_f64(dst, key, gguf_get_val_f64(src, i)); break;
    case GGUF_TYPE_BOOL: gguf_set_val_bool(dst, key, gguf_get_val_bool(src, i)); break;
    default: break;
  }
}

// Copies every tokenizer.* key that `dst` does not have yet (the model's own facts, such
// as BERT's token_type_count, stay); the per-token arrays are padded to n_vocab.
void copy_tokenizer(gguf_context* dst, const gguf_context* src, uint32_t n_vocab) {
  for (int64_t i = 0; i < gguf_get_n_kv(src); ++i) {
    const std::string key = gguf_get_key(src, i);
    if (key.rfind("tokenizer.", 0) != 0 || gguf_find_key(dst, key.c_str()) >= 0) continue;
    const gguf_type type = gguf_get_kv_type(src, i);
    const bool per_token =
        key == "tokenizer.ggml.tokens" || key == "tokenizer.ggml.scores" || key == "tokenizer.ggml.token_type";
    if (type != GGUF_TYPE_ARRAY) {
      copy_scalar(dst, src, i);
      continue;
    }
    const size_t n = gguf_get_arr_n(src, i);
    const size_t n_out = per_token ? std::max<size_t>(n, n_vocab) : n;
    const gguf_type elem = gguf_get_arr_type(src, i);
    if (elem == GGUF_TYPE_STRING) {
      std::vector<std::string> values;
      values.reserve(n_out);
      for (size_t k = 0; k < n; ++k) values.emplace_back(gguf_get_arr_str(src, i, k));
      for (size_t k = n; k < n_out; ++k) values.push_back("[PAD" + std::to_string(k) + "]");
      set_string_array(dst, key.c_str(), values);
    } else {
      const size_t elem_size = scalar_size(elem);
      if (elem_size == 0) continue;  // nested arrays: none in tokenizers
      std::vector<uint8_t> data(n_out * elem_size, 0);
      std::memcpy(data.data(), gguf_get_arr_data(src, i), n * elem_size);
      if (key == "tokenizer.ggml.token_type") {
        for (size_t k = n; k < n_out; ++k) reinterpret_cast<int32_t*>(data.data())[k] = kUnused;
      }
      gguf_set_arr_data(dst, key.c_str(), elem, data.data(), n_out);
    }
  }
}

}  // namespace

void set_model_metadata(gguf_context* ctx, const Preset& p, uint32_t file_type) {
  gguf_set_val_str(ctx, "general.architecture", p.arch.c_str());
  gguf_set_val_str(ctx, "general.name", p.name.c_str());
  gguf_set_val_u32(ctx, "general.file_type", file_type);
  gguf_set_val_u32(ctx, "general.quantization_version", 2);
  gguf_set_val_bool(ctx, "rigbench.synthetic", true);
  gguf_set_val_str(ctx, "rigbench.preset", p.name.c_str());
  gguf_set_val_str(ctx, "rigbench.source", p.source.c_str());
  gguf_set_val_u32(ctx, "rigbench.values", kValuesVersion);

  const Keys k{ctx, p.arch};
  k.u32("vocab_size", p.n_vocab);
  k.u32("context_length", p.n_ctx_train);
  k.u32("embedding_length", p.n_embd);
  k.u32("block_count", p.n_layer);
  if (p.is_mamba()) {
    // conversion/mamba.py: no attention; feed_forward_length and head_count are written as 0.
    k.u32("feed_forward_length", 0);
    k.u32("attention.head_count", 0);
    set_ssm_metadata(k, p);
    k.f32("attention.layer_norm_rms_epsilon", p.norm_eps);
    k.flag("ssm.dt_b_c_rms", p.ssm_dt_b_c_rms);
    return;
  }
  if (p.n_ff) k.u32("feed_forward_length", p.n_ff);  // none when every layer has experts (Qwen3.5 MoE)
  k.u32("attention.head_count", p.n_head);
  k.f32("rope.freq_base", p.rope_theta);

  if (p.arch == "bert") {
    k.u32("attention.head_count_kv", p.n_head_kv);
    k.f32("attention.layer_norm_epsilon", p.norm_eps);
    k.flag("attention.causal", false);
    k.u32("pooling_type", 2);  // CLS, as bge models are converted
    // A fact of the model, not of the tokenizer it borrows: set_tokenizer keeps it.
    gguf_set_val_u32(ctx, "tokenizer.ggml.token_type_count", p.n_token_types);
    return;
  }
  k.f32("attention.layer_norm_rms_epsilon", p.norm_eps);
  if (p.is_mla()) {
    // MLA GGUFs store the compressed KV as one head: K = latent + rope part, V = latent.
    k.u32("attention.head_count_kv", 1);
    k.u32("attention.key_length", p.kv_lora_rank + p.qk_rope_dim);
    k.u32("attention.value_length", p.kv_lora_rank);
    k.u32("attention.key_length_mla", p.qk_nope_dim + p.qk_rope_dim);
    k.u32("attention.value_length_mla", p.v_head_dim);
    k.u32("attention.kv_lora_rank", p.kv_lora_rank);
    if (p.q_lora_rank) k.u32("attention.q_lora_rank", p.q_lora_rank);
    k.u32("rope.dimension_count", p.qk_rope_dim);
    k.u32("leading_dense_block_count", p.n_layer_dense_lead);
    k.u32("expert_feed_forward_length", p.n_ff_exp);
    k.u32("expert_shared_count", p.n_expert_shared);
    k.f32("expert_weights_scale", 2.5f);
    k.flag("expert_weights_norm", true);
    k.u32("expert_gating_func", 2);  // sigmoid
    k.str("rope.scaling.type", "yarn");
    k.f32("rope.scaling.factor", 40.0f);
    k.u32("rope.scaling.original_context_length", 4096);
    k.f32("rope.scaling.yarn_log_multiplier", 0.1f);
  } else {
    k.u32("attention.head_count_kv", p.n_head_kv);
    k.u32("attention.key_length", p.head_k());
    k.u32("attention.value_length", p.head_k());
    k.u32("rope.dimension_count", p.rot());
  }
  if (p.rope_theta_swa > 0) k.f32("rope.freq_base_swa", p.rope_theta_swa);
  if (p.rope_sections != std::array<int32_t, 4>{}) {
    gguf_set_arr_data(ctx, k.k("rope.dimension_sections").c_str(), GGUF_TYPE_INT32, p.rope_sections.data(),
                      p.rope_sections.size());
  }
  if (p.full_attention_interval) {
    set_ssm_metadata(k, p);
    k.u32("full_attention_interval", p.full_attention_interval);
  }
  if (p.n_expert) {
    k.u32("expert_count", p.n_expert);
    k.u32("expert_used_count", p.n_expert_used);
  }
  if (p.n_ff_shexp) {
    k.u32("expert_feed_forward_length", p.n_ff_exp);
    k.u32("expert_shared_feed_forward_length", p.n_ff_shexp);
  }
  // Gemma 3 writes no sliding_window_pattern: llama.cpp then slides five layers in six.
  if (p.n_swa) k.u32("attention.sliding_window", p.n_swa);
  if (p.attn_softcap > 0) k.f32("attn_logit_softcapping", p.attn_softcap);
  if (p.final_softcap > 0) k.f32("final_logit_softcapping", p.final_softcap);
}

namespace {

// The tokenizer copied from the preset's vocabulary file, else generated (set_tokenizer).
std::string copy_or_generate_tokenizer(gguf_context* ctx, const Preset& p, const std::string& vocab_dir) {
  if (!p.vocab_file.empty() && !vocab_dir.empty()) {
    const std::string path = (std::filesystem::path(vocab_dir) / p.vocab_file).string();
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
      gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
      std::unique_ptr<gguf_context, decltype(&gguf_free)> src(gguf_init_from_file(path.c_str(), params), &gguf_free);
      const int64_t tokens = src ? gguf_find_key(src.get(), "tokenizer.ggml.tokens") : -1;
      if (tokens >= 0 && gguf_get_arr_n(src.get(), tokens) <= p.n_vocab) {
        copy_tokenizer(ctx, src.get(), p.n_vocab);
        return "copied from " + p.vocab_file;
      }
    }
  }
  return generate_vocab(ctx, p);
}

// Marks unused the tokens whose output piece is not UTF-8 alone (model/token_pieces.h), so
// that llama.cpp decodes them to nothing: random weights put them anywhere, and a served
// answer that is not UTF-8 is refused by llama-server's output parser. Tokenizing is as
// before (an unused token keeps its text and id). Returns how many were marked.
std::size_t mark_partial_characters_unused(gguf_context* ctx) {
  const int64_t tk = gguf_find_key(ctx, "tokenizer.ggml.tokens");
  const int64_t ty = gguf_find_key(ctx, "tokenizer.ggml.token_type");
  const int64_t model = gguf_find_key(ctx, "tokenizer.ggml.model");
  if (tk < 0 || ty < 0 || gguf_get_arr_type(ctx, ty) != GGUF_TYPE_INT32) return 0;
  const std::size_t n = gguf_get_arr_n(ctx, tk);
  if (gguf_get_arr_n(ctx, ty) != n) return 0;
  std::vector<std::string> tokens;
  tokens.reserve(n);
  for (std::size_t i = 0; i < n; ++i) tokens.emplace_back(gguf_get_arr_str(ctx, tk, i));
  const auto* data = static_cast<const int32_t*>(gguf_get_arr_data(ctx, ty));
  std::vector<int32_t> types(data, data + n);
  const bool byte_level = model >= 0 && std::string(gguf_get_val_str(ctx, model)) == "gpt2";
  const std::vector<std::size_t> partial = partial_character_tokens(tokens, types, byte_level);
  for (const std::size_t i : partial) types[i] = kUnused;
  if (!partial.empty()) gguf_set_arr_data(ctx, "tokenizer.ggml.token_type", GGUF_TYPE_INT32, types.data(), n);
  return partial.size();
}

}  // namespace

std::string set_tokenizer(gguf_context* ctx, const Preset& p, const std::string& vocab_dir) {
  const std::string how = copy_or_generate_tokenizer(ctx, p, vocab_dir);
  const std::size_t marked = mark_partial_characters_unused(ctx);
  return marked == 0 ? how
                     : how + "; " + std::to_string(marked) +
                           " tokens that are part of a character marked unused (a served answer stays UTF-8)";
}

}  // namespace rigbench::model
