// rigbench: the ranking of a comparison's row (report/comparison.h): its winner or verdict, each
// cell's ratio to the baseline column, and which column --baseline names. Pure functions.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/compare_by.h"
#include "report/compare_metric.h"
#include "report/comparison_row.h"

namespace rigbench::report {

// Welch's two-sided p-value (core/significance.h) between two measured cells: on their values
// (Cell::samples), or on their statistics where either is summary-only. NaN when untested
// (fewer than 2 values a side, or a spread a source did not state).
double welch_p(const Cell& a, const Cell& b);

// The two-sided p-value of two measured cells of `row`, by the test its metric takes: for
// embedding latency (Metric::kEmbedLatency, a row per query set of row.n queries) the paired
// t-test (core/significance.h paired_t_test) on each query's mean latency, where both cells
// hold whole passes over the set (their values, query i at index i mod n, a multiple of n);
// Welch's test (welch_p) otherwise. NaN when untested.
double cells_p(const Row& row, const Cell& a, const Cell& b);

// A lead on a disturbed run stands only beyond this ratio (+25 %: mean_a / mean_b above 1.25
// or below 1 / 1.25). Steal and busy neighbours moved the same -t 2 run on one shared VM by
// up to 15 % between two runs (docs/compare.md).
inline constexpr double kDisturbedLeadRatio = 1.25;

// The one test of two measured cells of `row`, which the table's winner (rank_row) and the
// answers (report/reversals.h) both take.
struct CellsTest {
  double p = std::nan("");    // cells_p: NaN when untested
  bool significant = false;   // means differ, p < alpha, and no disturbance holds it back
  bool inconclusive = false;  // p < alpha, but a disturbed run and a lead within kDisturbedLeadRatio
  std::vector<std::string>
      disturbed;  // the disturbing codes (core/noise_note.h disturbs_run) of the two cells, each once
};
CellsTest test_cells(const Row& row, const Cell& a, const Cell& b, double alpha);

// Row::verdict of a lead test_cells holds back.
inline constexpr const char* kInconclusiveVerdict = "inconclusive: noisy runs";

// Sets row.winner, row.p and row.verdict, for a metric that is ranked (MetricInfo::ranked;
// else it leaves them as they are). The one rule for a winner, which the answers
// (report/reversals.h) follow too: the measured cell with the best mean wins when Welch's
// two-sided test of it against the runner-up gives p < `alpha` (row.p: that p-value); p >=
// alpha is "no clear winner" (the test: cells_p), a lead test_cells holds back is
// "inconclusive: noisy runs", an untested pair (welch_p NaN: one value a side, a spread
// unknown) is "untested". A cell that won't fit counts as a loser; a missing one does not
// count. One measured cell and none that won't fit: "single result"; one measured cell and
// some that won't fit: it wins. No measured cell: nothing is set.
void rank_row(Row& row, const MetricInfo& info, double alpha);

// By model: where the measured cells of a ranked row are models of different parameter counts
// (`column_n_params`, one per column), the row names no winner: winner -1, p NaN, verdict
// "sizes differ". Nothing otherwise.
void keep_to_one_size(Row& row, const std::vector<uint64_t>& column_n_params);

// Sets each measured cell's ratio against the cell of column `baseline` (an index into
// row.cells), oriented so that > 1 is better than the baseline (t/s: cell / baseline; ms, J,
// cost: baseline / cell). Nothing when the metric is not ranked or the baseline's cell is not
// measured: the ratios stay NaN.
void set_ratios(Row& row, const MetricInfo& info, std::size_t baseline);

// The baseline when none is named: the first column (of `n_columns`) with a measured cell in a
// ranked row of `rows`; 0 when none has one.
std::size_t default_baseline(const std::vector<Row>& rows, std::size_t n_columns);

// The index of the column `wanted` (--baseline) names among `columns`: 0 when it is empty, else
// the column equal to it ignoring case, else the one column that contains it. Errors: kUsage
// naming --baseline, the value and the columns when no column or several contain it (`by`
// names them: "machines").
Result<std::size_t> find_baseline(const std::vector<std::string>& columns, const std::string& wanted, CompareBy by);

}  // namespace rigbench::report
