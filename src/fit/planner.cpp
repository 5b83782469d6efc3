#include "fit/planner.h"

#include <algorithm>

namespace rigbench::fit {

namespace {

constexpr int kMinFitContext = 4096;  // llama.cpp's fit_params_min_ctx

bool is_input(const model::TensorInfo& t) {
  return t.layer < 0 && (t.name.rfind("token_embd", 0) == 0 || t.name.rfind("position_embd", 0) == 0 ||
                         t.name.rfind("token_types", 0) == 0);
}

// Splits the memory for `ngl` and decides whether it fits.
FitResult evaluate(const model::ModelShape& s, const Target& t, const ContextParams& c, int ngl) {
  FitResult r;
  r.target = t;
  r.n_ctx = c.n_ctx;
  const MemorySplit m = estimate_memory(s, c, ngl, t.backend);
  r.n_gpu_layers = m.n_gpu_layers;
  if (t.backend == "cpu") {
    r.device = m.host;
  } else if (t.unified) {
    r.device = m.device;  // one pool: the host part lives in the same memory
    r.device.weights += m.host.weights;
    r.device.kv += m.host.kv;
    r.device.compute += m.host.compute;
    r.device.output += m.host.output;
  } else {
    r.device = m.device;
    r.host = m.host;
  }
  r.margin_bytes = static_cast<int64_t>(t.capacity_bytes) - static_cast<int64_t>(r.device.total());
  const bool device_ok = r.margin_bytes >= 0;
  const bool host_ok = r.host.total() <= t.host_ram_bytes;
  const bool whole = t.backend == "cpu" || t.unified || r.n_gpu_layers == static_cast<int>(s.n_layer) + 1;
  if (device_ok && host_ok) r.verdict = whole ? Verdict::kFits : (r.n_gpu_layers > 0 ? Verdict::kPartial : Verdict::kNo);
  else r.verdict = Verdict::kNo;
  if (device_ok && !host_ok) {
    r.note = "the " + std::to_string(r.host.total() >> 20) + " MiB left in host RAM exceed its " +
             std::to_string(t.host_ram_bytes >> 20) + " MiB";
  }
  return r;
}

double tg_bound(const model::ModelShape& s, const Target& t, const ContextParams& c, int ngl, int depth) {
  // Bytes per token on each side: the share of layers offloaded moves with the weights.
  const MemorySplit m = estimate_memory(s, c, ngl, t.backend);
  const double all = static_cast<double>(bytes_per_token(s, c, depth));
  uint64_t input = 0;
  for (const auto& tensor : s.tensors) {
    if (is_input(tensor)) input += tensor.bytes;
  }
  // Weights read per token on the host exclude the input embeddings (one row per token).
  const double host_read = static_cast<double>(m.host.weights > input ? m.host.weights - input : 0);
  const double weights = static_cast<double>(m.device.weights) + host_read;
  const double device_share = (t.backend == "cpu" || t.unified || weights == 0) ? 1.0 : static_cast<double>(m.device.weights) / weights;
  const double dev_bytes = all * device_share, host_bytes = all - dev_bytes;
  double seconds = 0;
  if (dev_bytes > 0) seconds += dev_bytes / (t.bandwidth_gbps * 1e9);
  if (host_bytes > 0) seconds += host_bytes / (std::max(t.host_bandwidth_gbps, 1e-9) * 1e9);
  return seconds > 0 ? 1.0 / seconds : 0;
}

int largest_fitting_context(const model::ModelShape& s, const Target& t, ContextParams c) {
  const int top = static_cast<int>(std::max<uint32_t>(s.n_ctx_train, 256));
  int lo = 0, hi = top / 256;  // in units of 256 tokens
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    c.n_ctx = mid * 256;
    if (evaluate(s, t, c, -1).verdict == Verdict::kFits) lo = mid;
    else hi = mid - 1;
  }
  return lo * 256;
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kFits: return "fits";
    case Verdict::kPartial: return "partial";
    case Verdict::kNo: break;
  }
  return "does not fit";
}

uint64_t bytes_per_token(const model::ModelShape& s, const ContextParams& c, int depth) {
  double bytes = 0;
  for (const auto& t : s.tensors) {
    if (is_input(t)) continue;
    const bool expert = t.name.find("_exps") != std::string::npos;
    bytes += expert && s.n_expert > 0 ? static_cast<double>(t.bytes) * s.n_expert_used / s.n_expert : static_cast<double>(t.bytes);
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
      if (evaluate(s, t, c, mid).margin_bytes >= 0) lo = mid;
      else hi = mid - 1;
    }
    r = evaluate(s, t, c, lo);
  } else {
    r = evaluate(s, t, c, n_gpu_layers == -2 ? -1 : n_gpu_layers);
  }
  r.max_ctx = largest_fitting_context(s, t, c);
  r.tg_bound_tps = tg_bound(s, t, c, r.n_gpu_layers, depth);
  return r;
}

FitResult plan_fit_default_context(const model::ModelShape& s, const Target& t, ContextParams c, int n_gpu_layers, int depth) {
  c.n_ctx = static_cast<int>(std::max<uint32_t>(s.n_ctx_train, 256));
  FitResult r = plan_fit(s, t, c, n_gpu_layers, depth);
  if (r.verdict != Verdict::kFits && r.max_ctx >= kMinFitContext && r.max_ctx < c.n_ctx) {
    const int trained = c.n_ctx;
    c.n_ctx = r.max_ctx;
    r = plan_fit(s, t, c, n_gpu_layers, depth);
    r.note = "n_ctx capped from n_ctx_train " + std::to_string(trained) + " to " + std::to_string(c.n_ctx) +
             " to fit, as llama.cpp's --fit does";
  } else if (r.note.empty()) {
    r.note = "n_ctx = n_ctx_train " + std::to_string(c.n_ctx) + " (llama.cpp's default)";
  }
  return r;
}

std::vector<FitResult> plan_fit_split(const model::ModelShape& s, const Target& t, const ContextParams& c, int n_gpu_layers,
                                      int depth, int count, const std::vector<double>& split) {
  const int n = std::max(count, 1);
  std::vector<double> shares = split;
  if (shares.empty()) shares.assign(static_cast<std::size_t>(n), 1.0);
  auto evaluate_split = [&](const ContextParams& ctx, int ngl) {
    Components host;
    const std::vector<Components> dev = estimate_split(s, ctx, ngl, t.backend, shares, host);
    std::vector<FitResult> out;
    bool all_room = host.total() <= t.host_ram_bytes;
    for (std::size_t i = 0; i < dev.size(); ++i) {
      FitResult r;
      r.target = t;
      r.target.name = t.name + " #" + std::to_string(i + 1);
      r.device = dev[i];
      r.host = host;
      r.n_ctx = ctx.n_ctx;
      r.n_gpu_layers = ngl < 0 ? static_cast<int>(s.n_layer) + 1 : std::min(ngl, static_cast<int>(s.n_layer) + 1);
      r.margin_bytes = static_cast<int64_t>(t.capacity_bytes) - static_cast<int64_t>(dev[i].total());
      if (r.margin_bytes < 0) all_room = false;
      out.push_back(std::move(r));
    }
    const bool whole = !out.empty() && out.front().n_gpu_layers == static_cast<int>(s.n_layer) + 1;
    for (auto& r : out) r.verdict = !all_room ? Verdict::kNo : (whole ? Verdict::kFits : Verdict::kPartial);
    return out;
  };
  auto devices_have_room = [](const std::vector<FitResult>& rs) {
    return std::all_of(rs.begin(), rs.end(), [](const FitResult& r) { return r.margin_bytes >= 0; });
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
  // The largest context every device holds whole.
  int lo = 0, hi = static_cast<int>(std::max<uint32_t>(s.n_ctx_train, 256)) / 256;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    ContextParams cm = c;
    cm.n_ctx = mid * 256;
    const auto rs = evaluate_split(cm, -1);
    if (!rs.empty() && rs.front().verdict == Verdict::kFits) lo = mid;
    else hi = mid - 1;
  }
  // tg bound: the layers run one device after another, each reading its share of the bytes.
  const double all = static_cast<double>(bytes_per_token(s, c, depth));
  double weights = 0;
  for (const auto& r : results) weights += static_cast<double>(r.device.weights);
  uint64_t input = 0;
  for (const auto& tensor : s.tensors) {
    if (is_input(tensor)) input += tensor.bytes;
  }
  const double host_read = results.empty() ? 0 : static_cast<double>(results.front().host.weights > input ? results.front().host.weights - input : 0);
  weights += host_read;
  double seconds = 0;
  for (const auto& r : results) {
    if (weights > 0 && t.bandwidth_gbps > 0) seconds += all * static_cast<double>(r.device.weights) / weights / (t.bandwidth_gbps * 1e9);
  }
  if (host_read > 0 && weights > 0) seconds += all * host_read / weights / (std::max(t.host_bandwidth_gbps, 1e-9) * 1e9);
  for (auto& r : results) {
    r.max_ctx = lo * 256;
    r.tg_bound_tps = seconds > 0 ? 1.0 / seconds : 0;
  }
  return results;
}

}  // namespace rigbench::fit
