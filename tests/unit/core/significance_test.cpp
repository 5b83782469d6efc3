// Welch's t-test and the distributions under it, against values computed by hand (closed
// forms of the t distribution for 1 and 2 degrees of freedom; t and df by hand) and, where no
// closed form exists, by numerical integration of the t density (Simpson's rule, 400,000
// intervals on x = tan(theta), in Python; stated beside each value).
#include "core/significance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rigbench {
namespace {

TEST(IncompleteBeta, ClosedForms) {
  EXPECT_NEAR(regularized_incomplete_beta(1, 1, 0.3), 0.3, 1e-14);         // I_x(1,1) = x
  EXPECT_NEAR(regularized_incomplete_beta(3, 1, 0.5), 0.125, 1e-14);       // I_x(a,1) = x^a
  EXPECT_NEAR(regularized_incomplete_beta(1, 4, 0.5), 1 - 0.0625, 1e-14);  // 1 - (1-x)^b
  EXPECT_NEAR(regularized_incomplete_beta(2.5, 2.5, 0.5), 0.5, 1e-14);     // symmetry
  EXPECT_NEAR(regularized_incomplete_beta(2, 3, 0.9), 1 - regularized_incomplete_beta(3, 2, 0.1), 1e-14);
}

TEST(IncompleteBeta, EdgesAndDomain) {
  EXPECT_EQ(regularized_incomplete_beta(2, 3, 0), 0);
  EXPECT_EQ(regularized_incomplete_beta(2, 3, 1), 1);
  EXPECT_TRUE(std::isnan(regularized_incomplete_beta(0, 3, 0.5)));
  EXPECT_TRUE(std::isnan(regularized_incomplete_beta(2, 3, 1.5)));
  EXPECT_TRUE(std::isnan(regularized_incomplete_beta(2, 3, NAN)));
}

TEST(StudentT, OneDegreeOfFreedomIsCauchy) {
  // F(t) = 1/2 + atan(t)/pi.
  EXPECT_NEAR(student_t_cdf(1, 1), 0.75, 1e-13);
  EXPECT_NEAR(student_t_cdf(-3, 1), 0.5 + std::atan(-3.0) / M_PI, 1e-13);
}

TEST(StudentT, TwoDegreesOfFreedomClosedForm) {
  // F(t) = 1/2 + t / (2 sqrt(2 + t^2)).
  EXPECT_NEAR(student_t_cdf(1, 2), 0.5 + 1 / (2 * std::sqrt(3.0)), 1e-13);          // 0.788675134594813
  EXPECT_NEAR(student_t_cdf(-2 * std::sqrt(2.0), 2), 0.5 - std::sqrt(0.2), 1e-13);  // 0.0527864045
}

TEST(StudentT, NonIntegerDegreesOfFreedom) {
  EXPECT_NEAR(student_t_cdf(1.5, 7.3), 0.9122184535984413, 1e-9);  // numerical integration
  EXPECT_NEAR(student_t_cdf(0, 7.3), 0.5, 1e-15);
}

TEST(StudentT, Edges) {
  EXPECT_EQ(student_t_cdf(-INFINITY, 3), 0);
  EXPECT_EQ(student_t_cdf(INFINITY, 3), 1);
  EXPECT_TRUE(std::isnan(student_t_cdf(NAN, 3)));
  EXPECT_TRUE(std::isnan(student_t_cdf(1, 0)));
}

TEST(Welch, EqualVariancesByHand) {
  // a = {1, 3}, b = {5, 7}: means 2 and 6, variances 2 and 2; se^2 = 2/2 + 2/2 = 2,
  // t = -4 / sqrt(2) = -2 sqrt(2); df = 2^2 / (1^2/1 + 1^2/1) = 2.
  const std::vector<double> a = {1, 3}, b = {5, 7};
  const auto w = welch_t_test(a, b);
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->mean_a, 2);
  EXPECT_DOUBLE_EQ(w->mean_b, 6);
  EXPECT_NEAR(w->t, -2 * std::sqrt(2.0), 1e-14);
  EXPECT_NEAR(w->df, 2, 1e-14);
  EXPECT_NEAR(w->p_less, 0.5 - std::sqrt(0.2), 1e-13);  // 0.0527864045
  EXPECT_NEAR(w->p_greater, 0.5 + std::sqrt(0.2), 1e-13);
  EXPECT_NEAR(w->p_two_sided, 2 * (0.5 - std::sqrt(0.2)), 1e-13);
}

TEST(PairedT, LikeItemsByHand) {
  // Three queries on two machines: a = {10, 20, 31} ms, b = {9, 18, 28} ms. The differences
  // {1, 2, 3}: mean 2, sd 1, t = 2 / (1 / sqrt 3) = 2 sqrt 3, df = 2; with two degrees of
  // freedom P(T > t) = 1/2 - t / (2 sqrt(2 + t^2)), so two-sided p = 1 - sqrt(12 / 14).
  const std::vector<double> a = {10, 20, 31}, b = {9, 18, 28};
  const auto p = paired_t_test(a, b);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->mean_a, 61.0 / 3);
  EXPECT_DOUBLE_EQ(p->mean_b, 55.0 / 3);
  EXPECT_NEAR(p->t, 2 * std::sqrt(3.0), 1e-13);
  EXPECT_DOUBLE_EQ(p->df, 2);
  EXPECT_NEAR(p->p_two_sided, 1 - std::sqrt(12.0 / 14.0), 1e-12);  // 0.0741799
  EXPECT_NEAR(p->p_greater, (1 - std::sqrt(12.0 / 14.0)) / 2, 1e-12);
  // Welch's test on the same values sees the spread between the queries: far from significant.
  const auto w = welch_t_test(a, b);
  ASSERT_TRUE(w);
  EXPECT_GT(w->p_two_sided, 0.7);
}

TEST(PairedT, SizesAndConstantDifferences) {
  const std::vector<double> a = {1, 2}, b3 = {1, 2, 3}, one = {1};
  EXPECT_FALSE(paired_t_test(a, b3));   // not pairs
  EXPECT_FALSE(paired_t_test(one, one));  // one pair: no spread to estimate
  const std::vector<double> b = {0.5, 1.5};  // every difference 0.5
  const auto p = paired_t_test(a, b);
  ASSERT_TRUE(p);
  EXPECT_TRUE(std::isinf(p->t) && p->t > 0);
  EXPECT_DOUBLE_EQ(p->p_two_sided, 0);
  EXPECT_DOUBLE_EQ(p->df, 1);
  const auto same = paired_t_test(a, a);
  ASSERT_TRUE(same);
  EXPECT_DOUBLE_EQ(same->p_two_sided, 1);
}

TEST(Welch, UnequalVariancesByHand) {
  // a = {1, 2, 3}: mean 2, variance 1; b = {2, 4, 6, 8, 10}: mean 6, variance 10.
  // se^2 = 1/3 + 10/5 = 7/3; t = -4 / sqrt(7/3) = -2.6186146828319083;
  // df = (7/3)^2 / ((1/3)^2 / 2 + 2^2 / 4) = (49/9) / (19/18) = 98/19.
  const std::vector<double> a = {1, 2, 3}, b = {2, 4, 6, 8, 10};
  const auto w = welch_t_test(a, b);
  ASSERT_TRUE(w);
  EXPECT_NEAR(w->t, -2.6186146828319083, 1e-13);
  EXPECT_NEAR(w->df, 98.0 / 19.0, 1e-13);
  EXPECT_NEAR(w->p_less, 0.022887914219397478, 1e-9);  // numerical integration
  // Swapping the samples mirrors the statistic.
  const auto m = welch_t_test(b, a);
  ASSERT_TRUE(m);
  EXPECT_NEAR(m->t, -w->t, 1e-13);
  EXPECT_NEAR(m->p_greater, w->p_less, 1e-15);
}

TEST(Welch, FromSummaryStatisticsMatchesTheSamples) {
  // The same two samples as UnequalVariancesByHand, known only by n, mean and sd.
  const std::vector<double> a = {1, 2, 3}, b = {2, 4, 6, 8, 10};
  const auto from_samples = welch_t_test(a, b);
  const auto from_summaries = welch_t_test(summarize(a), summarize(b));
  ASSERT_TRUE(from_samples && from_summaries);
  EXPECT_NEAR(from_summaries->t, -2.6186146828319083, 1e-13);
  EXPECT_NEAR(from_summaries->df, 98.0 / 19.0, 1e-13);
  EXPECT_NEAR(from_summaries->p_less, from_samples->p_less, 1e-13);
  // n unknown (0), fewer than 2, or a spread not stated: no test.
  Summary unknown_n{0, 25231.96, 17262.95, 0, 0, 0};
  EXPECT_FALSE(welch_t_test(unknown_n, summarize(b)));
  Summary no_sd{5, 27147.01, std::nan(""), 0, 0, 0};
  EXPECT_FALSE(welch_t_test(summarize(a), no_sd));
}

// llama-bench csv rows of issue 21282 told their repetitions (5 each): 25231.96 ± 17262.95
// against 27147.01 ± 1477. Welch: se^2 = 17262.95^2/5 + 1477^2/5, t = -1915.05 / sqrt(se^2)
// = -0.2470..., far from significant.
TEST(Welch, OverlappingSummariesAreNotSignificant) {
  const auto w = welch_t_test(Summary{5, 25231.96, 17262.95, 0, 0, 0}, Summary{5, 27147.01, 1477.0, 0, 0, 0});
  ASSERT_TRUE(w);
  const double se = std::sqrt(17262.95 * 17262.95 / 5 + 1477.0 * 1477.0 / 5);
  EXPECT_NEAR(w->t, (25231.96 - 27147.01) / se, 1e-12);
  EXPECT_GT(w->p_two_sided, 0.5);
}

TEST(Welch, FewerThanTwoSamplesHasNoTest) {
  const std::vector<double> one = {1}, two = {1, 2};
  EXPECT_FALSE(welch_t_test(one, two));
  EXPECT_FALSE(welch_t_test(two, one));
  EXPECT_FALSE(welch_t_test({}, two));
}

TEST(Welch, ZeroVariances) {
  const std::vector<double> a = {3, 3, 3}, b = {4, 4}, c = {3, 3};
  const auto w = welch_t_test(a, b);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->t, -INFINITY);
  EXPECT_EQ(w->df, 3);
  EXPECT_EQ(w->p_less, 0);
  EXPECT_EQ(w->p_greater, 1);
  EXPECT_EQ(w->p_two_sided, 0);
  const auto same = welch_t_test(a, c);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->t, 0);
  EXPECT_EQ(same->p_less, 1);
  EXPECT_EQ(same->p_greater, 1);
  EXPECT_EQ(same->p_two_sided, 1);
}

TEST(Welch, ClearlySeparatedThroughputIsSignificant) {
  // Five tg samples per build, the second build about 10 % slower.
  const std::vector<double> before = {100.2, 99.8, 100.5, 99.9, 100.1}, after = {90.1, 90.4, 89.8, 90.0, 90.3};
  const auto w = welch_t_test(after, before);
  ASSERT_TRUE(w);
  EXPECT_LT(w->p_less, 1e-6);
  EXPECT_GT(w->p_greater, 0.999);
}

}  // namespace
}  // namespace rigbench
