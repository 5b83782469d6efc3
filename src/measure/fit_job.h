// rigbench: the `fit` use case: will a model fit a device, at what context, and how fast could
// tg be, from GGUF metadata only. The shape is read (a file, or a preset written header-only),
// llama.cpp's context parameters are made from the request, the devices are chosen (this
// machine, a catalog entry, the whole catalog, several of one kind, a split over machines),
// each is planned (fit/planner.h, fit/device_split.h) or the catalog ranked (fit/ranking.h),
// and with --check llama.cpp's own no_alloc plan is asked for beside fit's. Nothing here
// prints: the answer is data (fit/fit_report.h) for report/fit_printer.h and
// report/fit_ranking_printer.h.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "core/record.h"
#include "core/status.h"
#include "engine/llama_simulate.h"
#include "fit/context_params.h"
#include "fit/fit_report.h"
#include "fit/targets.h"
#include "fit/usable.h"

namespace rigbench::measure {

// llama-server's slots without -np in the pinned release (tools/server/server.cpp: n_parallel
// auto = 4, kv_unified = true).
constexpr int kAutoSlots = 4;

// What `rigbench fit` is asked: cli::FitOptions (cli/fit_command.h) less its output flags.
struct FitRequest {
  std::string model;                  // MODEL.gguf (header-only files work)
  std::string preset;                 // --preset NAME instead of a file
  std::string quant = "Q4_K_M";       // --quant TYPE with --preset
  int ctx_size = 0;                   // -c: tokens; 0 = n_ctx_train, cut as llama.cpp's --fit cuts it
  std::string n_gpu_layers = "auto";  // -ngl N | auto | -1 (all)
  // -fa, -ctk, -ctv, -b, -ub, -nkvo, -ot, -cmoe, -ncmoe, -sm, -mg by knob key: declared from core/knobs.h
  // (Knob::fit_shared), as bench declares them; "" = the knob's default. -fa auto plans as on,
  // as llama.cpp resolves it.
  std::map<std::string, std::string> knobs;
  std::string n_parallel = "auto";  // -np, --parallel: sequences, or auto (llama-server's kAutoSlots, unified)
  bool kv_unified = false;          // -kvu: one KV cache for all sequences (default: with -np auto only)
  bool no_kv_unified = false;       // -no-kvu: one per sequence, also with -np auto
  bool swa_full = false;            // --swa-full: sliding-window layers sized at the whole context
  int fit_target_mib = static_cast<int>(fit::kFitMarginBytes >> 20);  // -fitt, --fit-target: MiB kept free per device
  // -dev, --device: auto (this machine's GPUs, as llama.cpp takes them) | none (its CPU) | this
  // machine's ggml device names, '/' between them (Vulkan0, CUDA0/CUDA1) | all | a catalog name
  std::string device = "auto";
  int count = 1;                // --count: that many of the catalog device (multi-GPU)
  std::string tensor_split;     // -ts: share of the offloaded layers per device, e.g. "3,1"
  int n_depth = 0;              // -d, --n-depth: KV cells read per token in the tg bound
  double host_ram_gib = 0;      // --host-ram: RAM beside a catalog GPU (0 = the entry's stated host)
  double host_bandwidth_gbps =
      0;  // --host-bandwidth: GB/s of that RAM (0 = the stated host's; this machine's measured for auto)
  std::string mmproj;  // --mmproj FILE: a vision projector loaded beside the model
  std::string rank;    // --rank price|tps|usable-price: what to buy, the catalog ranked (fit/ranking.h)
  double min_tps = 0;  // --min-tps T: only options whose tg bound reaches T t/s (implies --rank price)
  std::string vs;      // --vs A,B: two catalog devices side by side (implies --rank price)
  bool check = false;  // --check: also ask llama.cpp's own no_alloc simulation (this machine's backend)
  std::string rpc;         // --rpc HOST:PORT,...: plan over these rpc-servers' devices (asked for their memory)
  std::string rpc_device;  // --rpc-device NAME,...: catalog devices on other machines (with --device NAME)
  double link_gbps = 0;    // --link-gbps: the link between the machines, Gb/s (0 = 1 Gb/s assumed, said so)
  double link_rtt_ms = -1;  // --link-rtt-ms: its round trip, ms (< 0 = measured with --rpc, 0.5 assumed otherwise)
  double rpc_timeout_s = 5;  // --rpc-timeout: seconds each wait on an rpc-server may take
  std::string db_path;       // --db: the results database whose runs of this machine predict its speed
                             // ("" = the default; read only, never created)
};

// What `fit` answers: the catalog ranked, or the plans; with --check, llama.cpp's plan beside.
struct FitAnswer {
  // --rank, --min-tps, --vs: the catalog ranked for the model at -c, and nothing else.
  std::optional<fit::FitRankingReport> ranking;
  // Otherwise: one plan per device (a split over machines: one per device of the split, its
  // verdict, link and tg bound in the preamble), with the notes the output states once.
  fit::FitReport report;
  std::optional<fit::FitCheck> check;         // --check on this machine (no --rpc/--rpc-device)
  std::optional<fit::FitRpcCheck> rpc_check;  // --check with --rpc
  // --check asked and not answered: why (kUsage: --check with --rpc-device, which llama.cpp
  // cannot simulate without the live servers; the simulation's kRuntime/kInvalidInput). The
  // plans above still stand; the caller prints them (md) and then returns this.
  Status check_error;
};

// Answers `r` (no output written). Errors (kUsage, one line naming the flag): -ngl not a
// number, -1 or auto; a knob value set_knob refuses; --check off this machine (a catalog --device); --count/-ts
// without one catalog --device, or with a share count that is not --count; a MODEL.gguf and a
// --preset both or neither; -kvu with -no-kvu; cache types llama.cpp refuses for the model
// (fit::check_cache_types); -fitt with a split over machines; --rank/--min-tps/--vs with
// --device NAME, without -c, or with --count/-ts; --vs not two names; a split over machines
// with --count, without -c, with both --rpc and --rpc-device, with --device off this machine
// for --rpc or without a catalog --device for --rpc-device, --rpc none, or -ts not one share
// per device. kNotFound / kInvalidInput for a model, projector or catalog file that cannot be
// read, a preset or catalog name not found; the rpc probe's kRuntime naming the endpoint.
// `describe_machine` (this machine: CPU, RAM, GPUs; cli's machine_info) is called once, after
// the request, the model and its context are checked. This machine's bandwidth comes from
// hw::host_bandwidth_gbps (cached, else measured) where a plan needs it and --host-bandwidth
// does not state it.
Result<FitAnswer> answer_fit(const FitRequest& r, const std::function<MachineInfo()>& describe_machine);

// llama.cpp's no_alloc plan asked for the file `path` at n_ctx (tokens) with fit's context
// parameters (batch, ubatch, sequences and their KV sharing, cache types, flash attention, KQV
// offload, the weight overrides): what fit --check and fit --rpc --check put beside fit's
// estimate. Callers add the offload (-ngl, --rpc). Pure; never fails.
engine::SimulationSpec simulation_spec(const std::string& path, const fit::ContextParams& ctx, int n_ctx);

// The host beside a catalog GPU as --host-ram and --host-bandwidth state it, with this
// machine's RAM for an entry that states no host (fit/targets.h HostChoice). Pure.
fit::HostChoice host_choice(const FitRequest& r, const MachineInfo& machine);

}  // namespace rigbench::measure
