// rigbench: significance tests on repeated samples. Pure functions, no I/O.
//
// Used to tell a real slowdown from noise when the same machine runs the same model under
// two builds (report/regressions.h): Welch's unequal-variances t-test on the per-sample
// tokens/s (or ms) of each build. Welch, not Student: two builds need not share a variance.
// Method: B. L. Welch, "The generalization of Student's problem when several different
// population variances are involved", Biometrika 34 (1947); the p-value is the Student t
// distribution with the Welch–Satterthwaite degrees of freedom, from Boost.Math
// (`students_t_distribution`, `ibeta`; header-only, Debian libboost-math-dev).
#pragma once

#include <optional>
#include <span>

#include "core/stats.h"

namespace rigbench {

// The significance level rigbench tests at unless told otherwise (`--alpha`): a slowdown
// is flagged when a difference at least that large would arise by chance under 5 % of the time.
inline constexpr double kDefaultAlpha = 0.05;

// The outcome of Welch's t-test of sample a against sample b.
struct WelchTest {
  double mean_a = 0, mean_b = 0;  // arithmetic means, in the samples' unit
  double t = 0;                   // (mean_a - mean_b) / sqrt(var_a/n_a + var_b/n_b); +-inf when both variances are 0
  double df = 0;                  // Welch–Satterthwaite degrees of freedom; n_a + n_b - 2 when both variances are 0
  double p_less = 1;              // one-sided p-value for H1: mean of a's population < mean of b's
  double p_greater = 1;           // one-sided p-value for H1: mean of a's population > mean of b's
  double p_two_sided = 1;         // two-sided p-value for H1: the means differ
};

// Welch's t-test. nullopt when either sample has fewer than 2 values (no variance to
// estimate). Both variances 0 (identical repeated values): t is +-inf and the p-values 0 or
// 1 when the means differ, t = 0 and every p-value 1 when they are equal. Sample variances
// are two-pass with the n-1 denominator, as summarize() computes them.
std::optional<WelchTest> welch_t_test(std::span<const double> a, std::span<const double> b);

// Welch's t-test from summary statistics (n, mean, sample standard deviation), for sources
// that kept statistics, not samples (llama-bench csv and sql). nullopt when either n < 2 or
// either standard deviation is not finite. Otherwise as above.
std::optional<WelchTest> welch_t_test(const Summary& a, const Summary& b);

// The paired t-test of a against b: Student's one-sample t-test on the differences a[i] - b[i]
// of like items (the same query embedded on two machines), t = mean(d) / (sd(d) / sqrt(n)),
// n - 1 degrees of freedom. Pairing takes the spread between items (short and long queries)
// out of the comparison, which Welch's test on the pooled values keeps in. Fields as
// WelchTest's (mean_a, mean_b: the two samples' means; df = n - 1). nullopt when the samples
// differ in size or have fewer than 2 values. Differences all equal: t is +-inf and the
// p-values 0 or 1 when they are not 0, t = 0 and every p-value 1 when they are.
std::optional<WelchTest> paired_t_test(std::span<const double> a, std::span<const double> b);

// The confidence level of every interval rigbench reports (bench's -r auto, the table's ±%).
inline constexpr double kConfidenceLevel = 0.95;

// A two-sided confidence interval of a mean.
struct MeanInterval {
  // mean -+ half_width, in the samples' unit; low never below 0 for non-negative samples
  // (every use: t/s, ms), where it is clamped at 0 and low_clamped says so.
  double low = 0, high = 0;
  double half_width = 0;      // t_{(1+level)/2, n-1} * s / sqrt(n), unclamped
  double half_width_pct = 0;  // half_width as a percentage of |mean| (+inf when the mean is 0)
  bool low_clamped = false;   // mean - half_width was below 0 and low is 0 (a rate or time cannot be negative)
};

// The Student t interval of the mean at `level` (default 95 %): mean +- t * s / sqrt(n), with
// t the (1 + level) / 2 quantile of Student's t with n - 1 degrees of freedom (Boost.Math).
// The one definition of "the interval" in rigbench: bench's stopping rule (-r auto), the
// record's ci95 fields and the table read it. nullopt when n < 2 or the standard deviation or
// mean is not finite. Samples that cannot be negative (a non-negative mean and minimum: every
// rate and time rigbench measures) get a low bound of at least 0: with few or widely spread
// repetitions (-r 2, -r 3 on a busy machine) mean - half_width can fall below 0, which no
// tokens/s or ms can be; the half width (and the -r auto rule that reads it) is unchanged.
std::optional<MeanInterval> mean_interval(const Summary& s, double level = kConfidenceLevel);

// The p-quantile (0 < p < 1) of Student's t with `df` > 0 degrees of freedom; NaN outside.
double student_t_quantile(double p, double df);

// P(T <= t) for Student's t distribution with `df` > 0 degrees of freedom (df need not be
// an integer). t = -inf gives 0, +inf gives 1; NaN in gives NaN.
double student_t_cdf(double t, double df);

// The regularized incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1]:
// 0 at x = 0, 1 at x = 1; NaN outside the domain (boost::math::ibeta, accurate to a few ulp).
double regularized_incomplete_beta(double a, double b, double x);

}  // namespace rigbench
