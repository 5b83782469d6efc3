// rigbench: a model split over unlike devices, some on other machines (llama.cpp's RPC
// backend: `fit --rpc`, `fit --device NAME --rpc-device NAME,...`). The layers go as llama.cpp
// places them (memory_model.h split_layer_devices: rpc-servers first, then this machine's
// GPUs, in the shares of -ts or, by default, of each device's free memory); every device gets
// a verdict; the tg bound adds the network (network_seconds_per_token).
#pragma once

#include <string>
#include <vector>

#include "fit/planner.h"

namespace rigbench::fit {

// The link between the machines: what carries the activations of a split model.
struct Link {
  double gbps = 0;          // Gb/s (10^9 bits per second) each way
  double rtt_ms = 0;        // ms, a round trip of a small message
  std::string source;       // how the figures were obtained, said with the plan, e.g.
                            // "--link-gbps 1, --link-rtt-ms 0.5" or "rtt measured (median of 5)"
};

// Seconds per generated token that the network adds: `hops` crossings between machines
// (each remote device that holds layers is entered and left once per token), each carrying
// one activation vector of n_embd f32 values each way plus one round trip:
//   hops x (rtt + 2 x n_embd x 4 bytes x 8 / (gbps x 10^9)).
// 0 when hops is 0. A link without bandwidth (gbps <= 0) counts the round trips only.
double network_seconds_per_token(uint32_t n_embd, int hops, const Link& link);

// One device of a split: a target (its memory, bandwidth, backend) and where it is.
struct SplitDevice {
  Target target;         // capacity_bytes = the memory llama.cpp sees (free memory for a live server)
  std::string endpoint;  // "HOST:PORT" for an rpc-server's device; "" for this machine's
  double share = 0;      // -ts share; 0 for every device = by capacity (llama.cpp: by free memory)
};

struct SplitPlan {
  std::vector<FitResult> devices;  // one per SplitDevice, in order (device part only; host below)
  std::vector<int> n_layers;       // repeating layers each device holds
  int output_device = -1;          // the device holding the output layer; -1 = the host
  Components host;                 // what stays in host RAM on the machine running the model
  uint64_t host_ram_bytes = 0;     // that machine's RAM
  int n_gpu_layers = 0;            // blocks + output layer offloaded, as llama.cpp counts them
  int n_ctx = 0;                   // the context llama.cpp allocates (padded)
  Verdict verdict = Verdict::kNo;  // fits: every device and the host have room and every layer is
                                   // offloaded; partial: room everywhere, some layers on the host
  int hops = 0;                    // remote devices holding layers (network crossings per token)
  Link link;                       // the link used for the network term
  double compute_bound_tps = 0;    // tg bound from memory bandwidth alone, tokens/s
  double network_s_per_token = 0;  // seconds per token the network adds
  double tg_bound_tps = 0;         // 1 / (1 / compute_bound + network), tokens/s
  std::string note;
};

// Plans `shape` with `ctx` over `devices` (in llama.cpp's order) beside `host` (the machine
// that runs the model: host_ram_bytes, host_bandwidth_gbps). n_gpu_layers: -1 all, -2 auto (the
// most for which every device has room), else that many. `depth` as plan_fit.
SplitPlan plan_device_split(const model::ModelShape& shape, const std::vector<SplitDevice>& devices,
                            const Target& host, const ContextParams& ctx, int n_gpu_layers, int depth,
                            const Link& link);

}  // namespace rigbench::fit
