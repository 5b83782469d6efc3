// rigbench: predicted tg and pp (fit/speed_prediction.h) for catalog devices, learned from the
// shipped dataset of published llama-bench results (hw/published_results.h): what fit --device
// and fit --rank show beside the tg bound.
#pragma once

#include <string>
#include <vector>

#include "fit/fit_report.h"
#include "fit/speed_prediction.h"
#include "hw/catalog.h"
#include "model/model_shape.h"

namespace rigbench::measure {

struct DevicePredictions {
  std::vector<fit::SpeedPrediction> tg, pp;  // one per device asked, in order; empty without the dataset
  // The table note: "pred = predicted mean (90 % interval), learned from N published ..." or
  // "no speed prediction: <why>" for a bad dataset file; "" when the data folder has none (a test
  // catalog).
  std::string note;
};

// Predictions of `shape` (of file type `file_type`, "" any) on each of `devices`, learned from
// the dataset's points on `catalog`. Reads and parses data/published_llama_bench.jsonl
// (hw/published_results.h) on each call. A dataset that cannot be read is said in `note`, never
// an error: the fit stands without it.
DevicePredictions predict_devices(const model::ModelShape& shape, const std::string& file_type,
                                  const std::vector<hw::CatalogDevice>& devices,
                                  const std::vector<hw::CatalogDevice>& catalog);

// The prediction of a plan that is not all on the device: none (the published results are
// full offloads), so said.
fit::SpeedPrediction no_prediction_for_partial_offload();

// Each ranked option's predicted tg and pp in `rep` (FitRankingReport::tg_predicted, ...), of
// one of its devices; none for a partial offload; the table note in rep.notes. A model that
// generates no tokens (an encoder) gets none.
void predict_ranking(fit::FitRankingReport& rep, const model::ModelShape& shape, const std::string& file_type,
                     const std::vector<hw::CatalogDevice>& catalog);

}  // namespace rigbench::measure
