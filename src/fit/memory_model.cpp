#include "fit/memory_model.h"

#include <ggml.h>

#include <algorithm>

#include "core/strings.h"

namespace rigbench::fit {

namespace {

constexpr uint64_t kPad = 256;
constexpr uint64_t kGraphSlack = 2048;  // bytes llama.cpp's reservation adds beyond the peak

uint64_t pad(uint64_t n) { return (n + kPad - 1) / kPad * kPad; }

ggml_type cache_type(const std::string& name) {
  for (int t = 0; t < GGML_TYPE_COUNT; ++t) {
    const char* n = ggml_type_name(static_cast<ggml_type>(t));
    if (n && to_lower(n) == to_lower(name)) return static_cast<ggml_type>(t);
  }
  return GGML_TYPE_F16;
}

// Bytes of the KV cache of layer `il` for `kv_size` cells.
uint64_t layer_kv_bytes(const model::ModelShape& s, uint32_t il, uint64_t cells, ggml_type tk, ggml_type tv) {
  if (!s.causal || s.n_head_kv[il] == 0) return 0;
  if (s.is_mla()) return ggml_row_size(tk, s.kv_lora_rank + s.qk_rope_dim) * cells;
  const uint64_t k = ggml_row_size(tk, static_cast<int64_t>(s.head_k) * s.n_head_kv[il]);
  const uint64_t v = ggml_row_size(tv, static_cast<int64_t>(s.head_v) * s.n_head_kv[il]);
  return (k + v) * cells;
}

// Peak bytes of the worst-case graph with `n_kv` cells (see the header).
uint64_t compute_bytes(const model::ModelShape& s, const ContextParams& c, uint64_t n_kv, bool include_output) {
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

}  // namespace

int padded_context(int n_ctx, int n_seq) {
  const uint64_t n = static_cast<uint64_t>(std::max(1, n_ctx));
  if (n_seq <= 1) return static_cast<int>(pad(n));
  return static_cast<int>(pad(n / static_cast<uint64_t>(n_seq)) * static_cast<uint64_t>(n_seq));
}

uint64_t backend_overhead_bytes(const std::string& backend) {
  const std::string b = to_lower(backend);
  if (b == "cuda" || b == "rocm") return 400ull << 20;
  if (b == "vulkan") return 256ull << 20;
  if (b == "metal") return 64ull << 20;
  return 0;
}

uint64_t repack_bytes(const model::ModelShape& s) {
  uint64_t bytes = 0;
  for (const auto& t : s.tensors) {
    const std::string type = to_lower(t.type);
    const bool repackable = type == "q4_0" || type == "q4_k" || type == "iq4_nl" || type == "mxfp4";
    if (repackable && t.n_rows % 8 == 0 && t.name.rfind("token_embd", 0) != 0) bytes += t.bytes;
  }
  return bytes;
}

MemorySplit estimate_memory(const model::ModelShape& s, const ContextParams& c, int n_gpu_layers, const std::string& backend) {
  MemorySplit m;
  const int n_layer = static_cast<int>(s.n_layer);
  const bool has_device = to_lower(backend) != "cpu";
  int ngl = n_gpu_layers < 0 ? n_layer + 1 : std::min(n_gpu_layers, n_layer + 1);
  if (!has_device) ngl = 0;
  m.n_gpu_layers = ngl;
  const int i_gpu_start = n_layer + 1 - ngl;  // blocks il >= i_gpu_start and the output (il = n_layer) offloaded
  auto on_device = [&](int il) { return ngl > 0 && il >= i_gpu_start; };
  const bool output_on_device = on_device(n_layer);

  // Weights, by where their layer lives.
  for (const auto& t : s.tensors) {
    const bool input = t.layer < 0 && (t.name.rfind("token_embd", 0) == 0 || t.name.rfind("position_embd", 0) == 0 ||
                                       t.name.rfind("token_types", 0) == 0 || t.name.rfind("token_embd_norm", 0) == 0);
    const int il = t.layer >= 0 ? t.layer : n_layer;  // output, output_norm, rope factors: the output layer
    if (!input && on_device(il)) m.device.weights += t.bytes;
    else m.host.weights += t.bytes;
  }

  // KV cache, with its layer (or all on the host with --no-kv-offload).
  const uint64_t kv_size = static_cast<uint64_t>(padded_context(c.n_ctx, c.n_seq));
  m.kv_size = static_cast<int>(kv_size);
  const uint64_t swa_size = s.n_swa ? std::min<uint64_t>(kv_size, pad(static_cast<uint64_t>(s.n_swa) * static_cast<uint64_t>(c.n_seq) +
                                                                      static_cast<uint64_t>(c.n_ubatch)))
                                    : kv_size;
  const ggml_type tk = cache_type(c.type_k), tv = cache_type(c.type_v);
  for (uint32_t il = 0; il < s.n_layer; ++il) {
    const uint64_t bytes = layer_kv_bytes(s, il, s.is_swa(il) ? swa_size : kv_size, tk, tv);
    if (c.offload_kqv && on_device(static_cast<int>(il))) m.device.kv += bytes;
    else m.host.kv += bytes;
  }

  // Compute: the device runs the offloaded part of the graph; the host the rest.
  // Encoders attend within the batch: their "cache" is the batch itself.
  const uint64_t n_kv = s.causal ? kv_size : static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  if (ngl > 0) {
    m.device.compute = compute_bytes(s, c, n_kv, output_on_device);
    m.device.overhead = backend_overhead_bytes(backend);
    if (ngl < n_layer + 1 || !output_on_device) m.host.compute = compute_bytes(s, c, n_kv, !output_on_device);
  } else {
    m.host.compute = compute_bytes(s, c, n_kv, true);
  }

  // Output (logits) buffer, on the host.
  m.host.output = static_cast<uint64_t>(s.causal ? s.n_vocab : s.n_embd) * static_cast<uint64_t>(c.n_seq) * 4;
  return m;
}

std::vector<Components> estimate_split(const model::ModelShape& s, const ContextParams& c, int n_gpu_layers,
                                       const std::string& backend, std::vector<double> split, Components& host) {
  const int n_layer = static_cast<int>(s.n_layer);
  const std::size_t n_dev = std::max<std::size_t>(split.size(), 1);
  double total = 0;
  for (double v : split) total += std::max(0.0, v);
  if (split.empty() || total <= 0) split.assign(n_dev, 1.0), total = static_cast<double>(n_dev);
  std::vector<double> cumulative(n_dev);
  double sum = 0;
  for (std::size_t i = 0; i < n_dev; ++i) cumulative[i] = (sum += std::max(0.0, split[i])) / total;

  const int ngl = n_gpu_layers < 0 ? n_layer + 1 : std::min(n_gpu_layers, n_layer + 1);
  const int i_gpu_start = n_layer + 1 - ngl;
  // The device of layer il (n_layer = the output layer), or -1 for the host.
  auto device_of = [&](int il) -> int {
    if (ngl <= 0 || il < i_gpu_start) return -1;
    const double at = static_cast<double>(il - i_gpu_start) / static_cast<double>(ngl);
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), at);
    return static_cast<int>(std::min<std::ptrdiff_t>(it - cumulative.begin(), static_cast<std::ptrdiff_t>(n_dev) - 1));
  };

  std::vector<Components> dev(n_dev);
  host = Components{};
  for (const auto& t : s.tensors) {
    const bool input = t.layer < 0 && (t.name.rfind("token_embd", 0) == 0 || t.name.rfind("position_embd", 0) == 0 ||
                                       t.name.rfind("token_types", 0) == 0);
    const int d = input ? -1 : device_of(t.layer >= 0 ? t.layer : n_layer);
    (d < 0 ? host : dev[static_cast<std::size_t>(d)]).weights += t.bytes;
  }
  const uint64_t kv_size = static_cast<uint64_t>(padded_context(c.n_ctx, c.n_seq));
  const uint64_t swa_size = s.n_swa ? std::min<uint64_t>(kv_size, pad(static_cast<uint64_t>(s.n_swa) * static_cast<uint64_t>(c.n_seq) +
                                                                      static_cast<uint64_t>(c.n_ubatch)))
                                    : kv_size;
  const ggml_type tk = cache_type(c.type_k), tv = cache_type(c.type_v);
  std::vector<bool> has_layers(n_dev, false);
  for (uint32_t il = 0; il < s.n_layer; ++il) {
    const int d = device_of(static_cast<int>(il));
    const uint64_t bytes = layer_kv_bytes(s, il, s.is_swa(il) ? swa_size : kv_size, tk, tv);
    if (d >= 0) has_layers[static_cast<std::size_t>(d)] = true;
    (d >= 0 && c.offload_kqv ? dev[static_cast<std::size_t>(d)] : host).kv += bytes;
  }
  const uint64_t n_kv = s.causal ? kv_size : static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
  const int out_dev = device_of(n_layer);
  for (std::size_t d = 0; d < n_dev; ++d) {
    const bool holds_output = out_dev == static_cast<int>(d);
    if (!has_layers[d] && !holds_output) continue;
    dev[d].compute = compute_bytes(s, c, n_kv, holds_output);
    dev[d].overhead = backend_overhead_bytes(backend);
  }
  if (ngl < n_layer + 1 || out_dev < 0) host.compute = compute_bytes(s, c, n_kv, out_dev < 0);
  host.output = static_cast<uint64_t>(s.causal ? s.n_vocab : s.n_embd) * static_cast<uint64_t>(c.n_seq) * 4;
  return dev;
}

}  // namespace rigbench::fit
