#include "core/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rigbench {

Summary summarize(std::span<const double> samples) {
  Summary s;
  s.n = samples.size();
  if (s.n == 0) return s;

  double sum = 0;
  for (double x : samples) sum += x;
  s.mean = sum / static_cast<double>(s.n);

  if (s.n >= 2) {
    double sq = 0;
    for (double x : samples) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(s.n - 1));
  }

  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  const std::size_t mid = s.n / 2;
  s.median = (s.n % 2 == 1) ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
  s.p90 = percentile_sorted(sorted, 90);
  s.p95 = percentile_sorted(sorted, 95);
  s.p99 = percentile_sorted(sorted, 99);
  return s;
}

double percentile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  p = std::clamp(p, 0.0, 100.0);
  const double h = static_cast<double>(sorted.size() - 1) * p / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double percentile(std::span<const double> samples, double p) {
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  return percentile_sorted(sorted, p);
}

Summary combine(const Summary& a, const Summary& b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  const double na = static_cast<double>(a.n), nb = static_cast<double>(b.n), n = na + nb;
  const double delta = b.mean - a.mean;
  const double m2 = a.stddev * a.stddev * (na - 1) + b.stddev * b.stddev * (nb - 1) + delta * delta * na * nb / n;
  Summary s;
  s.n = a.n + b.n;
  s.mean = a.mean + delta * nb / n;
  s.stddev = std::sqrt(m2 / (n - 1));
  s.min = std::fmin(a.min, b.min);
  s.max = std::fmax(a.max, b.max);
  s.median = std::numeric_limits<double>::quiet_NaN();
  s.p90 = s.p95 = s.p99 = std::numeric_limits<double>::quiet_NaN();
  return s;
}

double median_absolute_deviation(std::span<const double> samples) {
  if (samples.empty()) return 0;
  const double med = percentile(samples, 50);
  std::vector<double> dev;
  dev.reserve(samples.size());
  for (double x : samples) dev.push_back(std::fabs(x - med));
  return percentile(dev, 50);
}

std::vector<double> modified_z_scores(std::span<const double> samples) {
  std::vector<double> z;
  if (samples.empty()) return z;
  const double med = percentile(samples, 50);
  double mad = median_absolute_deviation(samples);
  if (!(mad > 0)) mad = std::max(std::fabs(med), 1.0) * std::numeric_limits<double>::epsilon();
  z.reserve(samples.size());
  for (double x : samples) z.push_back((x - med) / mad);
  return z;
}

std::vector<std::size_t> mad_outliers(std::span<const double> samples, double threshold, double min_relative) {
  std::vector<std::size_t> out;
  if (samples.size() < 3) return out;
  const auto z = modified_z_scores(samples);
  const double med = percentile(samples, 50);
  for (std::size_t i = 0; i < z.size(); ++i) {
    const bool far = std::fabs(samples[i] - med) > min_relative * std::fabs(med);
    if (std::fabs(z[i]) > threshold && far) out.push_back(i);
  }
  return out;
}

std::vector<double> tokens_per_second(std::span<const int64_t> samples_ns, int64_t n_tokens) {
  std::vector<double> out;
  out.reserve(samples_ns.size());
  for (int64_t ns : samples_ns) {
    out.push_back(ns > 0 ? 1e9 * static_cast<double>(n_tokens) / static_cast<double>(ns)
                         : std::numeric_limits<double>::infinity());
  }
  return out;
}

std::vector<double> to_milliseconds(std::span<const int64_t> samples_ns) {
  std::vector<double> out;
  out.reserve(samples_ns.size());
  for (int64_t ns : samples_ns) out.push_back(static_cast<double>(ns) / 1e6);
  return out;
}

}  // namespace rigbench
