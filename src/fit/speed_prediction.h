// rigbench: predicted pp and tg on a device nobody here has measured, with a 90 % interval and
// the basis it stands on, learned from measured results: the published llama-bench tables of
// data/published_llama_bench.jsonl (hw/published_results.h) and the user's own stored runs.
// Pure functions: no I/O.
//
// The model: a measured rate is a roofline times an efficiency.
//   tg  tokens/s = bandwidth (bytes/s) / weight bytes read per token  x e_tg
//   pp  tokens/s = compute (FLOP/s) / FLOPs per token (2 x parameters) x e_pp
// An efficiency is learned per device class: the catalog kind of the device and the backend
// the result ran on ("gpu/cuda", "apple/metal", "gpu/vulkan", "unified/cuda", "cpu/cpu").
// The prediction is the efficiency of the class's median device (each device's geometric mean
// of its points one value: one odd device, such as a build with a slow path, does not move it)
// times the target's roofline; its
// 90 % interval is the Student-t prediction interval of the log efficiency,
// mean ± t(0.95, n-1) x sd x sqrt(1 + 1/n), where sd and n are between devices (each device's
// mean log efficiency one value: the prediction is for another device): the class's devices;
// with one device, the pooled between-device sd of every class with two or more; none: no
// interval. From a device's own points: their sd (one point: the class's). A device with
// points of its own is predicted from them first (same model size class or not: the
// efficiency, not the rate, is carried over). Every prediction says its basis: how many points, and the nearest
// measured one (device, model, quant: the point of the basis whose work per token is closest), or "no basis" where the
// class has no point. Of the device's own points, those of the query's file type are used when there are any (the
// class's devices are taken whatever type they ran: the bytes per token already differ by type). A prediction is for
// today's llama.cpp: points dated more than kRecentMonths before the newest dated point are used only where neither the
// device nor its class has a recent one, and the basis then says so (llama.cpp's kernels moved: an RX 5700 XT's Vulkan
// tg128 on llama 7B Q4_0 was 22.76 t/s in March 2024 and 65.19 in May 2025). The order: the device's own recent points,
// its class's recent ones, its own older ones, its class's older ones.
#pragma once

#include <string>
#include <vector>

namespace rigbench::fit {

enum class Phase { kPp, kTg };

// One measured rate with what its efficiency is computed from.
struct SpeedPoint {
  std::string device;        // the catalog entry it ran on (the identity for "own results" and leave-one-out)
  std::string device_class;  // "<catalog kind>/<backend it ran on>", e.g. "gpu/cuda" (speed_class)
  std::string model;         // llama.cpp's description or the file's name, for the basis ("llama 8B Q4_K - Medium")
  std::string file_type;     // "Q4_K_M"
  Phase phase = Phase::kTg;
  double tokens_per_s = 0;    // the measured mean
  double work_per_token = 0;  // tg: weight bytes read per token; pp: FLOPs per token (2 x parameters)
  double peak_per_s = 0;      // tg: memory bandwidth, bytes/s; pp: the device's dense FP16 (or INT8 for
                              // quantized weights, where known) FLOP/s; 0 = unknown (the point is unusable)
  std::string source;         // where it was published (a URL) or "stored run <id>"
  std::string date;           // when (YYYY-MM-DD); "" = not known (such a point is never too old)
  bool own = false;           // the user's own stored result (listed first among equals)
};

// How far back from the newest dated point a point still counts, months.
inline constexpr int kRecentMonths = 18;

// The first date (YYYY-MM-DD) still recent among `points`: kRecentMonths before the newest
// well-formed date (YYYY-MM-DD; other text counts as undated), the day at most the 28th; "" when
// none is dated (every point counts).
std::string recent_since(const std::vector<SpeedPoint>& points);

// Efficiency of a point: tokens/s x work per token / peak (dimensionless, 0..1 for a real
// roofline); 0 when any of them is not positive.
double efficiency(const SpeedPoint& p);

// "<kind>/<backend>", both lower case; the backend as llama.cpp names it in a result
// ("CUDA", "Metal,BLAS", "Vulkan", "ROCm", "SYCL", "OpenCL", "CPU") reduced to its first GPU
// backend: cuda, metal, vulkan, rocm, sycl, opencl, else cpu.
std::string speed_class(const std::string& kind, const std::string& backend);

// What a prediction is for.
struct SpeedQuery {
  std::string device;        // catalog entry
  std::string device_class;  // its class with the backend it would run on (speed_class)
  Phase phase = Phase::kTg;
  std::string file_type;       // the model's ("Q4_K_M"; "" any): of the device's own points, those of it first
  double work_per_token = 0;   // as SpeedPoint::work_per_token, for the model predicted
  double peak_per_s = 0;       // the device's, as SpeedPoint::peak_per_s; 0 = unknown: no prediction
  std::string exclude_device;  // leave this device's points out ("" = none): leave-one-device-out
  // Whether peak_per_s is the device's real peak, so that no prediction exceeds peak / work;
  // false where it is only a unit shared with the device's own points (this machine's compute,
  // which nothing measures: the peak cancels in an own-point prediction), then nothing is cut.
  bool roofline_known = true;
};

struct SpeedPrediction {
  bool has_basis = false;        // false: "no basis" (no point in the class, or no peak known)
  double mean_tps = 0;           // tokens/s: roofline x efficiency
  double low_tps = 0;            // 90 % prediction interval, tokens/s; both = mean_tps when the spread is unknown
  double high_tps = 0;           // mean, low and high at most the roofline (peak / work per token) where
                                 // the query's roofline_known: cut there ("capped at the roofline bound" in `basis`)
  double efficiency = 0;         // the efficiency applied: the own points' geometric mean, or the class's
                                 // median device's
  int n_points = 0;              // points the efficiency came from
  bool from_own_device = false;  // the device's own points (else its class's)
  SpeedPoint nearest;            // the basis point whose work per token is closest to the query's
  std::string basis;             // "12 points of gpu/cuda; nearest: RTX 3090, llama 8B Q4_K - Medium (Q4_K_M)
                                 // 115.42 t/s" or "no basis (no gpu/rocm result)"
};

// The prediction for `q` from `points` (any order; unusable points, other phases and
// q.exclude_device's are skipped; points older than recent_since(points) as above).
SpeedPrediction predict_speed(const std::vector<SpeedPoint>& points, const SpeedQuery& q);

}  // namespace rigbench::fit
