#include "fit/memory_model.h"

#include <algorithm>

#include "core/strings.h"

namespace rigbench::fit {

namespace {

// Tensors of llama.cpp's input layer: looked up on the host, never offloaded.
bool is_input_tensor(const model::TensorInfo& t) {
  if (t.layer >= 0) return false;
  for (const char* prefix : {"token_embd", "position_embd", "token_types"})
    if (t.name.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace


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
    const bool input = is_input_tensor(t);
    const int il = t.layer >= 0 ? t.layer : n_layer;  // output, output_norm, rope factors: the output layer
    if (!input && on_device(il)) m.device.weights += t.bytes;
    else m.host.weights += t.bytes;
  }

  // KV cache, with its layer (or all on the host with --no-kv-offload).
  m.kv_size = padded_context(c.n_ctx, c.n_seq);
  for (uint32_t il = 0; il < s.n_layer; ++il) {
    const uint64_t bytes = layer_cache_bytes(s, c, il), state = layer_state_bytes(s, c, il);
    Components& side = c.offload_kqv && on_device(static_cast<int>(il)) ? m.device : m.host;
    side.kv += bytes;
    side.recurrent += state;
  }

  // Compute: the device runs the offloaded part of the graph; the host the rest.
  if (ngl > 0) {
    m.device.compute = compute_buffer_bytes(s, c, output_on_device);
    m.device.overhead = backend_overhead_bytes(backend);
    if (ngl < n_layer + 1 || !output_on_device) m.host.compute = compute_buffer_bytes(s, c, !output_on_device);
  } else {
    m.host.compute = compute_buffer_bytes(s, c, true);
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
    const bool input = is_input_tensor(t);
    const int d = input ? -1 : device_of(t.layer >= 0 ? t.layer : n_layer);
    (d < 0 ? host : dev[static_cast<std::size_t>(d)]).weights += t.bytes;
  }
  std::vector<bool> has_layers(n_dev, false);
  for (uint32_t il = 0; il < s.n_layer; ++il) {
    const int d = device_of(static_cast<int>(il));
    if (d >= 0) has_layers[static_cast<std::size_t>(d)] = true;
    Components& side = d >= 0 && c.offload_kqv ? dev[static_cast<std::size_t>(d)] : host;
    side.kv += layer_cache_bytes(s, c, il);
    side.recurrent += layer_state_bytes(s, c, il);
  }
  const int out_dev = device_of(n_layer);
  for (std::size_t d = 0; d < n_dev; ++d) {
    const bool holds_output = out_dev == static_cast<int>(d);
    if (!has_layers[d] && !holds_output) continue;
    dev[d].compute = compute_buffer_bytes(s, c, holds_output);
    dev[d].overhead = backend_overhead_bytes(backend);
  }
  if (ngl < n_layer + 1 || out_dev < 0) host.compute = compute_buffer_bytes(s, c, out_dev < 0);
  host.output = static_cast<uint64_t>(s.causal ? s.n_vocab : s.n_embd) * static_cast<uint64_t>(c.n_seq) * 4;
  return dev;
}

}  // namespace rigbench::fit
