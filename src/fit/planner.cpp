#include "fit/planner.h"

#include <algorithm>

#include "core/strings.h"
#include "fit/speed_work.h"

namespace rigbench::fit {

namespace {

void add_note(std::string& note, const std::string& more) {
  if (more.empty()) return;
  note += (note.empty() ? "" : "; ") + more;
}

// KV streams: the context is cut and aligned per stream (256 cells each; kv_cache.h kv_streams).
int n_seq_of(const ContextParams& c) { return kv_streams(c); }

// The largest default context llama.cpp considers: n_ctx_train per sequence.
int64_t trained_context(const model::ModelShape& s, const ContextParams& c) {
  return static_cast<int64_t>(std::max<uint32_t>(s.n_ctx_train, 256)) * n_seq_of(c);
}

// Splits the memory for `ngl` and decides whether it fits.
FitResult evaluate(const model::ModelShape& s, const Target& t, const ContextParams& c, int ngl) {
  FitResult r;
  r.target = t;
  const MemorySplit m = estimate_memory(s, c, ngl, t.backend, t.max_tensor_bytes);
  r.n_ctx = m.kv_size;
  r.n_ctx_seq = m.kv_size / kv_streams(c);
  r.n_gpu_layers = m.n_gpu_layers;
  if (t.backend == "cpu") {
    r.device = m.host;
  } else if (t.unified) {
    r.device = m.device;  // one pool: the host part lives in the same memory
    r.device.weights += m.host.weights;
    r.device.kv += m.host.kv;
    r.device.recurrent += m.host.recurrent;
    r.device.compute += m.host.compute;
    r.device.output += m.host.output;
    r.device.repack += m.host.repack;
  } else {
    r.device = m.device;
    r.host = m.host;
  }
  const int64_t device_margin = static_cast<int64_t>(t.usable_bytes()) - static_cast<int64_t>(r.device.total());
  const int64_t host_margin = static_cast<int64_t>(t.host_ram_bytes) - static_cast<int64_t>(r.host.total());
  const bool has_host = t.backend != "cpu" && !t.unified;
  const bool device_ok = device_margin >= 0;
  const bool host_ok = !has_host || host_margin >= 0;
  r.margin_bytes = has_host ? std::min(device_margin, host_margin) : device_margin;
  const bool whole = t.backend == "cpu" || t.unified || r.n_gpu_layers == static_cast<int>(s.n_layer) + 1;
  if (device_ok && host_ok)
    r.verdict = whole ? Verdict::kFits : (r.n_gpu_layers > 0 ? Verdict::kPartial : Verdict::kNo);
  else r.verdict = Verdict::kNo;
  if (device_ok && !host_ok) {
    r.note = host_ram_note(r.host.total(), t);
  }
  return r;
}

bool has_room(const FitResult& r) { return r.margin_bytes >= 0; }

double tg_bound(const model::ModelShape& s, const Target& t, const ContextParams& c, int ngl, int depth) {
  // Bytes per token on each side: the share of layers offloaded moves with the weights.
  const MemorySplit m = estimate_memory(s, c, ngl, t.backend, t.max_tensor_bytes);
  const double all = static_cast<double>(bytes_per_token(s, c, depth));
  uint64_t input = 0;
  for (const auto& tensor : s.tensors) {
    if (model::is_input_tensor(tensor)) input += tensor.bytes;
  }
  // Weights read per token on the host exclude the input embeddings (one row per token).
  const double host_read = static_cast<double>(m.host.weights > input ? m.host.weights - input : 0);
  const double weights = static_cast<double>(m.device.weights) + host_read;
  const double device_share =
      (t.backend == "cpu" || t.unified || weights == 0) ? 1.0 : static_cast<double>(m.device.weights) / weights;
  const double dev_bytes = all * device_share, host_bytes = all - dev_bytes;
  double seconds = 0;
  if (dev_bytes > 0) seconds += dev_bytes / (t.bandwidth_gbps * 1e9);
  if (host_bytes > 0) seconds += host_bytes / (std::max(t.host_bandwidth_gbps, 1e-9) * 1e9);
  return seconds > 0 ? 1.0 / seconds : 0;
}

// The largest context at which `ngl` layers on the device still have room.
int largest_fitting_context(const model::ModelShape& s, const Target& t, const ContextParams& c, int ngl) {
  return largest_context_with_room(s, c, [&](const ContextParams& cm) { return has_room(evaluate(s, t, cm, ngl)); });
}

// The notes every plan carries about its context.
void context_notes(const model::ModelShape& s, const ContextParams& c, FitResult& r) {
  const int n_seq = n_seq_of(c);
  if (c.n_ctx > 0 && r.n_ctx != c.n_ctx) {
    add_note(r.note, "n_ctx " + std::to_string(c.n_ctx) + " padded to " + std::to_string(r.n_ctx) +
                         (n_seq > 1 ? " (256 per sequence)" : "") + ", as llama.cpp allocates it");
  }
  if (s.n_ctx_train > 0 && r.n_ctx / n_seq > static_cast<int>(s.n_ctx_train)) {
    add_note(r.note, "n_ctx " + std::to_string(r.n_ctx / n_seq) + (n_seq > 1 ? " per sequence" : "") +
                         " exceeds n_ctx_train " + std::to_string(s.n_ctx_train) +
                         ": llama.cpp warns of a training context overflow; output may degrade beyond n_ctx_train");
  }
}

}  // namespace

std::string host_ram_note(uint64_t host_part_bytes, const Target& host) {
  const std::string name = host.host_name.empty() ? "this machine" : host.host_name;
  return "the " + format_gib(static_cast<int64_t>(host_part_bytes)) + " GiB left in host RAM exceed its " +
         format_gib(static_cast<int64_t>(host.host_ram_bytes)) + " GiB (host: " + name + ")";
}

int largest_context_with_room(const model::ModelShape& s, const ContextParams& c,
                              const std::function<bool(const ContextParams&)>& has_room) {
  const int64_t step = 256LL * n_seq_of(c);
  int64_t lo = 0, hi = std::max<int64_t>(trained_context(s, c), c.n_ctx) / step;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    ContextParams cm = c;
    cm.n_ctx = static_cast<int>(mid * step);
    if (has_room(cm)) lo = mid;
    else hi = mid - 1;
  }
  return static_cast<int>(lo * step);
}

std::string split_layers_text(const FitResult& r) {
  if (r.split_layers < 0) return "";
  return std::to_string(r.split_layers) + (r.split_layers == 1 ? " layer" : " layers") +
         (r.split_output ? " + output" : "");
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kFits: return "fits";
    case Verdict::kPartial: return "partial";
    case Verdict::kNo: break;
  }
  return "does not fit";
}

std::vector<FitResult> plan_fit_split_default_context(const model::ModelShape& s, const Target& t, ContextParams c,
                                                      int n_gpu_layers, int depth, int count,
                                                      const std::vector<double>& split) {
  const int n_dev = std::max(count, 1);
  std::vector<double> shares = split;
  if (shares.empty()) shares.assign(static_cast<std::size_t>(n_dev), 1.0);
  const int n_seq = n_seq_of(c);
  const int64_t n_ctx_max = trained_context(s, c);
  const int64_t n_ctx_min = static_cast<int64_t>(kMinFitContext) * n_seq;
  const int ngl_trial = n_gpu_layers == -2 ? -1 : n_gpu_layers;
  struct Used {
    int64_t total = 0, weights = 0;
  };
  auto used_at = [&](int64_t n_ctx) {
    ContextParams ci = c;
    ci.n_ctx = static_cast<int>(n_ctx);
    Components host;
    Used u;
    for (const auto& d : estimate_split(s, ci, ngl_trial, t.backend, shares, host)) {
      u.total += static_cast<int64_t>(d.total());
      u.weights += static_cast<int64_t>(d.weights);
    }
    return u;
  };
  const Used at_max = used_at(n_ctx_max);
  // common/fit.cpp: whole layers per device waste about half a layer each (a third of one for MoE).
  const int64_t per_layer = at_max.weights / std::max<int64_t>(1, s.n_layer);
  const int64_t target =
      static_cast<int64_t>(t.usable_bytes()) * n_dev - (n_dev + 1) * per_layer / (s.n_expert == 0 ? 2 : 6);
  int64_t n_ctx = n_ctx_max;
  std::string why = "n_ctx = n_ctx_train " + std::to_string(n_ctx_max / n_seq) + (n_seq > 1 ? " per sequence" : "") +
                    " (llama.cpp's default)";
  // llama.cpp changes nothing when every device keeps its margin free at n_ctx_train.
  ContextParams cm = c;
  cm.n_ctx = static_cast<int>(n_ctx_max);
  Components host_max;
  const std::vector<Components> dev_max = estimate_split(s, cm, ngl_trial, t.backend, shares, host_max);
  const bool any_short =
      std::any_of(dev_max.begin(), dev_max.end(), [&](const Components& d) { return d.total() > t.usable_bytes(); });
  if (any_short && n_ctx_max > n_ctx_min) {
    const Used at_min = used_at(n_ctx_min);
    n_ctx = n_ctx_min;
    if (target > at_min.total && at_max.total > at_min.total) {
      n_ctx += (n_ctx_max - n_ctx_min) * (target - at_min.total) / (at_max.total - at_min.total);
      const int64_t align = 256LL * n_seq;
      n_ctx = std::max(n_ctx - n_ctx % align, n_ctx_min);
    }
    why = "n_ctx cut from n_ctx_train " + std::to_string(n_ctx_max / n_seq) + (n_seq > 1 ? " per sequence" : "") +
          " to " + std::to_string(n_ctx) + ", as llama.cpp's --fit cuts it for " + std::to_string(n_dev) +
          " devices (their usable memory less an allowance for whole layers; not below " + std::to_string(n_ctx_min) +
          ")";
  }
  c.n_ctx = static_cast<int>(n_ctx);
  std::vector<FitResult> out = plan_fit_split(s, t, c, n_gpu_layers, depth, count, split);
  for (auto& r : out) {
    const std::string rest = r.note;
    r.note = why;
    add_note(r.note, rest);
  }
  return out;
}

uint64_t bytes_per_token(const model::ModelShape& s, const ContextParams& c, int depth) {
  double bytes = 0;
  for (const auto& t : s.tensors) {
    if (!model::is_input_tensor(t)) bytes += static_cast<double>(t.bytes) * expert_share(s, t);  // a row of the input
  }
  if (depth > 0) {
    ContextParams one = c;
    one.n_ctx = depth;
    const MemorySplit m = estimate_memory(s, one, 0, "cpu");
    bytes += static_cast<double>(m.host.kv) * depth / std::max(1, m.kv_size);  // cells actually read
  }
  return static_cast<uint64_t>(bytes);
}

FitResult plan_fit(const model::ModelShape& s, const Target& t, const ContextParams& c, int n_gpu_layers, int depth) {
  FitResult r;
  if (n_gpu_layers == -2 && t.backend != "cpu" && !t.unified) {
    // The most layers that fit on the device (monotonic in ngl).
    int lo = 0, hi = static_cast<int>(s.n_layer) + 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (static_cast<int64_t>(evaluate(s, t, c, mid).device.total()) <= static_cast<int64_t>(t.usable_bytes()))
        lo = mid;
      else hi = mid - 1;
    }
    r = evaluate(s, t, c, lo);
  } else {
    r = evaluate(s, t, c, n_gpu_layers == -2 ? -1 : n_gpu_layers);
  }
  if (r.verdict == Verdict::kNo && r.margin_bytes >= 0 && r.n_gpu_layers == 0 && t.backend != "cpu" && !t.unified) {
    // Nothing offloaded: the device's shortfall is that of the smallest offload (the output layer).
    const FitResult one = evaluate(s, t, c, 1);
    r.margin_bytes = static_cast<int64_t>(t.usable_bytes()) - static_cast<int64_t>(one.device.total());
    add_note(r.note,
             "not even the output layer fits the device (" + std::to_string(one.device.total() >> 20) + " MiB)");
  }
  r.max_ctx = largest_fitting_context(s, t, c, r.n_gpu_layers);
  r.generates = s.causal;
  r.tg_bound_tps = s.causal ? tg_bound(s, t, c, r.n_gpu_layers, depth) : 0;
  context_notes(s, c, r);
  return r;
}

FitResult plan_fit_default_context(const model::ModelShape& s, const Target& t, ContextParams c, int n_gpu_layers,
                                   int depth) {
  // llama.cpp's --fit (common/fit.cpp, step 2): measure at the largest and the smallest
  // context with every layer on the device, and interpolate to the usable bytes.
  const int n_seq = n_seq_of(c);
  const int64_t n_ctx_max = trained_context(s, c);
  const int64_t n_ctx_min = static_cast<int64_t>(kMinFitContext) * n_seq;
  const int ngl_trial = n_gpu_layers == -2 ? -1 : n_gpu_layers;
  const int64_t target = static_cast<int64_t>(t.usable_bytes());
  auto used_at = [&](int64_t n_ctx) {
    ContextParams ci = c;
    ci.n_ctx = static_cast<int>(n_ctx);
    return static_cast<int64_t>(evaluate(s, t, ci, ngl_trial).device.total());
  };
  const int64_t used_max = used_at(n_ctx_max);
  int64_t n_ctx = n_ctx_max;
  std::string why;
  if (used_max > target && n_ctx_max > n_ctx_min) {
    const int64_t used_min = used_at(n_ctx_min);
    n_ctx = n_ctx_min;
    if (target > used_min && used_max > used_min) {
      n_ctx += (n_ctx_max - n_ctx_min) * (target - used_min) / (used_max - used_min);
      const int64_t align = 256LL * n_seq;
      n_ctx = std::max(n_ctx - n_ctx % align, n_ctx_min);
    }
    why = "n_ctx cut from n_ctx_train " + std::to_string(n_ctx_max / n_seq) + (n_seq > 1 ? " per sequence" : "") +
          " to " + std::to_string(n_ctx) + ", as llama.cpp's --fit cuts it (what fits " +
          std::to_string(t.usable_bytes() >> 20) + " MiB: the device's memory less the " +
          std::to_string(t.reserve_bytes >> 20) + " MiB it keeps free; not below " + std::to_string(n_ctx_min) + ")";
  } else {
    why = "n_ctx = n_ctx_train " + std::to_string(n_ctx_max / n_seq) + (n_seq > 1 ? " per sequence" : "") +
          " (llama.cpp's default)";
  }
  c.n_ctx = static_cast<int>(n_ctx);
  FitResult r = plan_fit(s, t, c, n_gpu_layers, depth);
  std::string rest = r.note;
  r.note = why;
  add_note(r.note, rest);
  return r;
}

std::vector<FitResult> plan_fit_split(const model::ModelShape& s, const Target& t, const ContextParams& c,
                                      int n_gpu_layers, int depth, int count, const std::vector<double>& split) {
  const int n = std::max(count, 1);
  std::vector<double> shares = split;
  if (shares.empty()) shares.assign(static_cast<std::size_t>(n), 1.0);
  auto evaluate_split = [&](const ContextParams& ctx, int ngl) {
    Components host;
    const std::vector<Components> dev = estimate_split(s, ctx, ngl, t.backend, shares, host);
    std::vector<FitResult> out;
    const int64_t host_margin = static_cast<int64_t>(t.host_ram_bytes) - static_cast<int64_t>(host.total());
    bool all_room = host_margin >= 0;
    for (std::size_t i = 0; i < dev.size(); ++i) {
      FitResult r;
      r.target = t;
      r.target.name = t.name + " #" + std::to_string(i + 1);
      r.device = dev[i];
      r.host = host;
      r.n_ctx = context_cells(ctx);
      r.n_ctx_seq = context_per_sequence(ctx);
      r.n_gpu_layers = ngl < 0 ? static_cast<int>(s.n_layer) + 1 : std::min(ngl, static_cast<int>(s.n_layer) + 1);
      const int64_t device_margin = static_cast<int64_t>(t.usable_bytes()) - static_cast<int64_t>(dev[i].total());
      r.margin_bytes = std::min(device_margin, host_margin);
      if (device_margin < 0) all_room = false;
      out.push_back(std::move(r));
    }
    const bool whole = !out.empty() && out.front().n_gpu_layers == static_cast<int>(s.n_layer) + 1;
    for (auto& r : out) r.verdict = !all_room ? Verdict::kNo : (whole ? Verdict::kFits : Verdict::kPartial);
    return out;
  };
  auto devices_have_room = [&](const std::vector<FitResult>& rs) {
    return std::all_of(rs.begin(), rs.end(), [&](const FitResult& r) { return r.device.total() <= t.usable_bytes(); });
  };
  int ngl = n_gpu_layers;
  if (n_gpu_layers == -2) {
    int lo = 0, hi = static_cast<int>(s.n_layer) + 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (devices_have_room(evaluate_split(c, mid))) lo = mid;
      else hi = mid - 1;
    }
    ngl = lo;
  }
  std::vector<FitResult> results = evaluate_split(c, ngl);
  // The largest context at which this placement still has room on every device and the host.
  const int max_ctx = largest_context_with_room(s, c, [&](const ContextParams& cm) {
    const auto rs = evaluate_split(cm, ngl);
    return !rs.empty() && std::all_of(rs.begin(), rs.end(), has_room);
  });
  // Each device's layers, as llama.cpp places them over the shares.
  const std::vector<int> placed = split_layer_devices(static_cast<int>(s.n_layer), ngl, shares);
  for (auto& r : results) r.split_layers = 0;
  for (std::size_t il = 0; il < placed.size(); ++il) {
    const int d = placed[il];
    if (d < 0 || static_cast<std::size_t>(d) >= results.size()) continue;
    if (il + 1 == placed.size()) results[static_cast<std::size_t>(d)].split_output = true;
    else ++results[static_cast<std::size_t>(d)].split_layers;
  }
  // tg bound: the layers run one device after another, each reading its share of the bytes.
  const double all = static_cast<double>(bytes_per_token(s, c, depth));
  double weights = 0;
  for (const auto& r : results) weights += static_cast<double>(r.device.weights);
  uint64_t input = 0;
  for (const auto& tensor : s.tensors) {
    if (model::is_input_tensor(tensor)) input += tensor.bytes;
  }
  const double host_read =
      results.empty()
          ? 0
          : static_cast<double>(results.front().host.weights > input ? results.front().host.weights - input : 0);
  weights += host_read;
  double seconds = 0;
  for (const auto& r : results) {
    if (weights > 0 && t.bandwidth_gbps > 0)
      seconds += all * static_cast<double>(r.device.weights) / weights / (t.bandwidth_gbps * 1e9);
  }
  if (host_read > 0 && weights > 0)
    seconds += all * host_read / weights / (std::max(t.host_bandwidth_gbps, 1e-9) * 1e9);
  for (auto& r : results) {
    context_notes(s, c, r);
    r.max_ctx = max_ctx;
    r.generates = s.causal;
    r.tg_bound_tps = s.causal && seconds > 0 ? 1.0 / seconds : 0;
  }
  return results;
}

}  // namespace rigbench::fit
