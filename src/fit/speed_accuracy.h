// rigbench: how wrong the speed prediction (fit/speed_prediction.h) is, leave-one-device-out:
// each point predicted from the others with its whole device left out (its class's points of
// other devices only), as a device nobody has measured would be. Pure functions.
#pragma once

#include <vector>

#include "fit/speed_prediction.h"

namespace rigbench::fit {

struct HeldOut {
  SpeedPoint point;           // the measured point
  SpeedPrediction predicted;  // from the others, its device left out
  double error = 0;           // predicted mean / measured - 1 (signed); meaningful when predicted.has_basis
  bool covered = false;       // the measured rate lies within the 90 % interval
};

// Every recent point of `phase` (dated recent_since(points) or later, or undated) that has a
// usable peak, predicted with its device left out.
std::vector<HeldOut> leave_one_device_out(const std::vector<SpeedPoint>& points, Phase phase);

struct AccuracySummary {
  int n_points = 0;       // points held out
  int n_predicted = 0;    // of them, those with a basis
  double median_abs_error = 0;  // of |error|, over the predicted ones (fraction: 0.15 = 15 %)
  double p90_abs_error = 0;     // 90th percentile of |error| (linear interpolation)
  double coverage = 0;          // share of the predicted ones inside their 90 % interval
};

AccuracySummary summarize_accuracy(const std::vector<HeldOut>& rows);

}  // namespace rigbench::fit
