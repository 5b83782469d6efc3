#include "fit/compute_buffer.h"

#include <algorithm>

#include "fit/kv_cache.h"

namespace rigbench::fit {

namespace {

constexpr uint64_t kGraphSlack = 2048;  // bytes llama.cpp's reservation adds beyond the peak

}  // namespace

uint64_t compute_buffer_bytes(const model::ModelShape& s, const ContextParams& c, bool include_output) {
  const uint64_t n_kv = graph_kv_cells(s, c);
  const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const uint64_t e = s.n_embd;
  const uint64_t n_head = s.n_head[0];
  const uint64_t q = n_head * (s.is_mla() ? s.head_k_mla : s.head_k);
  const uint64_t kv = s.is_mla() ? s.kv_lora_rank + s.qk_rope_dim + s.kv_lora_rank : 2ull * s.head_k * s.n_head_kv[0];
  const uint64_t mask = n_kv * u * (c.flash_attn ? 2 : 4);
  uint64_t attn = mask + u * 4 * (4 * e + q + kv);
  if (!c.flash_attn) attn += n_kv * u * n_head * 4;
  if (s.is_mla()) attn += u * 4 * 2 * n_head * (s.kv_lora_rank + s.qk_rope_dim);
  uint64_t ffn_per_token = 2 * e;
  uint32_t n_ff_max = 0;
  for (uint32_t f : s.n_ff) n_ff_max = std::max(n_ff_max, f);
  if (s.n_expert > 0) {
    ffn_per_token += 3ull * (static_cast<uint64_t>(s.n_expert_used) * s.n_ff_exp + static_cast<uint64_t>(s.n_expert_shared) * s.n_ff_exp);
    ffn_per_token = std::max<uint64_t>(ffn_per_token, 2 * e + 3ull * n_ff_max);
  } else {
    ffn_per_token += 3ull * n_ff_max;
  }
  const uint64_t ffn = mask + u * 4 * ffn_per_token;
  const uint64_t out = include_output ? u * 4 * (static_cast<uint64_t>(s.causal ? s.n_vocab : 0) + 2 * e) : 0;
  return std::max({attn, ffn, out}) + kGraphSlack;
}

}  // namespace rigbench::fit
