// rigbench: summary statistics over repeated samples. Pure functions, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rigbench {

// Summary of n samples, in the samples' own unit.
struct Summary {
  std::size_t n = 0;
  double mean = 0;    // arithmetic mean
  double stddev = 0;  // sample standard deviation (n-1 denominator), two-pass; 0 when n < 2
  double median = 0;  // middle value; mean of the two middle values when n is even
  double min = 0;
  double max = 0;
  // Upper percentiles, by percentile() below; p50 is `median`. NaN when only summaries
  // were combined (combine()) or when no samples were kept (an import of mean and sd).
  double p90 = 0;
  double p95 = 0;
  double p99 = 0;
};

// Summarizes `samples`. An empty span gives n = 0 and all fields 0.
// Two-pass variance on doubles, so it neither overflows nor cancels on long samples
// (llama-bench's one-pass formula on uint64_t nanoseconds does both).
Summary summarize(std::span<const double> samples);

// The p-th percentile (p in [0, 100]) of `samples`, by linear interpolation between the
// closest ranks: rank h = (n - 1) * p / 100 over the sorted samples, as numpy.percentile's
// default ("linear", Hyndman and Fan's type 7) and vLLM's benchmark compute it, so p50 is
// the median. An empty span gives NaN; p outside [0, 100] is clamped.
double percentile(std::span<const double> samples, double p);

// The same over samples already sorted ascending (no copy): for several percentiles of one
// distribution.
double percentile_sorted(std::span<const double> sorted, double p);

// The summary of two disjoint sets of samples known only by their summaries (a source that
// kept statistics, not samples): n adds, the mean is n-weighted, the variance pools the
// sums of squares (Chan, Golub and LeVeque, "Updating formulae and a pairwise algorithm for
// computing sample variances", 1979). min and max are the extremes; the median of the
// union is not known from summaries: NaN, unless one side is empty (n = 0, then the other
// is returned as it is).
Summary combine(const Summary& a, const Summary& b);

// The median absolute deviation of `samples`: median(|x - median(x)|), unscaled (multiply by
// 1.4826 for a standard deviation of normal data). 0 for an empty span.
double median_absolute_deviation(std::span<const double> samples);

// hyperfine's outlier rule (src/outlier_detection.rs): a sample is an outlier when its
// modified z-score (x - median) / MAD is beyond this in absolute value, i.e. more than ten
// robust standard deviations (1.4826 MAD each) from the median.
inline constexpr double kOutlierThreshold = 1.4826 * 10.0;
// ... and, beyond hyperfine, only when it is also this far from the median in relative terms,
// |x - median| / |median| (5 %): near-equal samples have a tiny MAD, so ten robust deviations
// can be a hair (2843.2, 2843.9, 2815.8 ms: the third is 1 % off, no outlier).
inline constexpr double kOutlierMinRelative = 0.05;

// The modified z-score of each sample, (x - median) / MAD, as hyperfine computes it; a MAD of
// 0 (most samples equal) is replaced by the smallest positive double's epsilon-scaled median,
// so a sample off an otherwise constant series scores huge rather than infinite or NaN.
std::vector<double> modified_z_scores(std::span<const double> samples);

// The indices of the outliers of `samples` by that rule (|modified z| > threshold and
// |x - median| > min_relative x |median|), ascending. Fewer than 3 samples have none.
std::vector<std::size_t> mad_outliers(std::span<const double> samples, double threshold = kOutlierThreshold,
                                      double min_relative = kOutlierMinRelative);

// Per-sample throughput, tokens per second: 1e9 * n_tokens / duration_ns, as llama-bench
// computes samples_ts. duration_ns must be > 0 (a zero duration gives +inf).
std::vector<double> tokens_per_second(std::span<const int64_t> samples_ns, int64_t n_tokens);

// Converts nanosecond samples to milliseconds.
std::vector<double> to_milliseconds(std::span<const int64_t> samples_ns);

}  // namespace rigbench
