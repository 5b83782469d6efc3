// rigbench: what `rigbench fit` answers, as data: the plan per device with its notes, the
// catalog ranked, and llama.cpp's own plan beside fit's (--check). measure/fit_job.h makes
// them; report/fit_printer.h and report/fit_ranking_printer.h print them (those headers name
// them report::FitReport, report::FitCheck, ...). Plain values: no I/O here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fit/planner.h"
#include "fit/ranking.h"
#include "fit/speed_prediction.h"

namespace rigbench::fit {

// A plan split over machines (fit --rpc, --rpc-device): the link and the network's part of the
// tg bound, for -o json ("network").
struct FitNetwork {
  double link_gbps = 0;
  std::string link_gbps_source;  // "stated" (--link-gbps) or "assumed"
  double link_rtt_ms = 0;
  std::string link_rtt_source;  // "stated" (--link-rtt-ms), "measured" (probe) or "assumed"
  int hops = 0;                 // remote splits per token
  int round_trips_per_token = 0;
  uint64_t bytes_per_token = 0;  // both ways, all hops
  double ms_per_token = 0;       // the network's part of a token
  double memory_bound_tps = 0;   // the bound without the network; 0 = unknown
  double tg_bound_tps = 0;       // with it; 0 = unknown
};

// One plan per device (or per device of a split), with what the output says around the table.
struct FitReport {
  std::string model;  // name shown
  std::string model_path;
  uint64_t weights_bytes = 0;  // all weights, from GGUF tensor infos
  std::vector<fit::FitResult> results;
  std::vector<double> usd_per_gib;    // per result; < 0 when the device has no price
  std::vector<std::string> preamble;  // md lines under the model line (e.g. what "this machine" is)
  std::vector<std::string> notes;     // assumptions, stated once
  std::optional<FitNetwork> network;  // a split over machines; json: "network"
  // Predicted tg and pp per result (same order; fit/speed_prediction.h), for catalog devices
  // planned whole (not a split); empty otherwise.
  std::vector<fit::SpeedPrediction> tg_predicted;
  std::vector<fit::SpeedPrediction> pp_predicted;
  int n_seq = 1;            // sequences planned (-np; llama-server's slots)
  bool kv_unified = false;  // one KV cache shared by them (-kvu)
  bool auto_slots = false;  // n_seq is llama-server's automatic choice (no -np)
};

// fit --check: fit's estimate for the host beside llama.cpp's own no_alloc plan (bytes).
struct FitCheck {
  int n_ctx = 0;
  uint64_t estimate_weights = 0, estimate_kv = 0, estimate_compute = 0;
  uint64_t llama_weights = 0, llama_kv = 0, llama_compute = 0;
  // With an offload device: the same totals split by where they live, the device's memory and
  // host RAM (llama.cpp's buffers by BufferMemory::device: a GPU's pinned host type is host RAM).
  std::string device;  // the device's ggml name ("Vulkan0"); empty when the plan has none
  uint64_t estimate_device = 0, estimate_host = 0, llama_device = 0, llama_host = 0;
  // With --mmproj: the projector's weights + compute, fit's (fit/compute_buffer.h) beside
  // llama.cpp's mtmd no_alloc load (engine/llama_simulate.h simulate_projector). Counted in the
  // totals and on the device it goes to, not in weights or compute above.
  bool projector = false;
  uint64_t estimate_projector = 0, llama_projector = 0;
};

// fit --rpc --check: per device of the split (then the host), fit's bytes beside llama.cpp's
// no_alloc plan with the same servers and split (weights + KV + compute).
struct FitRpcCheck {
  struct Row {
    std::string device;        // the split device's name; "host (CPU)" last
    uint64_t fit_bytes = 0;    // fit's plan
    uint64_t llama_bytes = 0;  // llama.cpp's buffers on that device
  };
  std::vector<Row> rows;
};

// fit --rank / --min-tps / --vs: the catalog ranked for the model (fit/ranking.h): what to buy.
struct FitRankingReport {
  std::string model;  // name shown
  std::string model_path;
  fit::Ranking ranking;
  // Predicted tg and pp per ranked option (ranking.ranked's order; fit/speed_prediction.h): of
  // one of its devices (N GPUs with the layers split read every layer once a token, as one
  // would); none for a partial offload; empty without the dataset.
  std::vector<fit::SpeedPrediction> tg_predicted;
  std::vector<fit::SpeedPrediction> pp_predicted;
  std::optional<fit::DeviceVs> vs;  // --vs A,B
  std::vector<std::string> notes;
};

}  // namespace rigbench::fit
