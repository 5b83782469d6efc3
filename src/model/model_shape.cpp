#include "model/model_shape.h"

#include <gguf.h>
#include <ggml.h>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace rigbench::model {

namespace {

struct Reader {
  const gguf_context* ctx;
  std::string arch;

  int64_t find(const std::string& suffix) const { return gguf_find_key(ctx, (arch + "." + suffix).c_str()); }

  // A scalar unsigned key of any integer type; `def` when absent.
  uint64_t u(const std::string& suffix, uint64_t def = 0) const {
    const int64_t id = find(suffix);
    if (id < 0) return def;
    switch (gguf_get_kv_type(ctx, id)) {
      case GGUF_TYPE_UINT8: return gguf_get_val_u8(ctx, id);
      case GGUF_TYPE_UINT16: return gguf_get_val_u16(ctx, id);
      case GGUF_TYPE_UINT32: return gguf_get_val_u32(ctx, id);
      case GGUF_TYPE_UINT64: return gguf_get_val_u64(ctx, id);
      case GGUF_TYPE_INT32: return static_cast<uint64_t>(std::max(0, gguf_get_val_i32(ctx, id)));
      case GGUF_TYPE_INT64: return static_cast<uint64_t>(std::max<int64_t>(0, gguf_get_val_i64(ctx, id)));
      case GGUF_TYPE_BOOL: return gguf_get_val_bool(ctx, id);
      default: return def;
    }
  }

  // A per-layer key: an array of n values, or a scalar repeated.
  std::vector<uint32_t> per_layer(const std::string& suffix, uint32_t n, uint32_t def) const {
    std::vector<uint32_t> out(n, def);
    const int64_t id = find(suffix);
    if (id < 0) return out;
    if (gguf_get_kv_type(ctx, id) == GGUF_TYPE_ARRAY) {
      const gguf_type t = gguf_get_arr_type(ctx, id);
      const size_t len = std::min<size_t>(gguf_get_arr_n(ctx, id), n);
      const void* data = gguf_get_arr_data(ctx, id);
      for (size_t i = 0; i < len; ++i) {
        if (t == GGUF_TYPE_UINT32) out[i] = static_cast<const uint32_t*>(data)[i];
        else if (t == GGUF_TYPE_INT32) out[i] = static_cast<uint32_t>(std::max(0, static_cast<const int32_t*>(data)[i]));
      }
      return out;
    }
    std::fill(out.begin(), out.end(), static_cast<uint32_t>(u(suffix, def)));
    return out;
  }
};

}  // namespace

Result<ModelShape> read_shape(const std::string& path) {
  const std::string where = "model '" + path + "'";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail(ErrorCode::kNotFound, where + ": no such file");
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  std::unique_ptr<gguf_context, decltype(&gguf_free)> ctx(gguf_init_from_file(path.c_str(), params), &gguf_free);
  if (!ctx) return fail(ErrorCode::kInvalidInput, where + ": not a GGUF file, or its metadata cannot be read");

  ModelShape s;
  const int64_t arch_id = gguf_find_key(ctx.get(), "general.architecture");
  if (arch_id < 0 || gguf_get_kv_type(ctx.get(), arch_id) != GGUF_TYPE_STRING) {
    return fail(ErrorCode::kInvalidInput, where + ": GGUF has no general.architecture key");
  }
  s.arch = gguf_get_val_str(ctx.get(), arch_id);
  const int64_t name_id = gguf_find_key(ctx.get(), "general.name");
  s.name = (name_id >= 0 && gguf_get_kv_type(ctx.get(), name_id) == GGUF_TYPE_STRING) ? gguf_get_val_str(ctx.get(), name_id)
                                                                                     : std::filesystem::path(path).stem().string();
  const Reader r{ctx.get(), s.arch};
  const uint64_t n_layer = r.u("block_count");
  const uint64_t n_embd = r.u("embedding_length");
  if (n_layer == 0 || n_layer > 4096) {
    return fail(ErrorCode::kInvalidInput, where + ": " + s.arch + ".block_count is " + std::to_string(n_layer) + " (expected 1..4096)");
  }
  if (n_embd == 0 || n_embd > (1u << 20)) {
    return fail(ErrorCode::kInvalidInput, where + ": " + s.arch + ".embedding_length is " + std::to_string(n_embd));
  }
  s.n_layer = static_cast<uint32_t>(n_layer);
  s.n_embd = static_cast<uint32_t>(n_embd);
  s.n_ctx_train = static_cast<uint32_t>(r.u("context_length"));
  s.n_head = r.per_layer("attention.head_count", s.n_layer, 0);
  s.n_head_kv = r.per_layer("attention.head_count_kv", s.n_layer, s.n_head[0]);
  s.n_ff = r.per_layer("feed_forward_length", s.n_layer, 0);
  if (s.n_head[0] == 0 || s.n_head[0] > s.n_embd) {
    return fail(ErrorCode::kInvalidInput, where + ": " + s.arch + ".attention.head_count is missing or absurd");
  }
  s.head_k = static_cast<uint32_t>(r.u("attention.key_length", s.n_embd / s.n_head[0]));
  s.head_v = static_cast<uint32_t>(r.u("attention.value_length", s.n_embd / s.n_head[0]));
  s.n_swa = static_cast<uint32_t>(r.u("attention.sliding_window"));
  s.swa_period = s.n_swa ? static_cast<uint32_t>(r.u("attention.sliding_window_pattern", s.arch == "gemma2" ? 2 : 0)) : 0;
  s.n_expert = static_cast<uint32_t>(r.u("expert_count"));
  s.n_expert_used = static_cast<uint32_t>(r.u("expert_used_count"));
  s.n_ff_exp = static_cast<uint32_t>(r.u("expert_feed_forward_length", s.n_ff[0]));
  s.n_expert_shared = static_cast<uint32_t>(r.u("expert_shared_count"));
  s.kv_lora_rank = static_cast<uint32_t>(r.u("attention.kv_lora_rank"));
  s.qk_rope_dim = s.kv_lora_rank ? static_cast<uint32_t>(r.u("rope.dimension_count")) : 0;
  s.head_k_mla = s.kv_lora_rank ? static_cast<uint32_t>(r.u("attention.key_length_mla", s.head_k)) : 0;
  s.causal = r.u("attention.causal", s.arch == "bert" ? 0 : 1) != 0;

  s.n_vocab = static_cast<uint32_t>(r.u("vocab_size"));
  if (s.n_vocab == 0) {
    const int64_t tok = gguf_find_key(ctx.get(), "tokenizer.ggml.tokens");
    if (tok >= 0 && gguf_get_kv_type(ctx.get(), tok) == GGUF_TYPE_ARRAY) s.n_vocab = static_cast<uint32_t>(gguf_get_arr_n(ctx.get(), tok));
  }

  for (int64_t i = 0; i < gguf_get_n_tensors(ctx.get()); ++i) {
    TensorInfo t;
    t.name = gguf_get_tensor_name(ctx.get(), i);
    t.bytes = gguf_get_tensor_size(ctx.get(), i);
    std::sscanf(t.name.c_str(), "blk.%d.", &t.layer);
    t.type = ggml_type_name(gguf_get_tensor_type(ctx.get(), i));
    t.n_rows = gguf_get_tensor_ne(ctx.get(), i)[1];
    if (t.name.find("attn_qkv") != std::string::npos) s.fused_qkv = true;
    s.tensor_bytes += t.bytes;
    s.tensors.push_back(std::move(t));
  }
  return s;
}

}  // namespace rigbench::model
