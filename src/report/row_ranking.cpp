#include "report/row_ranking.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "core/noise_note.h"
#include "core/significance.h"
#include "core/strings.h"

namespace rigbench::report {

double welch_p(const Cell& a, const Cell& b) {
  std::optional<WelchTest> t;
  if (!a.summary_only && !b.summary_only) t = welch_t_test(a.samples, b.samples);
  else t = welch_t_test(a.summary, b.summary);
  return t ? t->p_two_sided : std::nan("");
}

namespace {

// Each query's mean over the passes a cell's values hold (query q at index q mod n); nullopt
// when they are not whole passes over n >= 2 queries.
std::optional<std::vector<double>> per_query_means(const Cell& c, int n) {
  if (n < 2 || c.summary_only || c.samples.empty() || c.samples.size() % static_cast<std::size_t>(n) != 0)
    return std::nullopt;
  std::vector<double> sum(static_cast<std::size_t>(n), 0.0);
  for (std::size_t i = 0; i < c.samples.size(); ++i) sum[i % sum.size()] += c.samples[i];
  const double passes = static_cast<double>(c.samples.size() / sum.size());
  for (double& s : sum) s /= passes;
  return sum;
}

}  // namespace

double cells_p(const Row& row, const Cell& a, const Cell& b) {
  if (row.metric == Metric::kEmbedLatency) {
    const auto qa = per_query_means(a, row.n), qb = per_query_means(b, row.n);
    if (qa && qb) {
      const auto t = paired_t_test(*qa, *qb);
      return t ? t->p_two_sided : std::nan("");
    }
  }
  return welch_p(a, b);
}

CellsTest test_cells(const Row& row, const Cell& a, const Cell& b, double alpha) {
  CellsTest t;
  t.p = cells_p(row, a, b);
  for (const Cell* c : {&a, &b}) {
    for (const std::string& code : noise_codes(*c)) {
      if (disturbs_run(code) && std::find(t.disturbed.begin(), t.disturbed.end(), code) == t.disturbed.end())
        t.disturbed.push_back(code);
    }
  }
  const double ma = a.summary.mean, mb = b.summary.mean;
  if (!(std::isfinite(t.p) && t.p < alpha) || ma == mb) return t;
  const double ratio = ma > mb ? ma / mb : mb / ma;
  t.inconclusive = !t.disturbed.empty() && !(ratio > kDisturbedLeadRatio);
  t.significant = !t.inconclusive;
  return t;
}

void rank_row(Row& row, const MetricInfo& info, double alpha) {
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
    const Cell& best = row.cells[measured[0]];
    const Cell& next = row.cells[measured[1]];
    const CellsTest t = test_cells(row, best, next, alpha);
    row.p = t.p;
    if (std::isnan(row.p)) {
      row.verdict = "untested";
      return;
    }
    if (t.inconclusive) {
      row.verdict = kInconclusiveVerdict;
      return;
    }
    if (!t.significant) {
      row.verdict = "no clear winner";
      return;
    }
  }
  row.winner = measured[0];
}

void keep_to_one_size(Row& row, const std::vector<uint64_t>& column_n_params) {
  std::set<uint64_t> sizes;
  for (std::size_t c = 0; c < row.cells.size(); ++c) {
    if (row.cells[c].state == CellState::kMeasured) sizes.insert(column_n_params[c]);
  }
  if (sizes.size() < 2 || (row.winner < 0 && row.verdict.empty())) return;  // one size, or not ranked
  row.winner = -1;
  row.p = std::nan("");
  row.verdict = "sizes differ";
}

void set_ratios(Row& row, const MetricInfo& info, std::size_t baseline) {
  if (!info.ranked || row.cells[baseline].state != CellState::kMeasured) return;
  const double base = row.cells[baseline].summary.mean;
  for (Cell& c : row.cells) {
    if (c.state != CellState::kMeasured) continue;
    c.ratio = info.higher_is_better ? c.summary.mean / base : base / c.summary.mean;
  }
}

std::size_t default_baseline(const std::vector<Row>& rows, std::size_t n_columns) {
  for (std::size_t c = 0; c < n_columns; ++c) {
    for (const Row& row : rows) {
      if (metric_info(row.metric).ranked && c < row.cells.size() && row.cells[c].state == CellState::kMeasured) return c;
    }
  }
  return 0;
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
