#include "fit/speed_accuracy.h"

#include <algorithm>
#include <cmath>

namespace rigbench::fit {

namespace {

// The q-quantile (0..1) of sorted values, linear between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

std::vector<HeldOut> leave_one_device_out(const std::vector<SpeedPoint>& points, Phase phase) {
  std::vector<HeldOut> out;
  const std::string since = recent_since(points);  // older points are not what a prediction is for
  for (const SpeedPoint& p : points) {
    if (p.phase != phase || efficiency(p) <= 0 || (!p.date.empty() && p.date < since)) continue;
    const SpeedQuery q{.device = p.device,
                       .device_class = p.device_class,
                       .phase = phase,
                       .file_type = p.file_type,
                       .work_per_token = p.work_per_token,
                       .peak_per_s = p.peak_per_s,
                       .exclude_device = p.device};
    HeldOut h;
    h.point = p;
    h.predicted = predict_speed(points, q);
    if (h.predicted.has_basis) {
      h.error = h.predicted.mean_tps / p.tokens_per_s - 1.0;
      h.covered = p.tokens_per_s >= h.predicted.low_tps && p.tokens_per_s <= h.predicted.high_tps;
    }
    out.push_back(std::move(h));
  }
  return out;
}

AccuracySummary summarize_accuracy(const std::vector<HeldOut>& rows) {
  AccuracySummary s;
  s.n_points = static_cast<int>(rows.size());
  std::vector<double> errors;
  int covered = 0;
  for (const HeldOut& h : rows) {
    if (!h.predicted.has_basis) continue;
    errors.push_back(std::abs(h.error));
    covered += h.covered ? 1 : 0;
  }
  s.n_predicted = static_cast<int>(errors.size());
  if (errors.empty()) return s;
  std::sort(errors.begin(), errors.end());
  s.median_abs_error = quantile(errors, 0.5);
  s.p90_abs_error = quantile(errors, 0.9);
  s.coverage = static_cast<double>(covered) / static_cast<double>(errors.size());
  return s;
}

}  // namespace rigbench::fit
