#include "fit/ranking.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fit/host_cost.h"
#include "fit/kv_cache.h"

namespace rigbench::fit {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

std::string option_name(const BuyOption& o) {
  std::string s = o.count > 1 ? std::to_string(o.count) + "\u00d7 " + o.device : o.device;
  if (o.verdict == Verdict::kPartial) s += ", partial offload";
  return s;
}

Result<RankBy> parse_rank_by(const std::string& name) {
  if (name == "price") return RankBy::kPrice;
  if (name == "tps") return RankBy::kTps;
  if (name == "usable-price") return RankBy::kUsablePrice;
  return fail(ErrorCode::kUsage, "--rank '" + name + "': unknown (price, tps, usable-price)");
}

const char* rank_by_name(RankBy by) {
  switch (by) {
    case RankBy::kPrice: return "price";
    case RankBy::kTps: return "tps";
    case RankBy::kUsablePrice: return "usable-price";
  }
  return "?";
}

BuyOption plan_option(const model::ModelShape& shape, const hw::CatalogDevice& device, const Target& target,
                      const ContextParams& ctx, int n_gpu_layers, int depth, int count) {
  BuyOption o;
  o.device = device.name;
  o.kind = device.kind;
  o.count = count;
  if (count == 1) o.results.push_back(plan_fit(shape, target, ctx, n_gpu_layers, depth));
  else o.results = plan_fit_split(shape, target, ctx, n_gpu_layers, depth, count, {});
  o.verdict = Verdict::kFits;
  for (const FitResult& r : o.results) {
    if (r.verdict == Verdict::kNo || (r.verdict == Verdict::kPartial && o.verdict == Verdict::kFits))
      o.verdict = r.verdict;
    o.needed_bytes += r.device.total();
    o.usable_memory_bytes += r.target.usable_bytes();  // fit's usable: what `needed` is held against
  }
  if (!o.results.empty()) {
    o.n_ctx = o.results.front().n_ctx;
    o.tg_bound_tps = o.results.front().tg_bound_tps;
  }
  o.total_memory_bytes = static_cast<uint64_t>(count) * device.memory_bytes;
  if (device.price_usd) {
    if (device.kind == "gpu") o.host_usd = multi_gpu_host(count, device.board_power_w).usd();
    o.price_usd = count * *device.price_usd + o.host_usd;
    if (o.total_memory_bytes > 0) o.usd_per_gib_total = *o.price_usd / (o.total_memory_bytes / kGiB);
    if (o.usable_memory_bytes > 0) o.usd_per_gib_usable = *o.price_usd / (o.usable_memory_bytes / kGiB);
  }
  return o;
}

Ranking rank_options(std::vector<BuyOption> options, std::vector<std::string> not_fitting, RankBy by, double min_tps) {
  Ranking r;
  r.by = by;
  r.min_tps = min_tps;
  r.not_fitting = std::move(not_fitting);
  for (BuyOption& o : options) {
    if (min_tps > 0 && o.tg_bound_tps < min_tps) {
      r.dropped.push_back(option_name(o) + ": tg bound " + fmt("%.1f", o.tg_bound_tps) + " < " + fmt("%g", min_tps) +
                          " t/s");
      continue;
    }
    r.ranked.push_back(std::move(o));
  }
  // Unpriced options after priced ones for the price orders; ties by price, then name.
  auto price_key = [](const std::optional<double>& p) { return p ? *p : HUGE_VAL; };
  std::stable_sort(r.ranked.begin(), r.ranked.end(), [&](const BuyOption& a, const BuyOption& b) {
    switch (by) {
      case RankBy::kPrice:
        if (price_key(a.price_usd) != price_key(b.price_usd)) return price_key(a.price_usd) < price_key(b.price_usd);
        if (a.tg_bound_tps != b.tg_bound_tps) return a.tg_bound_tps > b.tg_bound_tps;
        break;
      case RankBy::kTps:
        if (a.tg_bound_tps != b.tg_bound_tps) return a.tg_bound_tps > b.tg_bound_tps;
        if (price_key(a.price_usd) != price_key(b.price_usd)) return price_key(a.price_usd) < price_key(b.price_usd);
        break;
      case RankBy::kUsablePrice:
        if (price_key(a.usd_per_gib_usable) != price_key(b.usd_per_gib_usable))
          return price_key(a.usd_per_gib_usable) < price_key(b.usd_per_gib_usable);
        break;
    }
    return option_name(a) < option_name(b);
  });
  return r;
}

Ranking rank_devices(const model::ModelShape& shape, const std::vector<hw::CatalogDevice>& devices,
                     const std::function<Target(const hw::CatalogDevice&)>& make_target, const ContextParams& ctx,
                     int n_gpu_layers, int depth, RankBy by, double min_tps) {
  std::vector<BuyOption> options;
  std::vector<std::string> not_fitting, left_out;
  for (const hw::CatalogDevice& d : devices) {
    if (d.kind == "cpu") {  // a host's RAM, which a GPU sits beside, not an offload device: said so
      left_out.push_back(d.name);
      continue;
    }
    const Target t = make_target(d);
    const int max_count = d.kind == "gpu" ? kMaxRankCount : 1;
    bool placed = false;
    for (int count = 1; count <= max_count && !placed; ++count) {
      BuyOption o = plan_option(shape, d, t, ctx, n_gpu_layers, depth, count);
      if (o.verdict == Verdict::kFits) {
        options.push_back(std::move(o));
        placed = true;
      } else if (count == 1 && o.verdict == Verdict::kPartial && d.kind == "gpu") {
        options.push_back(std::move(o));  // one GPU, the rest of the layers in the host's RAM: an option too
      }
    }
    if (!placed) not_fitting.push_back(d.name + (max_count > 1 ? " (up to " + std::to_string(max_count) + ")" : ""));
  }
  // One GPU with partial offload is offered once, the cheapest (priced first, then the highest
  // bound): every card of the catalog "partial" would bury the options that hold the model.
  const BuyOption* keep = nullptr;
  for (const BuyOption& o : options) {
    if (o.verdict != Verdict::kPartial) continue;
    const double p = o.price_usd.value_or(HUGE_VAL), k = keep ? keep->price_usd.value_or(HUGE_VAL) : HUGE_VAL;
    if (!keep || p < k || (p == k && o.tg_bound_tps > keep->tg_bound_tps)) keep = &o;
  }
  std::vector<BuyOption> offered;
  for (BuyOption& o : options) {
    if (o.verdict != Verdict::kPartial || &o == keep) offered.push_back(std::move(o));
  }
  Ranking r = rank_options(std::move(offered), std::move(not_fitting), by, min_tps);
  r.left_out = std::move(left_out);
  r.n_ctx = context_cells(ctx);  // what plan_fit allocates for every option (kv_size)
  r.n_ctx_asked = ctx.n_ctx;
  return r;
}

DeviceVs compare_devices(const BuyOption& a, const BuyOption& b) {
  DeviceVs v;
  // The devices as asked (--vs A,B): the sentence says itself which one the model fits.
  auto named = [](const BuyOption& o) {
    return o.count > 1 ? std::to_string(o.count) + "\u00d7 " + o.device : o.device;
  };
  v.a = named(a);
  v.b = named(b);
  auto ratio = [](double x, double y) { return y > 0 ? x / y : std::nan(""); };
  v.memory_ratio = ratio(static_cast<double>(a.total_memory_bytes), static_cast<double>(b.total_memory_bytes));
  v.usable_ratio = ratio(static_cast<double>(a.usable_memory_bytes), static_cast<double>(b.usable_memory_bytes));
  v.usd_per_gib_total_ratio =
      a.usd_per_gib_total && b.usd_per_gib_total ? ratio(*b.usd_per_gib_total, *a.usd_per_gib_total) : std::nan("");
  v.usd_per_gib_usable_ratio =
      a.usd_per_gib_usable && b.usd_per_gib_usable ? ratio(*b.usd_per_gib_usable, *a.usd_per_gib_usable) : std::nan("");
  auto cheaper = [](double r) {
    if (std::isnan(r)) return std::string("at a cost per GiB not known (no price)");
    if (r >= 1) return "at " + fmt("%.1f", r) + "\u00d7 lower cost per GiB";
    return "at " + fmt("%.1f", 1 / r) + "\u00d7 higher cost per GiB";
  };
  auto per_gib = [](const std::optional<double>& p) { return p ? fmt("$%.2f", *p) : std::string("-"); };
  v.sentence = v.a + " has " + fmt("%.3g", v.memory_ratio) + "\u00d7 the memory of " + v.b + " " +
               cheaper(v.usd_per_gib_total_ratio) + " (" + per_gib(a.usd_per_gib_total) + " vs " +
               per_gib(b.usd_per_gib_total) + " per GiB); of memory a model can use, " + fmt("%.3g", v.usable_ratio) +
               "\u00d7 " + cheaper(v.usd_per_gib_usable_ratio) + " (" + per_gib(a.usd_per_gib_usable) + " vs " +
               per_gib(b.usd_per_gib_usable) + " per usable GiB).";
  const bool fa = a.verdict == Verdict::kFits, fb = b.verdict == Verdict::kFits;
  v.sentence += fa && fb ? " The model fits both."
                : fa     ? " The model fits " + v.a + ", not " + v.b + "."
                : fb     ? " The model fits " + v.b + ", not " + v.a + "."
                         : " The model fits neither.";
  return v;
}

void add_vs_predictions(DeviceVs& v, const SpeedPrediction& tg_a, const SpeedPrediction& tg_b) {
  v.tg_a = tg_a;
  v.tg_b = tg_b;
  auto said = [](const std::string& name, const SpeedPrediction& p) {
    if (!p.has_basis) {
      const std::string why = p.basis.starts_with("no basis (") ? p.basis.substr(10, p.basis.size() - 11) : p.basis;
      return name + " none (" + why + ")";
    }
    return name + " " + fmt("%.1f", p.mean_tps) + " t/s (90 %: " + fmt("%.1f", p.low_tps) + "-" +
           fmt("%.1f", p.high_tps) + ")";
  };
  v.sentence +=
      " Predicted tg (from published results, not a measurement): " + said(v.a, tg_a) + ", " + said(v.b, tg_b) + ".";
}

}  // namespace rigbench::fit
