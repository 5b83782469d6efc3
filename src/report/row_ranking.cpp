#include "report/row_ranking.h"

#include <algorithm>
#include <cmath>

#include "core/strings.h"

namespace rigbench::report {

void rank_row(Row& row, const MetricInfo& info) {
  if (!info.ranked) return;
  std::vector<int> measured;
  int refused = 0;
  for (int i = 0; i < static_cast<int>(row.cells.size()); ++i) {
    if (row.cells[i].state == CellState::kMeasured) measured.push_back(i);
    if (row.cells[i].state == CellState::kWontFit) ++refused;
  }
  if (measured.empty()) return;
  if (measured.size() == 1 && refused == 0) {
    row.verdict = "single result";
    return;
  }
  auto mean = [&row](int i) { return row.cells[i].summary.mean; };
  std::stable_sort(measured.begin(), measured.end(),
                   [&](int a, int b) { return info.higher_is_better ? mean(a) > mean(b) : mean(a) < mean(b); });
  if (measured.size() >= 2) {
    const Summary& a = row.cells[measured[0]].summary;
    const Summary& b = row.cells[measured[1]].summary;
    // [mean - sd, mean + sd] intervals overlap, or a spread is unknown.
    if (!std::isfinite(a.stddev) || !std::isfinite(b.stddev) || std::fabs(a.mean - b.mean) <= a.stddev + b.stddev) {
      row.verdict = "no clear winner";
      return;
    }
  }
  row.winner = measured[0];
}

void set_ratios(Row& row, const MetricInfo& info, std::size_t baseline) {
  if (!info.ranked || row.cells[baseline].state != CellState::kMeasured) return;
  const double base = row.cells[baseline].summary.mean;
  for (Cell& c : row.cells) {
    if (c.state != CellState::kMeasured) continue;
    c.ratio = info.higher_is_better ? c.summary.mean / base : base / c.summary.mean;
  }
}

Result<std::size_t> find_baseline(const std::vector<std::string>& columns, const std::string& wanted, CompareBy by) {
  if (wanted.empty()) return 0;
  const std::string w = to_lower(wanted);
  std::vector<std::size_t> partial;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string c = to_lower(columns[i]);
    if (c == w) return i;
    if (c.find(w) != std::string::npos) partial.push_back(i);
  }
  if (partial.size() == 1) return partial.front();
  return fail(ErrorCode::kUsage, "--baseline '" + wanted + "': " + (partial.empty() ? "no " : "several ") +
                                     compare_by_name(by) + "s match (" + join(columns, ", ") + ")");
}

}  // namespace rigbench::report
