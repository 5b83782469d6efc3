#include "fit/kv_cache.h"

#include <ggml.h>

#include <algorithm>
#include <string>

#include "core/strings.h"

namespace rigbench::fit {

namespace {

constexpr uint64_t kPad = 256;

uint64_t pad(uint64_t n) { return (n + kPad - 1) / kPad * kPad; }

ggml_type cache_type(const std::string& name) {
  for (int t = 0; t < GGML_TYPE_COUNT; ++t) {
    const char* n = ggml_type_name(static_cast<ggml_type>(t));
    if (n && to_lower(n) == to_lower(name)) return static_cast<ggml_type>(t);
  }
  return GGML_TYPE_F16;
}

uint64_t n_streams(const ContextParams& c) { return static_cast<uint64_t>(kv_streams(c)); }

// Cells of one stream (llama.cpp's n_ctx_seq).
uint64_t cells_per_stream(const ContextParams& c) { return static_cast<uint64_t>(context_per_sequence(c)); }

// Head sizes of layer il (sliding-window layers may have their own: key_length_swa).
uint64_t head_k(const model::ModelShape& s, uint32_t il) {
  return s.is_swa(il) && s.head_k_swa ? s.head_k_swa : s.head_k;
}
uint64_t head_v(const model::ModelShape& s, uint32_t il) {
  return s.is_swa(il) && s.head_v_swa ? s.head_v_swa : s.head_v;
}

// Elements of one cell's V in layer il; without flash attention (V transposed) llama.cpp sizes
// every layer at the widest layer's V (llama_hparams::n_embd_v_gqa_max, over all layers).
uint64_t v_elements(const model::ModelShape& s, const ContextParams& c, uint32_t il) {
  if (c.flash_attn) return head_v(s, il) * s.n_head_kv[il];
  uint64_t widest = 0;
  for (uint32_t l = 0; l < s.n_layer; ++l) widest = std::max(widest, head_v(s, l) * s.n_head_kv[l]);
  return widest;
}

// DeepSeek-V4's ratios (llama-kv-cache-dsv4.cpp): CSA compresses 4 positions into a row and
// keeps an indexer cache and a compressor state of 2 x 4 rows; HCA 128 positions, a state of 128.
constexpr uint32_t kCsaRatio = 4, kHcaRatio = 128;

// Cells of a compressed cache: PAD(ceil(n_ctx_seq / ratio), 256) per sequence.
uint64_t compressed_cells(const ContextParams& c, uint32_t ratio) {
  return pad((cells_per_stream(c) + ratio - 1) / ratio) * n_streams(c);
}

// DeepSeek-V4 keeps K only: the sliding window on every layer, plus the compressed cache of
// the layer's ratio (and, for CSA, the indexer's keys at the same compression).
uint64_t compressed_layer_bytes(const model::ModelShape& s, const ContextParams& c, uint32_t il, ggml_type tk) {
  const uint64_t k = ggml_row_size(tk, static_cast<int64_t>(head_k(s, il) * s.n_head_kv[il]));
  uint64_t bytes = k * layer_cells(s, c, il);
  const uint32_t ratio = s.compress_ratio[il];
  if (ratio == kCsaRatio) bytes += (k + ggml_row_size(tk, s.indexer_head_k)) * compressed_cells(c, ratio);
  if (ratio == kHcaRatio) bytes += k * compressed_cells(c, ratio);
  return bytes;
}

// The compressor state of a DeepSeek-V4 layer, per sequence: f32 kv and score planes.
uint64_t compressor_state_elements(const model::ModelShape& s, uint32_t il) {
  const uint32_t ratio = il < s.compress_ratio.size() ? s.compress_ratio[il] : 0;
  if (ratio == kCsaRatio) return 2ull * 2 * kCsaRatio * (2ull * s.head_k + 2ull * s.indexer_head_k);  // CSA + indexer
  if (ratio == kHcaRatio) return 2ull * kHcaRatio * s.head_k;
  return 0;
}

}  // namespace

int padded_context(int n_ctx, int n_seq) {
  const uint64_t n = pad(static_cast<uint64_t>(std::max(1, n_ctx)));
  if (n_seq <= 1) return static_cast<int>(n);
  const uint64_t k = static_cast<uint64_t>(n_seq);
  return static_cast<int>(pad(n / k) * k);
}

int kv_streams(const ContextParams& c) { return c.kv_unified ? 1 : std::max(1, c.n_seq); }

int context_cells(const ContextParams& c) { return padded_context(c.n_ctx, kv_streams(c)); }

int context_per_sequence(const ContextParams& c) { return context_cells(c) / kv_streams(c); }

uint64_t layer_cells(const model::ModelShape& s, const ContextParams& c, uint32_t il) {
  const uint64_t per_stream = cells_per_stream(c);
  if (!s.is_swa(il) || c.swa_full) return per_stream * n_streams(c);
  const uint64_t windows = c.kv_unified ? static_cast<uint64_t>(std::max(1, c.n_seq)) : 1;
  const uint64_t window = pad(std::min<uint64_t>(
      per_stream, static_cast<uint64_t>(s.n_swa) * windows + static_cast<uint64_t>(c.n_ubatch)));
  return window * n_streams(c);
}

uint64_t layer_cache_bytes(const model::ModelShape& s, const ContextParams& c, uint32_t il) {
  if (!s.causal || il >= s.n_layer) return 0;
  const ggml_type tk = cache_type(c.type_k), tv = cache_type(c.type_v);
  if (!s.compress_ratio.empty()) return compressed_layer_bytes(s, c, il, tk);
  uint64_t bytes = 0;
  if (s.has_kv(il)) {
    const uint64_t k = ggml_row_size(tk, static_cast<int64_t>(head_k(s, il) * s.n_head_kv[il]));
    const uint64_t v = s.is_mla() ? 0 : ggml_row_size(tv, static_cast<int64_t>(v_elements(s, c, il)));
    bytes += (k + v) * layer_cells(s, c, il);
  }
  if (il < s.indexer_layer.size() && s.indexer_layer[il]) {  // one head: its key (and V unless MLA)
    const uint64_t v = s.is_mla() ? 0 : ggml_row_size(tv, static_cast<int64_t>(head_v(s, il)));
    bytes += (ggml_row_size(tk, s.indexer_head_k) + v) * layer_cells(s, c, il);
  }
  return bytes;
}

uint64_t rotation_input_bytes(const model::ModelShape& s, const ContextParams& c) {
  if (!s.causal || !s.compress_ratio.empty()) return 0;  // DeepSeek-V4's compressed caches: not followed
  const bool rot_k = ggml_is_quantized(cache_type(c.type_k)) && s.head_k > 0 && s.head_k % 64 == 0;
  const bool rot_v = ggml_is_quantized(cache_type(c.type_v)) && !s.is_mla() && s.head_v > 0 && s.head_v % 64 == 0;
  uint64_t bytes = 0;
  for (const bool swa : {false, true}) {
    int64_t all_k = 0, all_v = 0;  // the cache's one head size; 0 before its first layer, -1 where they differ
    auto share = [](int64_t& all, int64_t h) { all = all == 0 || all == h ? h : -1; };
    for (uint32_t il = 0; il < s.n_layer; ++il) {
      if (!s.has_kv(il) || s.is_swa(il) != swa) continue;
      share(all_k, static_cast<int64_t>(head_k(s, il)));
      share(all_v, static_cast<int64_t>(head_v(s, il)));
    }
    if (rot_k && all_k > 0) {
      uint64_t nrot = 64;
      while (all_k % static_cast<int64_t>(2 * nrot) == 0) nrot *= 2;
      bytes += nrot * nrot * sizeof(float);
    }
    if (rot_v && all_v > 0) bytes += 64 * 64 * sizeof(float);
  }
  return bytes;
}

uint64_t layer_state_bytes(const model::ModelShape& s, const ContextParams& c, uint32_t il) {
  // One state per sequence, a unified KV cache or not (-kvu shares the attention cells only).
  const uint64_t n_seq = static_cast<uint64_t>(std::max(1, c.n_seq));
  if (const uint64_t comp = compressor_state_elements(s, il); comp > 0) return comp * sizeof(float) * n_seq;
  if (!s.is_recurrent(il)) return 0;
  const uint64_t ple = il < s.ple_layer.size() && s.ple_layer[il] ? s.state_ple : 0;
  return (s.state_r + s.state_s + ple) * sizeof(float) * n_seq;
}

Status check_cache_types(const model::ModelShape& s, const ContextParams& c) {
  const ggml_type tk = cache_type(c.type_k), tv = cache_type(c.type_v);
  if (ggml_is_quantized(tv) && s.arch == "grok") {
    return fail(ErrorCode::kInvalidInput, "-ctv " + c.type_v +
                                              ": llama.cpp runs grok without flash attention, which a " +
                                              "quantized V cache needs; use -ctv f16");
  }
  if (ggml_is_quantized(tv) && !c.flash_attn) {
    return fail(ErrorCode::kInvalidInput, "-ctv " + c.type_v + " with -fa off: llama.cpp refuses a quantized V cache " +
                                              "without flash attention; use -fa on, or -ctv f16");
  }
  // A quantized cache with flash attention (on or auto) stores each head in whole blocks:
  // llama.cpp refuses a type whose block size does not divide a layer's head size.
  if (c.flash_attn) {
    for (const bool is_k : {true, false}) {
      const ggml_type t = is_k ? tk : tv;
      if (!ggml_is_quantized(t)) continue;
      const auto block = static_cast<uint64_t>(ggml_blck_size(t));
      for (uint32_t il = 0; il < s.n_layer; ++il) {
        const uint64_t head = is_k ? head_k(s, il) : head_v(s, il);
        if (head % block == 0) continue;
        const std::string flag = is_k ? "-ctk " + c.type_k : "-ctv " + c.type_v;
        return fail(ErrorCode::kInvalidInput,
                    flag + ": llama.cpp refuses it with flash attention: " + (is_k ? "K" : "V") + " cache type " +
                        ggml_type_name(t) + " with block size " + std::to_string(block) + " does not divide " +
                        (is_k ? "n_embd_head_k=" : "n_embd_head_v=") + std::to_string(head) + "; use " +
                        (is_k ? "-ctk" : "-ctv") + " f16, or -fa off");
      }
    }
  }
  if ((s.is_mla() || !s.compress_ratio.empty()) && tk != tv) {
    return fail(ErrorCode::kInvalidInput, "-ctk " + c.type_k + " -ctv " + c.type_v +
                                              ": llama.cpp refuses different K and V cache " + "types for " + s.arch +
                                              " (its V is read from the K cache); give both the same type");
  }
  return {};
}

uint64_t graph_kv_cells(const model::ModelShape& s, const ContextParams& c) {
  if (!s.causal) return static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  return static_cast<uint64_t>(context_cells(c));
}

AttentionCaches attention_caches(const model::ModelShape& s, const ContextParams& c) {
  AttentionCaches a;
  if (!s.causal) return a;
  for (uint32_t il = 0; il < s.n_layer; ++il) {
    if (!s.has_kv(il) || s.is_recurrent(il) || il >= s.n_head_kv.size() || s.n_head_kv[il] == 0) continue;
    if (s.n_swa > 0 && s.is_swa(il)) {
      a.window = true;
      a.window_cells = layer_cells(s, c, il) / n_streams(c);
    } else {
      a.full = true;
    }
  }
  return a;
}

uint64_t cache_row_bytes(const std::string& type, uint64_t n) { return ggml_row_size(cache_type(type), n); }

uint64_t row_id_bytes_per_token(const model::ModelShape& s, const ContextParams& c) {
  const AttentionCaches a = attention_caches(s, c);
  uint64_t v_ids = 0;
  if (!s.is_mla()) {
    v_ids = 1;
    if (!c.flash_attn)
      for (uint32_t l = 0; l < s.n_layer && l < s.n_head_kv.size(); ++l)
        v_ids = std::max<uint64_t>(v_ids, head_v(s, l) * s.n_head_kv[l]);
  }
  return static_cast<uint64_t>(a.count()) * 8 * (1 + v_ids);
}

}  // namespace rigbench::fit
