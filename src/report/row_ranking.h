// rigbench: the ranking of a comparison's row (report/comparison.h): its winner or verdict, each
// cell's ratio to the baseline column, and which column --baseline names. Pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/compare_by.h"
#include "report/compare_metric.h"
#include "report/comparison_row.h"

namespace rigbench::report {

// Sets row.winner and row.verdict, for a metric that is ranked (MetricInfo::ranked; else it
// leaves both as they are). The winner is the measured cell with the best mean, unless the
// spreads (mean ± sample standard deviation) of the best and the runner-up overlap, or either
// spread is unknown (a summary-only source without stddev): then "no clear winner". A cell
// that won't fit counts as a loser; a missing one does not count. One measured cell and none
// that won't fit: "single result". No measured cell: neither is set.
void rank_row(Row& row, const MetricInfo& info);

// Sets each measured cell's ratio against the cell of column `baseline` (an index into
// row.cells), oriented so that > 1 is better than the baseline (t/s: cell / baseline; ms, J,
// cost: baseline / cell). Nothing when the metric is not ranked or the baseline's cell is not
// measured: the ratios stay NaN.
void set_ratios(Row& row, const MetricInfo& info, std::size_t baseline);

// The index of the column `wanted` (--baseline) names among `columns`: 0 when it is empty, else
// the column equal to it ignoring case, else the one column that contains it. Errors: kUsage
// naming --baseline, the value and the columns when no column or several contain it (`by`
// names them: "machines").
Result<std::size_t> find_baseline(const std::vector<std::string>& columns, const std::string& wanted, CompareBy by);

}  // namespace rigbench::report
