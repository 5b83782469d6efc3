#include "fit/speed_points.h"

#include <algorithm>

#include "fit/speed_work.h"

namespace rigbench::fit {

namespace {

const hw::CatalogDevice* entry(const std::vector<hw::CatalogDevice>& catalog, const std::string& name) {
  const auto it =
      std::find_if(catalog.begin(), catalog.end(), [&](const hw::CatalogDevice& d) { return d.name == name; });
  return it == catalog.end() ? nullptr : &*it;
}

bool is_moe(const hw::PublishedResult& r) {
  return r.model.find("MoE") != std::string::npos || r.model.find("moe") != std::string::npos ||
         r.model.find(".A") != std::string::npos;
}

}  // namespace

double peak_per_s(const hw::CatalogDevice& d, Phase phase) {
  if (phase == Phase::kTg) return d.bandwidth_gbps * 1e9;
  return d.fp16_tflops ? *d.fp16_tflops * 1e12 : 0.0;
}

bool learnable(const hw::PublishedResult& r, const std::vector<hw::CatalogDevice>& catalog) {
  if (r.catalog.empty() || entry(catalog, r.catalog) == nullptr) return false;
  if (r.n_depth != 0 || (r.n_gpu_layers >= 0 && r.n_gpu_layers < 99) || is_moe(r)) return false;
  // A card on a single-board computer runs tg held back by its host (an RTX 2080 Ti on llama 1B
  // Q4_K_M: 338.55 t/s on a Raspberry Pi CM5, 424.32 on a Core Ultra 265K, the same build); a
  // KV cache in host RAM (nkvo 1) is another placement.
  const bool pp = r.n_prompt > 0 && r.n_gen == 0 && r.n_prompt <= 2048;
  const bool tg = r.n_gen > 0 && r.n_prompt == 0 && r.n_gen <= 512;
  if (r.no_kv_offload || (tg && r.host_kind == "sbc")) return false;
  return (pp || tg) && r.tps > 0 && r.model_size_bytes > 0 && r.model_n_params > 0;
}

std::vector<SpeedPoint> published_points(const std::vector<hw::PublishedResult>& rows,
                                         const std::vector<hw::CatalogDevice>& catalog) {
  std::vector<SpeedPoint> out;
  for (const hw::PublishedResult& r : rows) {
    if (!learnable(r, catalog)) continue;
    const hw::CatalogDevice& d = *entry(catalog, r.catalog);
    SpeedPoint p;
    p.device = d.name;
    p.device_class = speed_class(d.kind, r.backend);
    p.model = r.model;
    p.file_type = r.file_type;
    p.phase = r.n_prompt > 0 ? Phase::kPp : Phase::kTg;
    p.tokens_per_s = r.tps;
    p.work_per_token =
        p.phase == Phase::kTg ? static_cast<double>(r.model_size_bytes) : 2.0 * static_cast<double>(r.model_n_params);
    p.peak_per_s = peak_per_s(d, p.phase);
    p.source = r.source_url;
    p.date = r.date;
    out.push_back(std::move(p));
  }
  return out;
}

SpeedQuery speed_query(const hw::CatalogDevice& d, Phase phase, const model::ModelShape& shape,
                       const std::string& file_type) {
  SpeedQuery q;
  q.file_type = file_type;
  q.device = d.name;
  q.device_class = speed_class(d.kind, d.backend);
  q.phase = phase;
  q.work_per_token = phase == Phase::kTg ? static_cast<double>(weight_bytes_per_token(shape)) : flops_per_token(shape);
  q.peak_per_s = peak_per_s(d, phase);
  return q;
}

}  // namespace rigbench::fit
