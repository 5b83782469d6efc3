#include "measure/speed_predict_job.h"

#include <algorithm>

#include "fit/own_points.h"
#include "fit/speed_points.h"
#include "fit/speed_work.h"
#include "hw/published_results.h"
#include "store/record_sources.h"

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
  p.basis = "no basis (not all on the device: the results it learns from are full offloads)";
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
  // The ranking's md shows its prediction columns with --wide only: the note says where they are.
  if (!basis.note.empty())
    rep.notes.push_back(basis.note.starts_with("pred = ")
                            ? "pred (the tg pred and pp512 pred columns of --wide and -o json) = " +
                                  basis.note.substr(7)
                            : basis.note);
}

namespace {

// The peak of a phase on this machine: tg its device's bandwidth where measured; else (and for
// pp, whose compute nothing here measures) a unit the own points share.
double this_machine_peak(const fit::Target& target, fit::Phase phase) {
  if (phase == fit::Phase::kTg && target.bandwidth_gbps > 0) return target.bandwidth_gbps * 1e9;
  return 1.0;
}

}  // namespace

OwnBasis load_own_basis(const std::string& db_path, const MachineInfo& machine, const fit::Target& target) {
  OwnBasis out;
  const std::string none = "no speed prediction for this machine yet: ";
  auto records = store::load_records({db_path});
  if (!records && records.error().code == ErrorCode::kNotFound) {
    out.note = none + "none of its runs is stored (rigbench bench stores one; fit then predicts from it)";
    return out;
  }
  if (!records) {
    out.note = none + records.error().message;
    return out;
  }
  out.points = fit::own_points(*records, machine, this_machine_peak(target, fit::Phase::kTg),
                               this_machine_peak(target, fit::Phase::kPp));
  std::size_t runs = 0, disturbed = 0;
  for (const RunRecord& r : *records) {
    runs += fit::own_learnable(r, machine) ? 1 : 0;
    disturbed += r.machine.hostname == machine.hostname && fit::disturbed(r) ? 1 : 0;
  }
  const std::string left_out =
      disturbed == 0 ? "" : "; " + std::to_string(disturbed) + " disturbed (machine busy, steal, ...) left out";
  if (out.points.empty()) {
    out.note = none + "no stored bench run of it at depth 0 with every layer on its device" + left_out +
               " (rigbench bench stores one)";
    return out;
  }
  out.note = "pred = predicted mean (90 % interval) from " + std::to_string(runs) + " of this machine's stored " +
             "bench runs (" + (db_path.empty() ? "the default database" : db_path) + ", --db" + left_out +
             "): their tokens/s scaled by bytes read per token (tg) or parameters (pp), model to model; a "
             "prediction, not a measurement; its basis is in the 'predicted' note";
  return out;
}

DevicePredictions predict_this_machine(const OwnBasis& basis, const model::ModelShape& shape,
                                       const fit::ContextParams& ctx, int n_depth, const std::string& file_type,
                                       const fit::FitResult& plan) {
  DevicePredictions out;
  if (basis.points.empty()) return out;  // nothing to learn from: the note says why
  if (plan.verdict != fit::Verdict::kFits) {
    out.tg.push_back(no_prediction_for_partial_offload());
    out.pp.push_back(no_prediction_for_partial_offload());
    return out;
  }
  for (const fit::Phase phase : {fit::Phase::kTg, fit::Phase::kPp}) {
    fit::SpeedQuery q;
    q.device = fit::kThisMachine;
    q.device_class = fit::this_machine_class(plan.target.backend);
    q.phase = phase;
    q.file_type = file_type;
    q.work_per_token = phase == fit::Phase::kTg ? static_cast<double>(fit::bytes_per_token(shape, ctx, n_depth))
                                                : 2.0 * static_cast<double>(fit::total_params(shape));
    q.peak_per_s = this_machine_peak(plan.target, phase);
    q.roofline_known = phase == fit::Phase::kTg && plan.target.bandwidth_gbps > 0;
    fit::SpeedPrediction p = fit::predict_speed(basis.points, q);
    if (!p.has_basis)
      p.basis = "no basis (no stored " + std::string(phase == fit::Phase::kTg ? "tg" : "pp") + " run of " +
                q.device_class + " that it learns from: undisturbed, at depth 0, every layer on its device)";
    (phase == fit::Phase::kTg ? out.tg : out.pp).push_back(std::move(p));
  }
  return out;
}

}  // namespace rigbench::measure
