// rigbench: `fit --predict-accuracy`: the speed prediction checked leave-one-device-out on the
// shipped dataset (fit/speed_accuracy.h over the points of hw/published_results.h and the
// catalog), what bench/predict_accuracy prints.
#pragma once

#include <vector>

#include "core/status.h"
#include "fit/speed_accuracy.h"

namespace rigbench::measure {

struct SpeedAccuracy {
  std::vector<fit::HeldOut> tg, pp;  // every learnable point, predicted with its device left out
  fit::AccuracySummary tg_summary, pp_summary;
};

// Loads the catalog and the dataset and holds each device out in turn. Errors: the loaders'
// (a missing or bad file, named).
Result<SpeedAccuracy> speed_accuracy();

}  // namespace rigbench::measure
