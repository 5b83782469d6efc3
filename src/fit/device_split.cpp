#include "fit/device_split.h"

#include <algorithm>

#include "core/strings.h"
#include "fit/compute_buffer.h"
#include "fit/kv_cache.h"
#include "fit/memory_model.h"

namespace rigbench::fit {

namespace {

// The split's shares: -ts where given, else each device's capacity (llama.cpp's default split
// is by the free memory each device reports).
std::vector<double> shares_of(const std::vector<SplitDevice>& devices) {
  std::vector<double> shares;
  bool any = false;
  for (const auto& d : devices) any = any || d.share > 0;
  for (const auto& d : devices) shares.push_back(any ? d.share : static_cast<double>(d.target.capacity_bytes));
  return shares;
}

struct Evaluated {
  std::vector<Components> dev;
  Components host;
  bool room = false;
};

Evaluated evaluate(const model::ModelShape& s, const std::vector<SplitDevice>& devices, const Target& host,
                   const ContextParams& c, int ngl) {
  std::vector<std::string> backends;
  for (const auto& d : devices) backends.push_back(d.target.backend);
  Evaluated e;
  // llama.cpp sees an rpc-server's device as an RPC device (async compute and events), whatever
  // backend runs behind it; this machine's device as its own backend.
  bool async_devices = true;
  for (const auto& d : devices)
    async_devices = async_devices && (!d.endpoint.empty() || backend_pipelines(d.target.backend));
  e.dev = estimate_split_devices(s, c, ngl, backends, async_devices, shares_of(devices), e.host);
  e.room = e.host.total() <= host.host_ram_bytes;
  for (std::size_t i = 0; i < devices.size(); ++i) e.room = e.room && e.dev[i].total() <= devices[i].target.usable_bytes();
  return e;
}

}  // namespace

TokenInputs token_inputs(const model::ModelShape& s, const ContextParams& c, int n_ctx, int depth) {
  const AttentionCaches caches = attention_caches(s, c);
  const uint64_t cell = c.flash_attn ? 2 : 4;
  TokenInputs in;
  if (caches.full) in.mask_bytes += uint64_t{mask_cells(n_ctx, depth)} * cell;
  if (caches.window) in.mask_bytes += uint64_t{mask_cells(static_cast<int>(caches.window_cells), depth)} * cell;
  in.position_and_row_id_bytes = position_and_row_id_bytes(s, c);
  in.tensors = caches.count() * (s.is_mla() ? 2 : 3) + 1;
  return in;
}

HopTraffic rpc_hop_traffic(uint32_t n_embd, uint32_t n_vocab, const TokenInputs& in, bool holds_output) {
  const uint64_t set_header = kRpcCommandHeaderBytes + kRpcTensorBytes + 8;  // | cmd | size | rpc_tensor | offset |
  HopTraffic h;
  const uint64_t inputs = uint64_t{n_embd} * 4                             // hidden state, f32
                          + in.mask_bytes + in.position_and_row_id_bytes  // masks, position (i32), row ids
                          + (holds_output ? 4 : 0);                        // output ids (i32)
  const int messages = 1 + in.tensors + (holds_output ? 1 : 0);
  h.bytes_to_server = inputs + static_cast<uint64_t>(messages) * set_header
                      + kRpcCommandHeaderBytes + 4                     // GRAPH_RECOMPUTE: device id
                      + kRpcCommandHeaderBytes + kRpcTensorBytes + 16;  // GET_TENSOR: rpc_tensor, offset, size
  h.bytes_from_server = kRpcAnswerHeaderBytes + uint64_t{holds_output ? n_vocab : n_embd} * 4;
  h.round_trips = kRpcRoundTripsPerHop;
  return h;
}

uint32_t mask_cells(int n_ctx, int depth) {
  const int used = std::max(depth, 0) + 1;
  const int padded = std::max(256, (used + 255) / 256 * 256);
  return static_cast<uint32_t>(std::min(padded, std::max(n_ctx, 1)));
}

NetworkTerm network_per_token(const std::vector<HopTraffic>& hops, const Link& link) {
  NetworkTerm t;
  for (const HopTraffic& h : hops) {
    ++t.hops;
    t.round_trips += h.round_trips;
    t.bytes += h.bytes_to_server + h.bytes_from_server;
  }
  t.known = link.gbps > 0 || t.bytes == 0;
  const double transfer = link.gbps > 0 ? static_cast<double>(t.bytes) * 8 / (link.gbps * 1e9) : 0;
  t.seconds = t.round_trips * link.rtt_ms / 1e3 + transfer;
  return t;
}

SplitSetup rpc_split_setup(const std::vector<RpcServerMemory>& servers, const Target& local, double link_gbps,
                           double link_rtt_ms) {
  SplitSetup out;
  int index = 0;
  std::vector<double> rtts;
  for (const RpcServerMemory& server : servers) {
    rtts.push_back(server.rtt_ms);
    for (const uint64_t free : server.free_bytes) {
      SplitDevice sd;
      sd.endpoint = server.endpoint;
      sd.target.name = "RPC" + std::to_string(index++) + " " + server.endpoint;
      sd.target.backend = "rpc";
      sd.target.capacity_bytes = free;                          // llama.cpp splits and fits by free memory
      sd.target.bandwidth_gbps = local.host_bandwidth_gbps;  // not reported by the server: assumed
      out.devices.push_back(std::move(sd));
    }
  }
  if (local.backend != "cpu") out.devices.push_back({local, "", 0, ""});  // this machine's GPU, after the servers
  out.host = local;
  std::sort(rtts.begin(), rtts.end());
  const double median = rtts.empty() ? 0 : rtts[rtts.size() / 2];
  out.link = make_link(link_gbps, link_rtt_ms, median, "measured",
                       "round trip " + format_fixed(median, 3) + " ms measured (median of 5 per server)");
  return out;
}

Link make_link(double gbps, double rtt_ms, double rtt_else_ms, const std::string& rtt_else_from,
               const std::string& rtt_else_words) {
  Link link;
  link.gbps = gbps > 0 ? gbps : 1.0;
  link.gbps_from = gbps > 0 ? "stated" : "assumed";
  link.rtt_ms = rtt_ms >= 0 ? rtt_ms : rtt_else_ms;
  link.rtt_from = rtt_ms >= 0 ? "stated" : rtt_else_from;
  link.source = (gbps > 0 ? "--link-gbps " + format_fixed(gbps, 3) : std::string("1 Gb/s assumed (gigabit Ethernet; --link-gbps)")) +
                ", " + (rtt_ms >= 0 ? "--link-rtt-ms " + format_fixed(rtt_ms, 3) : rtt_else_words);
  return link;
}

Result<std::size_t> single_device_index(int main_gpu, std::size_t n_devices) {
  if (main_gpu >= 0 && static_cast<std::size_t>(main_gpu) < n_devices) return static_cast<std::size_t>(main_gpu);
  return fail(ErrorCode::kUsage,
              "-mg/--main-gpu " + std::to_string(main_gpu) + " with -sm none: the split has " +
                  std::to_string(n_devices) +
                  (n_devices == 1 ? " device (0)" : " devices (0.." + std::to_string(n_devices - 1) + ")"));
}

std::string unplanned_split_mode(const std::string& split_mode) {
  if (split_mode == "row")
    return "-sm/--split-mode row: llama.cpp v0.4.0 splits rows only over SYCL devices (CUDA's row split became -sm "
           "tensor); fit plans -sm none and layer";
  if (split_mode == "tensor")
    return "-sm/--split-mode tensor: fit plans -sm none and layer, not tensor parallelism (llama.cpp's own fitting, "
           "common/fit.cpp, refuses it too)";
  return "";
}

void set_split_shares(std::vector<SplitDevice>& devices, const std::vector<double>& shares) {
  for (std::size_t i = 0; i < devices.size(); ++i) devices[i].share = i < shares.size() ? shares[i] : 0;
}

SplitPlan plan_device_split(const model::ModelShape& s, const std::vector<SplitDevice>& devices, const Target& host,
                            const ContextParams& c, int n_gpu_layers, int depth, const Link& link) {
  SplitPlan plan;
  plan.link = link;
  plan.host_ram_bytes = host.host_ram_bytes;
  const int n_layer = static_cast<int>(s.n_layer);
  int ngl = n_gpu_layers;
  if (n_gpu_layers == -2) {  // the most layers for which every device has room
    int lo = 0, hi = n_layer + 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      const Evaluated e = evaluate(s, devices, host, c, mid);
      bool devices_ok = true;
      for (std::size_t i = 0; i < devices.size(); ++i)
        devices_ok = devices_ok && e.dev[i].total() <= devices[i].target.usable_bytes();
      if (devices_ok) lo = mid;
      else hi = mid - 1;
    }
    ngl = lo;
  }
  plan.n_gpu_layers = ngl < 0 ? n_layer + 1 : std::min(ngl, n_layer + 1);
  plan.n_ctx = context_cells(c);
  const Evaluated e = evaluate(s, devices, host, c, ngl);
  plan.host = e.host;
  const std::vector<int> placed = split_layer_devices(n_layer, ngl, shares_of(devices));
  plan.n_layers.assign(devices.size(), 0);
  for (int il = 0; il < n_layer; ++il) {
    if (placed[static_cast<std::size_t>(il)] >= 0) ++plan.n_layers[static_cast<std::size_t>(placed[static_cast<std::size_t>(il)])];
  }
  plan.output_device = placed[static_cast<std::size_t>(n_layer)];
  // The largest context at which this placement has room on every device and in host RAM.
  plan.max_ctx = largest_context_with_room(
      s, c, [&](const ContextParams& cm) { return evaluate(s, devices, host, cm, plan.n_gpu_layers).room; });
  const bool whole = plan.n_gpu_layers == n_layer + 1;
  const int64_t host_margin = static_cast<int64_t>(host.host_ram_bytes) - static_cast<int64_t>(e.host.total());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    FitResult r;
    r.target = devices[i].target;
    r.device = e.dev[i];
    r.n_ctx = plan.n_ctx;
    r.n_ctx_seq = plan.n_ctx / kv_streams(c);
    r.n_gpu_layers = plan.n_gpu_layers;
    r.max_ctx = plan.max_ctx;
    r.split_layers = plan.n_layers[i];
    r.split_output = plan.output_device == static_cast<int>(i);
    r.margin_bytes = static_cast<int64_t>(devices[i].target.usable_bytes()) - static_cast<int64_t>(e.dev[i].total());
    r.verdict = r.margin_bytes >= 0 ? Verdict::kFits : Verdict::kNo;
    plan.devices.push_back(std::move(r));
  }
  plan.verdict = !e.room ? Verdict::kNo : (whole ? Verdict::kFits : (plan.n_gpu_layers > 0 ? Verdict::kPartial : Verdict::kNo));
  if (host_margin < 0) {
    plan.note = host_ram_note(e.host.total(), host);
  }

  // tg bound: the layers run one device after another, each reading its share of the bytes
  // per token at its own bandwidth, the host's part at the host's; then the network.
  const double all = static_cast<double>(bytes_per_token(s, c, depth));
  uint64_t input = 0;
  for (const auto& t : s.tensors) {
    if (model::is_input_tensor(t)) input += t.bytes;
  }
  const double host_read = static_cast<double>(e.host.weights > input ? e.host.weights - input : 0);
  double weights = host_read;
  for (const auto& d : e.dev) weights += static_cast<double>(d.weights);
  double seconds = 0;
  for (std::size_t i = 0; i < devices.size() && weights > 0; ++i) {
    const double bw = devices[i].target.bandwidth_gbps;
    if (e.dev[i].weights == 0) continue;
    // A device of unknown bandwidth makes the bound unknown: adding 0 s would call it infinitely fast.
    if (bw <= 0) {
      if (plan.bound_unknown.empty()) plan.bound_unknown = devices[i].target.name + " has no known memory bandwidth";
      continue;
    }
    seconds += all * static_cast<double>(e.dev[i].weights) / weights / (bw * 1e9);
  }
  if (host_read > 0 && weights > 0) {
    if (host.host_bandwidth_gbps > 0) seconds += all * host_read / weights / (host.host_bandwidth_gbps * 1e9);
    else if (plan.bound_unknown.empty()) plan.bound_unknown = "the host has no known memory bandwidth";
  }
  // The network: one hop per remote device that holds layers or the output layer.
  std::vector<HopTraffic> hops;
  const TokenInputs in = token_inputs(s, c, plan.n_ctx, depth);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const bool output = plan.output_device == static_cast<int>(i);
    if (!devices[i].endpoint.empty() && (plan.n_layers[i] > 0 || output))
      hops.push_back(rpc_hop_traffic(s.n_embd, s.n_vocab, in, output));
  }
  const NetworkTerm net = network_per_token(hops, link);
  plan.hops = net.hops;
  plan.round_trips_per_token = net.round_trips;
  plan.network_bytes_per_token = net.bytes;
  plan.network_s_per_token = net.seconds;
  if (!net.known && plan.bound_unknown.empty()) plan.bound_unknown = "the link's bandwidth is not known";
  if (plan.bound_unknown.empty()) {
    plan.compute_bound_tps = seconds > 0 ? 1.0 / seconds : 0;
    const double total_s = seconds + plan.network_s_per_token;
    plan.tg_bound_tps = total_s > 0 ? 1.0 / total_s : 0;
  }
  for (auto& r : plan.devices) r.tg_bound_tps = plan.tg_bound_tps;
  return plan;
}

}  // namespace rigbench::fit
