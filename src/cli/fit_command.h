// rigbench: `rigbench fit` (will it fit, and how fast could it be). `rigbench hw` and
// `rigbench devices` are cli/hw_command.h.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "engine/llama_simulate.h"
#include "fit/context_params.h"
#include "fit/targets.h"
#include "fit/usable.h"
#include "hw/catalog.h"

namespace rigbench::cli {

// llama-server's slots without -np in the pinned release (tools/server/server.cpp: n_parallel
// auto = 4, kv_unified = true).
constexpr int kAutoSlots = 4;

struct FitOptions {
  std::string model;                  // MODEL.gguf (header-only files work)
  std::string preset;                 // --preset NAME instead of a file
  std::string quant = "Q4_K_M";       // --quant TYPE with --preset
  int ctx_size = 0;                   // -c: tokens; 0 = n_ctx_train, cut as llama.cpp's --fit cuts it
  std::string n_gpu_layers = "auto";  // -ngl N | auto | -1 (all)
  // -fa, -ctk, -ctv, -b, -ub, -nkvo, -ot, -cmoe, -ncmoe by knob key: declared from core/knobs.h
  // (Knob::fit_shared), as bench declares them; "" = the knob's default. -fa auto plans as on,
  // as llama.cpp resolves it.
  std::map<std::string, std::string> knobs;
  std::string n_parallel = "auto";  // -np, --parallel: sequences, or auto (llama-server's kAutoSlots, unified)
  bool kv_unified = false;          // -kvu: one KV cache for all sequences (default: with -np auto only)
  bool no_kv_unified = false;       // -no-kvu: one per sequence, also with -np auto
  bool swa_full = false;            // --swa-full: sliding-window layers sized at the whole context
  int fit_target_mib = static_cast<int>(fit::kFitMarginBytes >> 20);  // -fitt, --fit-target: MiB kept free per device
  std::string device = "auto";  // auto | all | a catalog name
  int count = 1;                // --count: that many of the catalog device (multi-GPU)
  std::string tensor_split;     // -ts: share of the offloaded layers per device, e.g. "3,1"
  int n_depth = 0;              // -d, --n-depth: KV cells read per token in the tg bound
  double host_ram_gib = 0;      // --host-ram: RAM beside a catalog GPU (0 = the entry's stated host)
  double host_bandwidth_gbps =
      0;  // --host-bandwidth: GB/s of that RAM (0 = the stated host's; this machine's measured for auto)
  std::string output = "md";                 // -o: md | csv | json | jsonl
  bool wide = false;                         // --wide: every column in the md table
  std::string mmproj;                        // --mmproj FILE: a vision projector loaded beside the model
  std::string rank;    // --rank price|tps|usable-price: what to buy, the catalog ranked (fit/ranking.h)
  double min_tps = 0;  // --min-tps T: only options whose tg bound reaches T t/s (implies --rank price)
  std::string vs;      // --vs A,B: two catalog devices side by side (implies --rank price)
  bool check = false;  // --check: also ask llama.cpp's own no_alloc simulation (this machine's backend)
  std::string rpc;         // --rpc HOST:PORT,...: plan over these rpc-servers' devices (asked for their memory)
  std::string rpc_device;  // --rpc-device NAME,...: catalog devices on other machines (with --device NAME)
  double link_gbps = 0;    // --link-gbps: the link between the machines, Gb/s (0 = 1 Gb/s assumed, said so)
  double link_rtt_ms = -1;  // --link-rtt-ms: its round trip, ms (< 0 = measured with --rpc, 0.5 assumed otherwise)
  double rpc_timeout_s = 5;  // --rpc-timeout: seconds each wait on an rpc-server may take
};

CLI::App* add_fit_command(CLI::App& app, FitOptions& o);

Status run_fit_command(const FitOptions& o);

// llama.cpp's no_alloc plan asked for the file `path` at n_ctx with fit's context parameters
// (batch, ubatch, sequences and their KV sharing, cache types, flash attention, KQV offload,
// the weight overrides): what fit --check and
// fit --rpc --check put beside fit's estimate. Callers add the offload (-ngl, --rpc).
engine::SimulationSpec simulation_spec(const std::string& path, const fit::ContextParams& ctx, int n_ctx);

}  // namespace rigbench::cli
