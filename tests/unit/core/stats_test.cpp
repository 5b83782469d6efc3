#include "core/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rigbench {
namespace {

TEST(Summarize, EmptyGivesZeroCount) {
  const Summary s = summarize({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.stddev, 0);
}

TEST(Summarize, OneSampleHasZeroStddev) {
  const std::vector<double> v = {5};
  const Summary s = summarize(v);
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.median, 5);
  EXPECT_DOUBLE_EQ(s.min, 5);
  EXPECT_DOUBLE_EQ(s.max, 5);
}

TEST(Summarize, EvenCountUsesSampleStddevAndMiddleMean) {
  const std::vector<double> v = {4, 1, 3, 2};
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.stddev, 1.2909944487358056, 1e-12);  // sqrt(5/3), n-1 denominator
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
}

TEST(Summarize, OddCountMedianIsMiddle) {
  const std::vector<double> v = {3, 10, 1};
  EXPECT_DOUBLE_EQ(summarize(v).median, 3);
}

// llama-bench's one-pass formula loses this to cancellation; the two-pass one does not.
TEST(Summarize, LargeValuesKeepSmallSpread) {
  const std::vector<double> v = {1e12 + 1, 1e12 + 2, 1e12 + 3};
  EXPECT_NEAR(summarize(v).stddev, 1.0, 1e-6);
}

// numpy.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [50, 90, 95, 99]) = 5.5, 9.1, 9.55, 9.91.
TEST(Percentile, InterpolatesBetweenClosestRanksAsNumpyDoes) {
  const std::vector<double> v{10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_DOUBLE_EQ(percentile(v, 50), 5.5);
  EXPECT_DOUBLE_EQ(percentile(v, 90), 9.1);
  EXPECT_DOUBLE_EQ(percentile(v, 95), 9.55);
  EXPECT_NEAR(percentile(v, 99), 9.91, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 10);
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.p90, 9.1);
  EXPECT_DOUBLE_EQ(s.p95, 9.55);
  EXPECT_NEAR(s.p99, 9.91, 1e-12);
  EXPECT_DOUBLE_EQ(s.median, percentile(v, 50));
}

TEST(Percentile, EmptyIsNaNAndOneSampleIsItself) {
  EXPECT_TRUE(std::isnan(percentile({}, 50)));
  const std::vector<double> one{42};
  EXPECT_DOUBLE_EQ(percentile(one, 99), 42);
}

TEST(Combine, SummariesPoolAsTheirSamplesWould) {
  const std::vector<double> a = {1, 2, 3}, b = {2, 4, 6, 8, 10}, both = {1, 2, 3, 2, 4, 6, 8, 10};
  const Summary pooled = combine(summarize(a), summarize(b));
  const Summary direct = summarize(both);
  EXPECT_EQ(pooled.n, 8u);
  EXPECT_NEAR(pooled.mean, direct.mean, 1e-14);
  EXPECT_NEAR(pooled.stddev, direct.stddev, 1e-14);
  EXPECT_EQ(pooled.min, 1);
  EXPECT_EQ(pooled.max, 10);
  EXPECT_TRUE(std::isnan(pooled.median));  // not known from two summaries
  // An empty side gives the other as it is, median included.
  const Summary same = combine(Summary{}, summarize(a));
  EXPECT_EQ(same.median, 2);
  EXPECT_EQ(same.n, 3u);
}

TEST(TokensPerSecond, IsTokensOverSeconds) {
  const std::vector<int64_t> ns = {1'000'000'000, 500'000'000};
  const auto tps = tokens_per_second(ns, 128);
  ASSERT_EQ(tps.size(), 2u);
  EXPECT_DOUBLE_EQ(tps[0], 128);
  EXPECT_DOUBLE_EQ(tps[1], 256);
}

TEST(ToMilliseconds, DividesByAMillion) {
  const std::vector<int64_t> ns = {1'500'000, 250'000};
  const auto ms = to_milliseconds(ns);
  EXPECT_DOUBLE_EQ(ms[0], 1.5);
  EXPECT_DOUBLE_EQ(ms[1], 0.25);
}

}  // namespace
}  // namespace rigbench
