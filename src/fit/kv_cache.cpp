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

}  // namespace

int padded_context(int n_ctx, int n_seq) {
  const uint64_t n = static_cast<uint64_t>(std::max(1, n_ctx));
  if (n_seq <= 1) return static_cast<int>(pad(n));
  return static_cast<int>(pad(n / static_cast<uint64_t>(n_seq)) * static_cast<uint64_t>(n_seq));
}

uint64_t layer_cells(const model::ModelShape& s, const ContextParams& c, uint32_t il) {
  const uint64_t kv_size = static_cast<uint64_t>(padded_context(c.n_ctx, c.n_seq));
  if (!s.is_swa(il)) return kv_size;
  return std::min<uint64_t>(kv_size, pad(static_cast<uint64_t>(s.n_swa) * static_cast<uint64_t>(c.n_seq) +
                                         static_cast<uint64_t>(c.n_ubatch)));
}

uint64_t layer_cache_bytes(const model::ModelShape& s, const ContextParams& c, uint32_t il) {
  if (!s.causal || s.n_head_kv[il] == 0) return 0;
  const uint64_t cells = layer_cells(s, c, il);
  const ggml_type tk = cache_type(c.type_k), tv = cache_type(c.type_v);
  if (s.is_mla()) return ggml_row_size(tk, s.kv_lora_rank + s.qk_rope_dim) * cells;
  const uint64_t k = ggml_row_size(tk, static_cast<int64_t>(s.head_k) * s.n_head_kv[il]);
  const uint64_t v = ggml_row_size(tv, static_cast<int64_t>(s.head_v) * s.n_head_kv[il]);
  return (k + v) * cells;
}

uint64_t graph_kv_cells(const model::ModelShape& s, const ContextParams& c) {
  if (!s.causal) return static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  return static_cast<uint64_t>(padded_context(c.n_ctx, c.n_seq));
}

}  // namespace rigbench::fit
