// rigbench: a comparison's rows and their cells (report/comparison.h): what one row and one
// cell hold, and how a cell is made from the configurations its column ran (each column at its
// best). Pure functions on values; nothing here keeps a reference to the records.
#pragma once

#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/significance.h"
#include "core/stats.h"
#include "report/compare_by.h"
#include "report/compare_metric.h"
#include "report/knob_settings.h"
#include "report/pooled_values.h"

namespace rigbench::report {

enum class CellState {
  kMissing,   // no record of this row in this column
  kMeasured,  // samples below
  kWontFit,   // the run was refused for memory (RunRecord::refused)
};

struct Cell {
  CellState state = CellState::kMissing;
  std::vector<double> samples;  // the values (MetricValues::samples) of the configuration shown
  Summary summary;              // statistics of `samples` (PooledValues::summary)
  bool summary_only = false;    // a source of the configuration shown kept statistics, not samples
  std::string config;  // that configuration's knobs, e.g. "t=8 ngl=99 lm=auto fa=on ctk=f16 ctv=f16 b=2048 ub=512"
  std::string knobs;   // the knobs of that configuration alone (knobs_label): `config` less build and machine
  KnobSettings knob_settings;  // the same knobs, each with its value (knob_settings)
  std::size_t n_configs = 0;   // configurations run in this cell (the best one is shown)
  // Energy and cost: the energy flags (EnergyInfo::flags: below_update_period, coarse,
  // sources_disagree, gap, idle_above_active, idle_stated) of the runs shown, sorted, each once.
  std::vector<std::string> energy_flags;
  double ratio = std::nan("");  // against the baseline column, > 1 = better; NaN when not ranked or absent
  // The noise notes of the runs shown (PooledValues::noise, noise_more) and their strictest
  // interval target (ci_target_pct; NaN when none stated one): the interval itself is
  // cell_interval(), from `summary`.
  std::vector<NoiseNote> noise;
  std::size_t noise_more = 0;
  double ci_target_pct = std::nan("");
};

// The 95 % interval of a cell's mean (core/significance.h mean_interval over its pooled
// samples, or the n, mean and sd a summary-only source stated), for the metrics measured per
// repetition (pp, tg, TTFT); nullopt for the others, a cell that is not measured, or n < 2.
std::optional<MeanInterval> cell_interval(Metric metric, const Cell& cell);

// The codes of a cell's noise notes (Cell::noise: "outliers", "steal"), each once, sorted (one
// order in every cell and answer); empty when it has none.
std::vector<std::string> noise_codes(const Cell& cell);

struct Row {
  // Labels of the two identities that are not the columns ("" for the column identity).
  std::string machine, model, build;
  // By build: the knobs every cell of the row ran (knobs_label); "" by machine, model or backend.
  std::string knobs;
  KnobSettings knob_settings;  // by build: the same knobs, each with its value; empty otherwise
  // By build, where the rows hold several configurations: the row's knobs among those that
  // differ between the rows ("n_cpu_moe=30"; a knob knobs_label leaves out at its default is
  // named at it: "n_cpu_moe=0"), what tells the row from the others; "" otherwise.
  std::string knobs_shown;
  // By machine, model or backend: the measured cells of the row show configurations of
  // different knobs (each column at its best; Cell::config without its build and machine).
  bool knobs_differ = false;
  Metric metric = Metric::kPp;
  std::string test;         // as MetricValues::test
  std::string server;       // as MetricValues::server: a served row's server, the end of `test`; "" otherwise
  int n = 0;                // as MetricValues::n: the test's tokens, n_ctx (memory), queries (embedding latency)
  std::vector<Cell> cells;  // one per Comparison::columns
  int winner = -1;          // index of the winning column; -1 when there is none
  // Welch's two-sided p-value of the best mean against the runner-up (rank_row); NaN when
  // untested or when fewer than two cells are measured.
  double p = std::nan("");
  // "" (a winner, or nothing ranked), "no clear winner" (p >= alpha), "inconclusive: noisy runs"
  // (test_cells in report/row_ranking.h), "untested", "single result", "sizes differ"
  std::string verdict;
};

// One configuration of a cell: its knobs (knobs_label, knob_settings) and its values.
struct ConfigValues {
  std::string knobs;
  KnobSettings knob_settings;
  PooledValues values;
};
// The configurations one column of a row ran: configuration (Cell::config) -> its values.
using CellConfigs = std::map<std::string, ConfigValues>;

// The configuration key of a run that was refused for memory (no samples).
inline constexpr const char* kRefusedConfig = "\x01refused";

// The cell of one column of a row from the configurations it ran (`configs`, empty when the
// column has no record of the row): kWontFit when its one configuration is kRefusedConfig; else
// the configuration with the best mean for `info` (highest t/s, lowest ms, J, cost or bytes;
// the first in key order on a tie), its values and statistics, and how many configurations
// ran (kRefusedConfig counted). Its ratio is left NaN (set_ratios, report/row_ranking.h).
Cell make_cell(const CellConfigs& configs, const MetricInfo& info);

// Whether the measured cells of a row show configurations of different knobs (Row::knobs_differ),
// leaving out the knobs the column's identity implies: by backend, -ngl (where the layers ran)
// is the column, not a difference of setup.
bool knobs_differ(const Row& row, CompareBy by);

// Row::knobs_shown: each row's knobs among those that differ between the rows, in the order
// knobs_label first names them; a knob knobs_label leaves out at its default is named at that
// default (every row has every knob), a source's setting a row lacks as "-".
void set_knobs_shown(std::vector<Row>& rows);

}  // namespace rigbench::report
