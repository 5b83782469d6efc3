#include "core/significance.h"

#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace rigbench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Boost.Math reports errors as values, never by throwing: the domain is checked before each
// call, and a result that under- or overflows is 0 or +-inf, which the callers handle.
using Policy =
    boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::ignore_error>,
                                  boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
                                  boost::math::policies::evaluation_error<boost::math::policies::ignore_error>>;
constexpr Policy kPolicy{};

struct MeanVar {
  double mean = 0;
  double var = 0;  // n-1 denominator
};

MeanVar mean_var(std::span<const double> v) {
  MeanVar r;
  for (double x : v) r.mean += x;
  r.mean /= static_cast<double>(v.size());
  for (double x : v) r.var += (x - r.mean) * (x - r.mean);
  r.var /= static_cast<double>(v.size() - 1);
  return r;
}

}  // namespace

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  return boost::math::ibeta(a, b, x, kPolicy);
}

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return kNaN;
  if (std::isinf(t)) return t < 0 ? 0 : 1;
  return boost::math::cdf(boost::math::students_t_distribution<double, Policy>(df), t);
}

double student_t_quantile(double p, double df) {
  if (!(p > 0) || !(p < 1) || !(df > 0)) return kNaN;
  return boost::math::quantile(boost::math::students_t_distribution<double, Policy>(df), p);
}

std::optional<MeanInterval> mean_interval(const Summary& s, double level) {
  if (s.n < 2 || !std::isfinite(s.stddev) || !std::isfinite(s.mean) || !(level > 0) || !(level < 1))
    return std::nullopt;
  const double n = static_cast<double>(s.n);
  MeanInterval r;
  r.half_width = student_t_quantile((1 + level) / 2, n - 1) * s.stddev / std::sqrt(n);
  r.low = s.mean - r.half_width;
  r.high = s.mean + r.half_width;
  if (r.low < 0 && s.mean >= 0 && s.min >= 0) {
    r.low = 0;
    r.low_clamped = true;
  }
  r.half_width_pct = s.mean != 0 ? 100 * r.half_width / std::fabs(s.mean) : kInf;
  return r;
}

namespace {

// Welch's test of two samples of sizes na, nb >= 2 with these means and variances.
WelchTest welch(const MeanVar& ma, double na, const MeanVar& mb, double nb) {
  const double va = ma.var / na, vb = mb.var / nb;  // squared standard errors of the means
  WelchTest r;
  r.mean_a = ma.mean;
  r.mean_b = mb.mean;
  if (va + vb == 0) {
    r.df = na + nb - 2;
    if (ma.mean == mb.mean) return r;  // t = 0, every p-value 1
    const bool less = ma.mean < mb.mean;
    r.t = less ? -kInf : kInf;
    r.p_less = less ? 0 : 1;
    r.p_greater = less ? 1 : 0;
    r.p_two_sided = 0;
    return r;
  }
  r.t = (ma.mean - mb.mean) / std::sqrt(va + vb);
  r.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  // Both one-sided values come from a lower tail, so neither loses digits to 1 - x.
  r.p_less = student_t_cdf(r.t, r.df);
  r.p_greater = student_t_cdf(-r.t, r.df);
  r.p_two_sided = std::fmin(1.0, 2 * std::fmin(r.p_less, r.p_greater));
  return r;
}

}  // namespace

std::optional<WelchTest> paired_t_test(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size() || a.size() < 2) return std::nullopt;
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  const double n = static_cast<double>(d.size());
  // The differences as one sample against a sample of zeros with no spread: Welch's formulas
  // then are the one-sample test's (standard error sd(d)/sqrt(n), Welch–Satterthwaite df = n - 1).
  WelchTest r = welch(mean_var(d), n, MeanVar{0, 0}, n);
  r.mean_a = mean_var(a).mean;
  r.mean_b = mean_var(b).mean;
  r.df = n - 1;  // (welch's zero-variance branch states na + nb - 2)
  return r;
}

std::optional<WelchTest> welch_t_test(std::span<const double> a, std::span<const double> b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  return welch(mean_var(a), static_cast<double>(a.size()), mean_var(b), static_cast<double>(b.size()));
}

std::optional<WelchTest> welch_t_test(const Summary& a, const Summary& b) {
  if (a.n < 2 || b.n < 2 || !std::isfinite(a.stddev) || !std::isfinite(b.stddev)) return std::nullopt;
  return welch({a.mean, a.stddev * a.stddev}, static_cast<double>(a.n), {b.mean, b.stddev * b.stddev},
               static_cast<double>(b.n));
}

}  // namespace rigbench
