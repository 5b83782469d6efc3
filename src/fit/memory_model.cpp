#include "fit/memory_model.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>

#include "core/strings.h"

namespace rigbench::fit {

namespace {

bool is_repackable(const model::TensorInfo& t) {
  const std::string type = to_lower(t.type);
  return (type == "q4_0" || type == "q4_k" || type == "iq4_nl" || type == "mxfp4") && t.n_rows % 8 == 0;
}

// The user's overrides, compiled once: where a tensor goes, if one matches.
class Overrides {
 public:
  explicit Overrides(const std::vector<TensorOverride>& list) {
    for (const auto& o : list) {
      int where = -1;  // host
      if (to_lower(o.buft) != "cpu") {
        std::size_t i = o.buft.size();
        while (i > 0 && std::isdigit(static_cast<unsigned char>(o.buft[i - 1]))) --i;
        where = i < o.buft.size() ? std::stoi(o.buft.substr(i)) : 0;
      }
      rules_.emplace_back(std::regex(o.pattern), where);  // patterns are checked by parse_tensor_overrides
    }
  }
  // -1 host, d >= 0 device d; nullopt when no override names the tensor.
  std::optional<int> match(const std::string& name) const {
    for (const auto& [re, where] : rules_)
      if (std::regex_search(name, re)) return where;
    return std::nullopt;
  }

 private:
  std::vector<std::pair<std::regex, int>> rules_;
};

// Whether a device whose ops accept tensors up to `max_tensor_bytes` (0: no limit) can hold a
// weight: llama.cpp asks the device for the weight's op on 512 tokens (llama-model-loader.cpp,
// weight_buft_supported), so the weight and that product (rows x 512 F32) must both be within
// it; else the weight and its op stay on the host.
bool device_takes(const model::TensorInfo& t, uint64_t max_tensor_bytes) {
  if (max_tensor_bytes == 0) return true;
  const uint64_t product = t.n_rows > 1 ? static_cast<uint64_t>(t.n_rows) * 512 * 4 : 0;
  return t.bytes <= max_tensor_bytes && product <= max_tensor_bytes;
}

// The token embedding a decoder without output.weight uses as its output layer too.
const model::TensorInfo* tied_output(const model::ModelShape& s) {
  if (!s.causal) return nullptr;
  const model::TensorInfo* embd = nullptr;
  for (const auto& t : s.tensors) {
    if (t.name == "output.weight") return nullptr;
    if (t.name == "token_embd.weight") embd = &t;
  }
  return embd;
}

// Whether the CPU backend repacks `t` when it multiplies it on the host (repack_bytes' rule:
// the input embeddings are looked up, not multiplied).
bool repacked_on_host(const model::TensorInfo& t) { return is_repackable(t) && t.name.rfind("token_embd", 0) != 0; }

// Places every weight: `layer_device(il)` is the device of layer il (n_layer = the output
// layer), -1 the host; overrides come first. `add(where, natural, bytes, repacked)` receives
// each placement (`natural`: where it would be without overrides; `repacked`: the CPU backend
// repacks it if it is on the host), the tied output's copy included (not counted as repacked).
template <typename LayerDevice, typename Add>
void place_weights(const model::ModelShape& s, const ContextParams& c, LayerDevice layer_device, int n_devices, Add add,
                   uint64_t max_tensor_bytes = 0) {
  const Overrides overrides(c.tensor_overrides);
  const int n_layer = static_cast<int>(s.n_layer);
  auto clamp = [&](int d) { return n_devices <= 0 ? -1 : std::min(d, n_devices - 1); };
  int embd_where = -1;
  for (const auto& t : s.tensors) {
    int natural = model::is_input_tensor(t) ? -1 : layer_device(t.layer >= 0 ? t.layer : n_layer);
    if (!device_takes(t, max_tensor_bytes)) natural = -1;
    int where = natural;
    if (auto o = overrides.match(t.name)) where = *o < 0 ? -1 : clamp(*o);
    if (t.name == "token_embd.weight") embd_where = where;
    add(where, natural, t.bytes, repacked_on_host(t));
  }
  // llama.cpp duplicates a tied token_embd into the output layer's buffer type: a second copy
  // where that differs from the input's (the device; on the CPU, CPU_REPACK for a
  // repackable type), none where it is the same buffer.
  if (const model::TensorInfo* tied = tied_output(s)) {
    const int natural = device_takes(*tied, max_tensor_bytes) ? layer_device(n_layer) : -1;
    int out_where = natural;
    if (auto o = overrides.match(tied->name)) out_where = *o < 0 ? -1 : clamp(*o);
    if (out_where != embd_where || (out_where < 0 && is_repackable(*tied))) add(out_where, natural, tied->bytes, false);
  }
}

}  // namespace

uint64_t backend_overhead_bytes(const std::string& backend) {
  const std::string b = to_lower(backend);
  if (b == "cuda" || b == "rocm") return 400ull << 20;
  if (b == "vulkan") return 256ull << 20;
  if (b == "metal") return 64ull << 20;
  return 0;
}

bool backend_pipelines(const std::string& backend) {
  const std::string b = to_lower(backend);
  return b == "cuda" || b == "rocm" || b == "vulkan" || b == "sycl" || b == "metal" || b == "rpc";
}

uint64_t repack_bytes(const model::ModelShape& s) {
  uint64_t bytes = 0;
  for (const auto& t : s.tensors) {
    if (repacked_on_host(t)) bytes += t.bytes;
  }
  return bytes;
}

MemorySplit estimate_memory(const model::ModelShape& s, const ContextParams& c, int n_gpu_layers,
                            const std::string& backend, uint64_t max_tensor_bytes) {
  MemorySplit m;
  const int n_layer = static_cast<int>(s.n_layer);
  const bool has_device = to_lower(backend) != "cpu";
  int ngl = n_gpu_layers < 0 ? n_layer + 1 : std::min(n_gpu_layers, n_layer + 1);
  if (!has_device) ngl = 0;
  m.n_gpu_layers = ngl;
  const int i_gpu_start = n_layer + 1 - ngl;  // blocks il >= i_gpu_start and the output (il = n_layer) offloaded
  auto on_device = [&](int il) { return ngl > 0 && il >= i_gpu_start; };
  // The output layer's product runs on the device only when the device takes its weight (the
  // tied token_embd's copy included) and the logits of a worst-case micro-batch.
  bool output_on_device = on_device(n_layer);
  if (output_on_device && max_tensor_bytes > 0) {
    const uint64_t u = static_cast<uint64_t>(std::min(c.n_ctx, c.n_ubatch));
    const model::TensorInfo* out = tied_output(s);
    for (const auto& t : s.tensors)
      if (t.name == "output.weight") out = &t;
    if ((out && !device_takes(*out, max_tensor_bytes)) ||
        static_cast<uint64_t>(s.causal ? s.n_vocab : s.n_embd) * u * 4 > max_tensor_bytes)
      output_on_device = false;
  }

  // Weights, by where their layer lives (output, output_norm, rope factors: the output layer)
  // unless an override moves them.
  uint64_t host_overridden = 0;  // weights of offloaded layers that overrides keep on the host
  place_weights(
      s, c, [&](int il) { return on_device(il) ? 0 : -1; }, has_device ? 1 : 0,
      [&](int where, int natural, uint64_t bytes, bool repacked) {
        (where >= 0 ? m.device : m.host).weights += bytes;
        if (where < 0 && repacked) m.host.repack += bytes;
        if (where < 0 && natural >= 0) host_overridden += bytes;
      },
      max_tensor_bytes);

  // KV cache, with its layer (or all on the host with --no-kv-offload).
  m.kv_size = context_cells(c);
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
    // With part of the graph on the host the host runs that part; with all of it on the device
    // the host still holds the graph's inputs and the embedding lookup.
    // (and with the output layer, where the device cannot run it).
    const bool blocks_on_host = ngl < n_layer + 1;
    m.host.compute = blocks_on_host ? compute_buffer_bytes(s, c, !output_on_device)
                                    : offloaded_host_compute_bytes(s, c, !output_on_device);
    // Weights of offloaded layers kept on the host (--cpu-moe, -ot): the host runs their
    // matrix products, so it reserves the FFN phase of the graph too.
    if (host_overridden > 0) m.host.compute = std::max(m.host.compute, compute_phases(s, c).ffn);
  } else {
    m.host.compute = compute_buffer_bytes(s, c, true);
  }

  // A projector (--mmproj): on the device when there is one.
  Components& mmproj = has_device ? m.device : m.host;
  mmproj.weights += c.mmproj_weights_bytes;
  mmproj.compute += c.mmproj_compute_bytes;
  if (has_device && c.mmproj_weights_bytes > 0 && m.device.overhead == 0)
    m.device.overhead = backend_overhead_bytes(backend);

  // Output (logits) buffer, on the host.
  m.host.output = static_cast<uint64_t>(s.causal ? s.n_vocab : s.n_embd) * static_cast<uint64_t>(c.n_seq) * 4;
  return m;
}

std::vector<int> split_layer_devices(int n_layer, int n_gpu_layers, std::vector<double> split) {
  const std::size_t n_dev = std::max<std::size_t>(split.size(), 1);
  double total = 0;
  for (double v : split) total += std::max(0.0, v);
  if (split.empty() || total <= 0) split.assign(n_dev, 1.0), total = static_cast<double>(n_dev);
  std::vector<double> cumulative(n_dev);
  double sum = 0;
  for (std::size_t i = 0; i < n_dev; ++i) cumulative[i] = (sum += std::max(0.0, split[i])) / total;
  const int ngl = n_gpu_layers < 0 ? n_layer + 1 : std::min(n_gpu_layers, n_layer + 1);
  const int i_gpu_start = n_layer + 1 - ngl;
  std::vector<int> out(static_cast<std::size_t>(n_layer) + 1, -1);
  for (int il = 0; il <= n_layer; ++il) {
    if (ngl <= 0 || il < i_gpu_start) continue;
    // llama.cpp (llama-model.cpp load_tensors): upper_bound of the layer's position among the
    // offloaded ones in the cumulative split, computed in float as there.
    const float at = static_cast<float>(il - i_gpu_start) / static_cast<float>(ngl);
    std::size_t d = 0;
    while (d < n_dev && static_cast<float>(cumulative[d]) <= at) ++d;
    out[static_cast<std::size_t>(il)] = static_cast<int>(std::min(d, n_dev - 1));
  }
  return out;
}

std::vector<Components> estimate_split(const model::ModelShape& s, const ContextParams& c, int n_gpu_layers,
                                       const std::string& backend, std::vector<double> split, Components& host) {
  const std::size_t n_dev = std::max<std::size_t>(split.size(), 1);
  return estimate_split_devices(s, c, n_gpu_layers, std::vector<std::string>(n_dev, backend),
                                backend_pipelines(backend), std::move(split), host);
}

std::vector<Components> estimate_split_devices(const model::ModelShape& s, const ContextParams& c, int n_gpu_layers,
                                               const std::vector<std::string>& backends, bool async_devices,
                                               std::vector<double> split, Components& host) {
  const int n_layer = static_cast<int>(s.n_layer);
  const std::size_t n_dev = std::max<std::size_t>(split.size(), 1);
  const int ngl = n_gpu_layers < 0 ? n_layer + 1 : std::min(n_gpu_layers, n_layer + 1);
  const std::vector<int> placed = split_layer_devices(n_layer, n_gpu_layers, std::move(split));
  // The device of layer il (n_layer = the output layer), or -1 for the host.
  auto device_of = [&](int il) -> int { return placed[static_cast<std::size_t>(il)]; };
  auto backend_of = [&](std::size_t d) { return d < backends.size() ? backends[d] : backends.back(); };

  std::vector<Components> dev(n_dev);
  host = Components{};
  uint64_t host_overridden = 0;  // weights of offloaded layers that overrides keep on the host
  place_weights(s, c, device_of, static_cast<int>(n_dev), [&](int d, int natural, uint64_t bytes, bool repacked) {
    (d < 0 ? host : dev[static_cast<std::size_t>(d)]).weights += bytes;
    if (d < 0 && repacked) host.repack += bytes;
    if (d < 0 && natural >= 0) host_overridden += bytes;
  });
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
    dev[d].overhead = backend_overhead_bytes(backend_of(d));
  }
  host.compute =
      ngl < n_layer + 1 || out_dev < 0 ? compute_buffer_bytes(s, c, out_dev < 0) : offloaded_host_compute_bytes(s, c);
  if (host_overridden > 0) host.compute = std::max(host.compute, compute_phases(s, c).ffn);
  // llama.cpp's pipeline parallelism (llama-context.cpp; the header says when): the host and each
  // device keep kPipelineCopies copies of what crosses into their splits.
  if (n_dev > 1 && ngl > n_layer && c.offload_kqv && c.tensor_overrides.empty() && async_devices) {
    for (std::size_t d = 0; d < n_dev; ++d) {
      if (!has_layers[d] && out_dev != static_cast<int>(d)) continue;
      PipelineRole role;
      int first = -1;
      for (int il = 0; il < n_layer; ++il) {
        if (device_of(il) != static_cast<int>(d)) continue;
        if (first < 0) first = il;
        else if (il != n_layer - 1) role.middle_layer = true;
      }
      role.first = first == 0;
      role.output = out_dev == static_cast<int>(d);
      dev[d].compute = pipeline_device_compute_bytes(s, c, role);
    }
    host.compute = pipeline_host_compute_bytes(s, c);
  }
  dev[0].weights += c.mmproj_weights_bytes;  // a projector: on the main device
  dev[0].compute += c.mmproj_compute_bytes;
  if (dev[0].overhead == 0 && c.mmproj_weights_bytes > 0) dev[0].overhead = backend_overhead_bytes(backend_of(0));
  host.output = static_cast<uint64_t>(s.causal ? s.n_vocab : s.n_embd) * static_cast<uint64_t>(c.n_seq) * 4;
  return dev;
}

}  // namespace rigbench::fit
