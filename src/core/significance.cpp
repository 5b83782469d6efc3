#include "core/significance.h"

#include <cmath>
#include <limits>

namespace rigbench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

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

// The continued fraction of I_x(a, b), evaluated with the modified Lentz method; converges
// quickly for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  double f = 1, c = 1, d = 0;
  for (int i = 0; i <= 400; ++i) {
    const double m = static_cast<double>(i / 2);
    double numerator;
    if (i == 0) {
      numerator = 1;
    } else if (i % 2 == 0) {
      numerator = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    } else {
      numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    }
    d = 1 + numerator * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    d = 1 / d;
    c = 1 + numerator / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    const double cd = c * d;
    f *= cd;
    if (std::fabs(1 - cd) < kEps) break;
  }
  return f - 1;
}

}  // namespace

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  // The continued fraction converges fast only below the mean; use the symmetry
  // I_x(a, b) = 1 - I_{1-x}(b, a) above it.
  if (x > (a + 1) / (a + b + 2)) return 1 - regularized_incomplete_beta(b, a, 1 - x);
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  return std::exp(log_front) / a * beta_continued_fraction(a, b, x);
}

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return kNaN;
  if (std::isinf(t)) return t < 0 ? 0 : 1;
  // P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2); each tail is half of it.
  const double tail = 0.5 * regularized_incomplete_beta(df / 2, 0.5, df / (df + t * t));
  return t < 0 ? tail : 1 - tail;
}

std::optional<WelchTest> welch_t_test(std::span<const double> a, std::span<const double> b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const MeanVar ma = mean_var(a), mb = mean_var(b);
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
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

}  // namespace rigbench
