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
};

// Summarizes `samples`. An empty span gives n = 0 and all fields 0.
// Two-pass variance on doubles, so it neither overflows nor cancels on long samples
// (llama-bench's one-pass formula on uint64_t nanoseconds does both).
Summary summarize(std::span<const double> samples);

// The summary of two disjoint sets of samples known only by their summaries (a source that
// kept statistics, not samples): n adds, the mean is n-weighted, the variance pools the
// sums of squares (Chan, Golub and LeVeque, "Updating formulae and a pairwise algorithm for
// computing sample variances", 1979). min and max are the extremes; the median of the
// union is not known from summaries: NaN, unless one side is empty (n = 0, then the other
// is returned as it is).
Summary combine(const Summary& a, const Summary& b);

// Per-sample throughput, tokens per second: 1e9 * n_tokens / duration_ns, as llama-bench
// computes samples_ts. duration_ns must be > 0 (a zero duration gives +inf).
std::vector<double> tokens_per_second(std::span<const int64_t> samples_ns, int64_t n_tokens);

// Converts nanosecond samples to milliseconds.
std::vector<double> to_milliseconds(std::span<const int64_t> samples_ns);

}  // namespace rigbench
