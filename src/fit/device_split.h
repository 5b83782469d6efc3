// rigbench: a model split over unlike devices, some on other machines (llama.cpp's RPC
// backend: `fit --rpc`, `fit --device NAME --rpc-device NAME,...`). The layers go as llama.cpp
// places them (memory_model.h split_layer_devices: rpc-servers first, then this machine's
// GPUs, in the shares of -ts or, by default, of each device's free memory); every device gets
// a verdict; the tg bound adds the network (network_per_token: what ggml's RPC client sends
// and waits for per token, rpc_hop_traffic).
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "fit/planner.h"

namespace rigbench::fit {

// The link between the machines: what carries the activations of a split model.
struct Link {
  double gbps = 0;          // Gb/s (10^9 bits per second) each way
  double rtt_ms = 0;        // ms, a round trip of a small message
  std::string source;       // how the figures were obtained, said with the plan, e.g.
                            // "--link-gbps 1, --link-rtt-ms 0.5" or "rtt measured (median of 5)"
  std::string gbps_from;    // where gbps came from: "stated" (--link-gbps) or "assumed"
  std::string rtt_from;     // where rtt_ms came from: "stated", "measured" or "assumed"
};

// What ggml's RPC client does per generated token for one remote split of the graph (a "hop":
// a device of an rpc-server holding a run of layers or the output layer). Read from
// third_party/llama.cpp, ggml/src/ggml-rpc/ggml-rpc.cpp (protocol 6.0.0, the rpc_dispatcher:
// one queue and one socket per server) and ggml-backend.cpp ggml_backend_sched_compute_splits:
//  - llama.cpp places a device's layers contiguously, so the scheduler makes one split per
//    device per graph;
//  - into the split, one SET_TENSOR per input of the split: the hidden state (n_embd f32) and
//    token_inputs: per KV cache the attention reads a KQ mask row (n_kv f16 with flash attention,
//    else f32; n_kv is the KV cells in use padded to 256), the K row id (i64) and the V row ids
//    (one i64 with flash attention; without it one per value of the widest layer's V, since V is
//    stored transposed: llama_kv_cache::build_input_v_idxs); and the position (i32). Sliding-window
//    models read two caches (build_attn_inp_kv_iswa: the window's mask and row ids too). The hop
//    holding the output layer also gets the output ids (i32). send_rpc_cmd without an output: no
//    answer.
//  - GRAPH_RECOMPUTE (GRAPH_COMPUTE the first time, with the serialized graph): no answer;
//    synchronize and events are a marker in the dispatcher's local queue, not a message.
//  - out of the split, one GET_TENSOR: the hidden state for the next device (the scheduler's
//    ggml_backend_tensor_copy) or, on the hop holding the output layer, the logits (n_vocab
//    f32, llama_context's tensor_get_async + synchronize). The only command per token that
//    waits for the server's answer.
// So 1 round trip per hop per token (kRpcRoundTripsPerHop), not 1 per command: the other
// commands are pipelined on the socket ahead of it. The relay in bench/rpc_delay_relay.py counts
// the commands on the wire (--count-file); rpc_e2e_tests holds 1 turn per graph compute.
constexpr int kRpcRoundTripsPerHop = 1;
constexpr uint64_t kRpcTensorBytes = 296;      // sizeof(rpc_tensor), packed, GGML_MAX_SRC 10
constexpr uint64_t kRpcCommandHeaderBytes = 9;  // command byte + 8-byte size
constexpr uint64_t kRpcAnswerHeaderBytes = 8;   // 8-byte size

// The bytes one hop moves per token, each way, and its round trips.
struct HopTraffic {
  uint64_t bytes_to_server = 0;    // SET_TENSORs (header + rpc_tensor + offset + data), the
                                   // GRAPH_RECOMPUTE and the GET_TENSOR request
  uint64_t bytes_from_server = 0;  // the GET_TENSOR answer: hidden state or logits
  int round_trips = 0;             // kRpcRoundTripsPerHop
};

// What one generated token takes into a hop besides the hidden state (llama-graph.cpp's inputs at
// n_tokens = 1).
struct TokenInputs {
  uint64_t mask_bytes = 0;                 // the KQ mask rows of every cache: cells x 2 (f16, flash
                                           // attention) or 4 (f32)
  uint64_t position_and_row_id_bytes = 0;  // the position (i32) and the K and V row ids of every cache
                                           // (compute_buffer.h position_and_row_id_bytes)
  int tensors = 0;  // their SET_TENSORs: per cache the mask, the K ids and (not for MLA) the V ids; and
                    // the position
};

// For `shape` with `ctx` at `depth` tokens in a context of n_ctx cells (padded): the full cache's
// mask over mask_cells(n_ctx, depth), the window cache's over mask_cells(its cells, depth).
// Llama-3.1-70B with flash attention at depth 0: 512 + 16 bytes in 4 tensors (+ the hidden state:
// the 5 SET_TENSORs a token the relay counts); without it the V ids are 1024 i64 (8 KiB) a token.
TokenInputs token_inputs(const model::ModelShape& shape, const ContextParams& ctx, int n_ctx, int depth);

// The traffic of one hop per token: the hidden state and `in` to the server (each a SET_TENSOR),
// the graph compute, the answer. holds_output: the hop holds the output layer (the output ids
// go in, the logits come back).
HopTraffic rpc_hop_traffic(uint32_t n_embd, uint32_t n_vocab, const TokenInputs& in, bool holds_output);

// The cells llama.cpp's KV mask covers for a token at `depth` in a context of n_ctx cells
// (padded): max(256, the cells in use rounded up to 256), at most n_ctx.
uint32_t mask_cells(int n_ctx, int depth);

// The network's part of a token: the hops run one after another, each costing its round
// trips and its bytes both ways over the link:
//   sum over hops of (round_trips x rtt + (bytes_to + bytes_from) x 8 / (gbps x 10^9)).
struct NetworkTerm {
  int hops = 0;
  int round_trips = 0;     // per token, all hops
  uint64_t bytes = 0;      // per token, all hops, both ways
  double seconds = 0;      // per token
  bool known = true;       // false: the link's bandwidth is not known (gbps <= 0) and bytes > 0
};
NetworkTerm network_per_token(const std::vector<HopTraffic>& hops, const Link& link);

// One device of a split: a target (its memory, bandwidth, backend) and where it is.
struct SplitDevice {
  Target target;         // capacity_bytes = the memory llama.cpp sees (free memory for a live server)
  std::string endpoint;  // "HOST:PORT" for an rpc-server's device; "" for this machine's
  double share = 0;      // -ts share; 0 for every device = by capacity (llama.cpp: by free memory)
  std::string device_name;  // this machine's ggml device ("Vulkan0"), as llama.cpp's -dev names it; "" otherwise
};

// The link as --link-gbps and --link-rtt-ms give it: gbps <= 0 is 1 Gb/s (gigabit Ethernet,
// "assumed"), else "stated"; rtt_ms < 0 is rtt_else_ms (from `rtt_else_from`: "measured" or
// "assumed", said in `source` as `rtt_else_words`), else "stated".
Link make_link(double gbps, double rtt_ms, double rtt_else_ms, const std::string& rtt_else_from,
               const std::string& rtt_else_words);

// One live rpc-server as a probe found it (engine::probe_rpc_server).
struct RpcServerMemory {
  std::string endpoint;              // "HOST:PORT"
  std::vector<uint64_t> free_bytes;  // bytes, each of its devices' free memory, in the server's order
  double rtt_ms = 0;                 // ms, the probe's round trip (median of 5)
};

// What a split over machines is planned with: the devices in llama.cpp's order, the machine
// that runs the model, and the link. `fit --rpc` and `bench --rpc` build it with
// rpc_split_setup, so that both plan (and bound tg) the same split the same way.
struct SplitSetup {
  std::vector<SplitDevice> devices;
  Target host;  // the machine that runs the model (host_ram_bytes, host_bandwidth_gbps)
  Link link;
};

// The split over live rpc-servers as llama.cpp makes it: each server's devices in order
// ("RPC<i> HOST:PORT", backend "rpc", capacity = the free memory the server reports, bandwidth
// = `local`'s host_bandwidth_gbps, assumed: a server does not report it), then `local` when it is a
// GPU (backend not "cpu"); host = `local`. Link: `link_gbps` Gb/s ("stated"; <= 0: 1 Gb/s
// "assumed", gigabit Ethernet), `link_rtt_ms` ("stated"; < 0: the median of the servers'
// measured round trips, "measured"); link.source says so in words. `servers` must not be empty.
SplitSetup rpc_split_setup(const std::vector<RpcServerMemory>& servers, const Target& local, double link_gbps,
                           double link_rtt_ms);

// -ts shares over `devices` in order: share i = shares[i] (0 where `shares` is shorter; extra
// shares ignored, as llama.cpp reads one per device). Empty or all zero: by capacity.
void set_split_shares(std::vector<SplitDevice>& devices, const std::vector<double>& shares);

// llama.cpp's -sm none (llama_prepare_model_devices): of `n_devices` in llama.cpp's order, the
// -mg'th alone holds what is offloaded; the others hold nothing. Errors (kUsage): main_gpu not
// below n_devices, as llama.cpp's "invalid value for main_gpu".
Result<std::size_t> single_device_index(int main_gpu, std::size_t n_devices);

// Why fit does not plan `split_mode` ("" when it does: none and layer): row (llama.cpp v0.4.0
// splits rows only over SYCL devices, make_gpu_buft_list) and tensor (llama.cpp's own fitting,
// common/fit.cpp, refuses it too). One line naming the flag, for kUsage.
std::string unplanned_split_mode(const std::string& split_mode);

struct SplitPlan {
  std::vector<FitResult> devices;  // one per SplitDevice, in order (device part only; host below),
                                   // each with its split_layers, split_output and the plan's max_ctx
  std::vector<int> n_layers;       // repeating layers each device holds
  int output_device = -1;          // the device holding the output layer; -1 = the host
  Components host;                 // what stays in host RAM on the machine running the model
  uint64_t host_ram_bytes = 0;     // that machine's RAM
  int n_gpu_layers = 0;            // blocks + output layer offloaded, as llama.cpp counts them
  int n_ctx = 0;                   // the context llama.cpp allocates (padded)
  int max_ctx = 0;                 // the largest context (a multiple of 256 per sequence, up to
                                   // n_ctx_train or the request when larger) at which this placement
                                   // (n_gpu_layers) has room on every device and in host RAM; 0 = none
  Verdict verdict = Verdict::kNo;  // fits: every device and the host have room and every layer is
                                   // offloaded; partial: room everywhere, some layers on the host
  int hops = 0;                    // remote devices holding layers (network crossings per token)
  int round_trips_per_token = 0;   // hops x kRpcRoundTripsPerHop
  uint64_t network_bytes_per_token = 0;  // both ways, all hops (HopTraffic)
  Link link;                       // the link used for the network term
  double compute_bound_tps = 0;    // tg bound from memory bandwidth alone, tokens/s; 0 = unknown
  double network_s_per_token = 0;  // seconds per token the network adds
  double tg_bound_tps = 0;         // 1 / (1 / compute_bound + network), tokens/s; 0 = unknown
  std::string bound_unknown;       // why the tg bound is unknown ("" when known): a device
                                   // holding weights has no known bandwidth, or the link none
  std::string note;
};

// Plans `shape` with `ctx` over `devices` (in llama.cpp's order) beside `host` (the machine
// that runs the model: host_ram_bytes, host_bandwidth_gbps). n_gpu_layers: -1 all, -2 auto (the
// most for which every device has room), else that many. `depth` as plan_fit.
SplitPlan plan_device_split(const model::ModelShape& shape, const std::vector<SplitDevice>& devices,
                            const Target& host, const ContextParams& ctx, int n_gpu_layers, int depth,
                            const Link& link);

}  // namespace rigbench::fit
