#include "fit/compute_buffer.h"

#include <algorithm>

#include "fit/kv_cache.h"

namespace rigbench::fit {

namespace {

constexpr uint64_t kGraphSlack = 2048;  // bytes llama.cpp's reservation adds beyond the peak

template <typename T>
T max_of(const std::vector<T>& v, T def = 0) {
  T m = def;
  for (T x : v) m = std::max(m, x);
  return m;
}

}  // namespace

ComputePhases compute_phases(const model::ModelShape& s, const ContextParams& c) {
  ComputePhases p;
  const uint64_t n_kv = graph_kv_cells(s, c);
  const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const uint64_t e = s.n_embd;
  // The widest layer sets the peak (per-layer head counts: OpenELM).
  const uint64_t n_head = max_of(s.n_head, 1u);
  const uint64_t n_head_kv = max_of(s.n_head_kv);
  const uint64_t q = n_head * (s.is_mla() ? s.head_k_mla : s.head_k);
  const uint64_t kv = s.is_mla() ? s.kv_lora_rank + s.qk_rope_dim + s.kv_lora_rank : 2ull * s.head_k * n_head_kv;
  const uint64_t mask = n_kv * u * (c.flash_attn ? 2 : 4);
  p.attention = mask + u * 4 * (4 * e + q + kv);
  if (!c.flash_attn) p.attention += n_kv * u * n_head * 4;
  if (s.is_mla()) p.attention += u * 4 * 2 * n_head * (s.kv_lora_rank + s.qk_rope_dim);
  uint64_t ffn_per_token = 2 * e;
  const uint64_t n_ff_max = max_of(s.n_ff);
  if (s.n_expert > 0) {
    ffn_per_token += 3ull * (static_cast<uint64_t>(s.n_expert_used) * s.n_ff_exp + static_cast<uint64_t>(s.n_expert_shared) * s.n_ff_exp);
    ffn_per_token = std::max<uint64_t>(ffn_per_token, 2 * e + 3ull * n_ff_max);
  } else {
    ffn_per_token += 3ull * n_ff_max;
  }
  p.ffn = mask + u * 4 * ffn_per_token;
  p.output = u * 4 * (static_cast<uint64_t>(s.causal ? s.n_vocab : 0) + 2 * e);
  return p;
}

uint64_t compute_buffer_bytes(const model::ModelShape& s, const ContextParams& c, bool include_output) {
  const ComputePhases p = compute_phases(s, c);
  return std::max({p.attention, p.ffn, include_output ? p.output : 0}) + kGraphSlack;
}

uint64_t projector_compute_bytes(const model::ProjectorShape& p, bool flash_attn) {
  const uint64_t n = p.n_patches();
  if (n == 0) return 0;
  const uint64_t e = p.n_embd, side = p.image_size;
  uint64_t attn = n * 4 * (4 * e);
  if (!flash_attn) attn += n * n * p.n_head * 4;
  const uint64_t ffn = n * 4 * (2 * e + 2ull * p.n_ff);
  return 3 * side * side * 4 + std::max(attn, ffn) + kGraphSlack;
}

}  // namespace rigbench::fit
