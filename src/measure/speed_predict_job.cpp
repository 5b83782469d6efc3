#include "measure/speed_predict_job.h"

#include <algorithm>

#include "fit/speed_points.h"
#include "hw/published_results.h"

namespace rigbench::measure {

SpeedBasis load_speed_basis(const std::vector<hw::CatalogDevice>& catalog) {
  SpeedBasis out;
  auto rows = hw::load_published_results(hw::published_results_path());
  if (!rows && rows.error().code == ErrorCode::kNotFound) return out;  // a data dir without it (a test catalog)
  if (!rows) {
    out.note = "no speed prediction: " + rows.error().message;
    return out;
  }
  out.points = fit::published_points(*rows, catalog);
  out.loaded = true;
  out.note = "pred = predicted mean (90 % interval), learned from " + std::to_string(out.points.size()) +
             " published llama-bench results (data/published_llama_bench.jsonl): the device class's efficiency "
             "(kind/backend) times bandwidth / weight bytes per token (tg) or dense FP16 compute / 2 x parameters "
             "(pp); a prediction, not a measurement; its basis is in each device's note";
  return out;
}

DevicePredictions predict_devices(const SpeedBasis& basis, const model::ModelShape& shape, const std::string& file_type,
                                  const std::vector<hw::CatalogDevice>& devices) {
  DevicePredictions out;
  if (!basis.loaded) return out;
  for (const hw::CatalogDevice& d : devices) {
    out.tg.push_back(fit::predict_speed(basis.points, fit::speed_query(d, fit::Phase::kTg, shape, file_type)));
    out.pp.push_back(fit::predict_speed(basis.points, fit::speed_query(d, fit::Phase::kPp, shape, file_type)));
  }
  return out;
}

fit::SpeedPrediction no_prediction_for_partial_offload() {
  fit::SpeedPrediction p;
  p.basis = "no basis (not all on the device: the published results are full offloads)";
  return p;
}

void predict_ranking(fit::FitRankingReport& rep, const SpeedBasis& basis, const model::ModelShape& shape,
                     const std::string& file_type, const std::vector<hw::CatalogDevice>& catalog) {
  if (!shape.causal) return;
  std::vector<hw::CatalogDevice> devices;  // one per option, in its order
  for (const fit::BuyOption& option : rep.ranking.ranked) {
    const auto d = std::find_if(catalog.begin(), catalog.end(),
                                [&](const hw::CatalogDevice& c) { return c.name == option.device; });
    devices.push_back(d != catalog.end() ? *d : hw::CatalogDevice{});  // none: no peak, so no basis
  }
  DevicePredictions pred = predict_devices(basis, shape, file_type, devices);
  for (std::size_t i = 0; i < pred.tg.size(); ++i) {
    if (rep.ranking.ranked[i].verdict != fit::Verdict::kFits)
      pred.tg[i] = pred.pp[i] = no_prediction_for_partial_offload();
  }
  rep.tg_predicted = std::move(pred.tg);
  rep.pp_predicted = std::move(pred.pp);
  if (!basis.note.empty()) rep.notes.push_back(basis.note);
}

}  // namespace rigbench::measure
