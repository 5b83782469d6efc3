// rigbench: predicted tg and pp (fit/speed_prediction.h) for catalog devices, learned from the
// shipped dataset of published llama-bench results (hw/published_results.h): what fit --device,
// fit --rank, fit --vs and the report's what-to-buy answers show beside the tg bound; and for
// this machine, from its own stored bench runs (fit/own_points.h): what fit on this machine shows.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "fit/context_params.h"
#include "fit/fit_report.h"
#include "fit/planner.h"
#include "fit/speed_prediction.h"
#include "hw/catalog.h"
#include "model/model_shape.h"

namespace rigbench::measure {

// The dataset's points on a catalog, read once for every prediction of one answer.
struct SpeedBasis {
  std::vector<fit::SpeedPoint> points;  // fit::published_points of the dataset on the catalog
  // The table note: "pred = predicted mean (90 % interval), learned from N published ..." or
  // "no speed prediction: <why>" for a bad dataset file; "" when the data folder has none (a
  // test catalog): then nothing is predicted.
  std::string note;
  bool loaded = false;  // the dataset was read: predictions are made (some may have no basis)
};

// Reads and parses data/published_llama_bench.jsonl (hw/published_results.h) and takes its
// points on `catalog`. A dataset that cannot be read is said in `note`, never an error: the fit
// stands without it.
SpeedBasis load_speed_basis(const std::vector<hw::CatalogDevice>& catalog);

struct DevicePredictions {
  std::vector<fit::SpeedPrediction> tg, pp;  // one per device asked, in order; empty when !basis.loaded
};

// Predictions of `shape` (of file type `file_type`, "" any) on each of `devices`.
DevicePredictions predict_devices(const SpeedBasis& basis, const model::ModelShape& shape, const std::string& file_type,
                                  const std::vector<hw::CatalogDevice>& devices);

// The prediction of a plan that is not all on the device: none (the published results are
// full offloads), so said.
fit::SpeedPrediction no_prediction_for_partial_offload();

// Each ranked option's predicted tg and pp in `rep` (FitRankingReport::tg_predicted, ...), of
// one of its devices (found in `catalog` by name; one not there has no basis); none for a
// partial offload; basis.note in rep.notes. A model that generates no tokens (an encoder) gets
// none.
void predict_ranking(fit::FitRankingReport& rep, const SpeedBasis& basis, const model::ModelShape& shape,
                     const std::string& file_type, const std::vector<hw::CatalogDevice>& catalog);

// This machine's own stored bench runs, read once for its plan's prediction.
struct OwnBasis {
  std::vector<fit::SpeedPoint> points;  // fit::own_points of the database's records
  // The table note: "pred = predicted mean (90 % interval) from N of this machine's stored bench
  // runs (P) ...", or why there is no prediction ("none of this machine's runs is stored yet ...").
  std::string note;
};

// The records of the results database `db_path` ("" = the default, store::default_db_path),
// opened read-only (never created), as this machine's points (fit::own_points) for a plan on
// `target` (its bandwidth, bytes/s, the tg peak where known; else, as for pp, a unit that
// cancels). A database that is missing or cannot be read is said in `note`, never an error:
// the fit stands without it.
OwnBasis load_own_basis(const std::string& db_path, const MachineInfo& machine, const fit::Target& target);

// The predicted tg and pp (one each) of `shape` planned as `plan` (on this machine's `target`,
// with `ctx`, tg at `n_depth`), from `basis`: work per token fit::bytes_per_token (tg) and
// 2 x fit::total_params (pp), the same measures as the own points'. A plan that is not all on
// its device has none (no_prediction_for_partial_offload); none at all (empty) where the basis
// has no point (its note says why).
DevicePredictions predict_this_machine(const OwnBasis& basis, const model::ModelShape& shape,
                                       const fit::ContextParams& ctx, int n_depth, const std::string& file_type,
                                       const fit::FitResult& plan);

}  // namespace rigbench::measure
