// rigbench: what to buy (`rigbench fit MODEL --device all --rank price`): the catalog's
// devices ranked for one model at one context. For each device, the fewest of it (1, or up to
// kMaxRankCount discrete GPUs with the layers split equally) on which the model fits entirely,
// and, once, the cheapest discrete GPU on which it does not fit alone with partial offload
// (the layers that do not fit in the host's RAM: verdict partial); its price (count x the
// entry's launch price, plus for several GPUs the host that holds them, fit/host_cost.h,
// assumed), its tg bound, and two prices per GiB: of the
// total memory (what a spec sheet lists) and of the usable memory (fit's usable, the budget
// `needed` is held against: the memory llama.cpp's device reports, i.e. the Metal working set
// or a unified entry's GPU share, less the reserve llama.cpp's --fit keeps free; the backend's
// runtime overhead is part of `needed`, not taken off usable).
// Pure: plans with fit/planner.h, no I/O.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "fit/planner.h"
#include "fit/speed_prediction.h"
#include "hw/catalog.h"

namespace rigbench::fit {

// The most discrete GPUs of one kind a ranking considers (a workstation's slots).
inline constexpr int kMaxRankCount = 8;

enum class RankBy {
  kPrice,        // cheapest option first (unpriced ones last)
  kTps,          // highest tg bound first
  kUsablePrice,  // lowest USD per GiB of usable memory first (unpriced ones last)
};

// "price", "tps", "usable-price". Errors: kUsage naming --rank and the valid values.
Result<RankBy> parse_rank_by(const std::string& name);
const char* rank_by_name(RankBy by);

// One way to buy memory for the model: `count` of catalog entry `device`.
struct BuyOption {
  std::string device;  // catalog name
  std::string kind;    // catalog kind: gpu, apple, unified, cpu
  int count = 1;
  std::vector<FitResult> results;  // one per device (plan_fit for 1, plan_fit_split beyond)
  Verdict verdict = Verdict::kNo;  // fits only when every device of the option fits
  int n_ctx = 0;
  double tg_bound_tps = 0;           // the option's bound (results' first; the split shares one)
  uint64_t needed_bytes = 0;         // device totals summed (weights, KV, compute, output, overhead)
  uint64_t total_memory_bytes = 0;   // count x installed memory
  uint64_t usable_memory_bytes = 0;  // sum over devices of Target::usable_bytes() (fit's usable column)
  // count x launch price plus host_usd; none when the entry has no price
  std::optional<double> price_usd;
  double host_usd = 0;  // the assumed host for count > 1 GPUs (multi_gpu_host(count, board power).usd()); 0 for one
  std::optional<double> usd_per_gib_total, usd_per_gib_usable;
};

struct Ranking {
  RankBy by = RankBy::kPrice;
  // The context every option is planned at, as llama.cpp allocates it (padded_context of the
  // request, fit/kv_cache.h: each option's n_ctx), and the request (ContextParams::n_ctx).
  // The answer names the one its table shows: "n_ctx 16" asked is 256 allocated.
  int n_ctx = 0;
  int n_ctx_asked = 0;
  double min_tps = 0;  // --min-tps (0: none)
  // options that fit (and reach min_tps), best first; verdict fits, or partial for one GPU
  // with partial offload
  std::vector<BuyOption> ranked;
  std::vector<std::string> not_fitting;  // catalog names on which the model fits on no count tried
  std::vector<std::string> dropped;      // options that fit but miss --min-tps: "2× RTX 3090: tg bound 9.1 < 10 t/s"
  // Catalog entries not planned at all (kind "cpu": a host's RAM, which a GPU sits beside, not a
  // device to buy for offload), by name. Every catalog entry is in exactly one of ranked (by
  // device), dropped, not_fitting and left_out.
  std::vector<std::string> left_out;
};

// Why the entries of Ranking::left_out are left out, for the notes.
inline constexpr const char* kLeftOutReason =
    "CPU RAM, a GPU's host memory rather than a device to buy for offload; fit --device NAME plans a model in it";

// Plans `shape` at `ctx` (n_ctx > 0: the context asked for) on every device of `devices`
// (targets built by `make_target`, e.g. fit::catalog_target) and ranks the options that fit.
// Discrete GPUs ("gpu") that do not fit alone: the cheapest one whose plan is partial is
// offered with partial offload (one such option in all) and tried as 2..kMaxRankCount; "cpu" entries are not planned
// (Ranking::left_out); other kinds as one.
Ranking rank_devices(const model::ModelShape& shape, const std::vector<hw::CatalogDevice>& devices,
                     const std::function<Target(const hw::CatalogDevice&)>& make_target, const ContextParams& ctx,
                     int n_gpu_layers, int depth, RankBy by, double min_tps);

// The option of `count` x `device` on `target` (its results planned here).
BuyOption plan_option(const model::ModelShape& shape, const hw::CatalogDevice& device, const Target& target,
                      const ContextParams& ctx, int n_gpu_layers, int depth, int count);

// An option for people: "RTX 3090", "5× Arc B580", "RTX 3090, partial offload".
std::string option_name(const BuyOption& o);

// Orders `options` by `by` (ties: price, then name) and drops those below `min_tps`.
Ranking rank_options(std::vector<BuyOption> options, std::vector<std::string> not_fitting, RankBy by, double min_tps);

// Two devices side by side (`--vs A,B`): the second study's "16x the capacity at 3.4x lower
// cost per GB". Ratios are a / b; NaN where a figure is missing.
struct DeviceVs {
  std::string a, b;
  double memory_ratio = 0;             // installed memory a / b
  double usable_ratio = 0;             // usable memory a / b
  double usd_per_gib_total_ratio = 0;  // b's USD per GiB / a's (> 1: a is cheaper per GiB)
  double usd_per_gib_usable_ratio = 0;
  std::string
      sentence;  // "M3 Ultra 512GB (Mac Studio) has 16× the memory of RTX 5090 at 3.4× lower cost per GiB (...)"
  // Predicted tg of each (fit/speed_prediction.h; has_basis false: none), set by add_vs_predictions.
  SpeedPrediction tg_a, tg_b;
};
DeviceVs compare_devices(const BuyOption& a, const BuyOption& b);

// Sets v's predicted tg of a and b and says them after the sentence: " Predicted tg (from
// published results, not a measurement): A 14.2 t/s (90 %: 4.9-20.0), B none (<why>)."
void add_vs_predictions(DeviceVs& v, const SpeedPrediction& tg_a, const SpeedPrediction& tg_b);

}  // namespace rigbench::fit
