// rigbench: printers of a comparison and its regressions (`rigbench compare -o ...`).
//   md     the table (one column per machine, model or build), then the regressions table
//   csv    one line per cell (long form, for spreadsheets and plotting); no regressions
// md and csv are report/table.h tables (compare_table, compare_cells_table, regressions_table).
//   json   {by, baseline, alpha, columns, rows[{..., cells[...]}], regressions[...]}
//   jsonl  one object per cell ("kind": "cell") and per regression ("kind": "regression")
// Numbers in csv/json are plain (shortest form that reads back); NaN is empty / null.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/comparison.h"
#include "report/regressions.h"
#include "report/reversals.h"
#include "report/served_overhead.h"
#include "report/stored_capacity.h"
#include "report/table.h"

namespace rigbench::report {

// A cell for people: "1234.56 ± 12.30" (t/s, ms), "0.005013" (J/token, cost: 4 significant
// digits), "1.13 MiB" (memory), "does not fit", "-"; a distribution (is_distribution) by its
// median and tail: "p50 7.81 · p99 9.02" (ITL), "p50 · p95" (suites), "p50 · p95 · p99"
// (embedding latency).
std::string cell_text(Metric metric, const Cell& cell);

// A measured cell's four percentiles, "p50 11.50 · p90 12.70 · p95 12.85 · p99 12.97" (the
// HTML report's cells for a distribution: it has no 120-column limit); cell_text otherwise.
std::string percentiles_text(Metric metric, const Cell& cell);

// Whether a metric's cells show percentiles (and its chart the median) rather than mean ± sd:
// ITL, the suites' medians, embedding latency. Its rows are still ranked on the means.
bool is_distribution(Metric metric);

// What an energy flag (EnergyInfo::flags) says of the figures, in a few words (docs/energy.md).
std::string energy_flag_meaning(const std::string& flag);

// The energy flags of a cell for people: " [coarse, gap]"; "" when it has none.
std::string flags_text(const Cell& cell);

// A note explaining each energy flag that `flags` holds: "energy flags: coarse = ...; gap = ...";
// "" when none.
std::string energy_flags_note(const std::vector<std::string>& flags);

// The 95 % interval of a cell's mean for people (cell_interval), as ± % of the mean:
// " (±1.2 %)"; "" where there is none (a metric not measured per repetition, n < 2).
std::string interval_text(Metric metric, const Cell& cell);

// The noise notes of a cell for people: " [noise: machine_busy, high_cv]" (the codes, each
// once); "" when it has none.
std::string noise_text(const Cell& cell);

// A row's test with its unit ("pp512 t/s", "memory n_ctx 640"); a served row's server, the end
// of its test, is replaced by its tag in `servers` (comparison.h tagged_test: "tg16 @ c4 · S1
// t/s") where `servers` holds it, and kept whole otherwise.
std::string row_test_text(const Row& row, const std::vector<std::string>& servers = {});

// Every cell's noise notes: "<model> · <machine> · <test>, <column>: <note>; <remedy>" (the
// row's labels that are not the columns; the test as row_test_text with `servers`). A note is
// said once for a run: the rows of one run (a served run's pp, TTFT, tg and ITL rows) with the
// same labels and column say it on the first of them alone. One kind of note (code and remedy)
// seen more than once in a column (several rows, or two pooled runs' in one cell) is one line:
// "<column>, N rows (<where>; <where>): K notes, the first: <its note> (-o json: each); <remedy>". Then "... and N
// more" for each cell past its kMaxCellNoise. Empty when no cell has any. `only`: the rows of that metric alone.
std::vector<std::string> noise_lines(const Comparison& cmp, std::optional<Metric> only = std::nullopt,
                                     const std::vector<std::string>& servers = {});

// The winner column of a row: the winning column, else its verdict ("no clear winner", "single
// result", ""); with " (knobs differ)" where Row::knobs_differ.
std::string winner_text(const Comparison& cmp, const Row& row);

// What "(knobs differ)" means, for under a table; "" when no row of `cmp` has it.
std::string knobs_differ_note(const Comparison& cmp);

// " (best of N)" after a cell that ran N > 1 configurations (Cell::n_configs), with the knobs of
// the one shown when `with_knobs` (" (best of 3: t=4 ngl=99 ...)"); "" for one configuration.
std::string best_of_text(const Cell& cell, bool with_knobs);
// What "(best of N)" means, for under a table.
std::string best_of_note();

// A ratio for people: "×1.52"; "" for NaN.
std::string ratio_text(double ratio);

// A cell of column `column` of `row` in pieces, each kept whole where a cell wraps (md's wrap
// columns, the HTML report's cells): `figure` (cell_text or percentiles_text) cut after each
// " · " (a distribution's percentiles), its interval (interval_text), its ratio to the baseline,
// which configuration it is (best_of_text), its energy flags and noise codes each cut after
// ", " and after "[noise:". In md (not `for_html`) a mean is cut before its "± sd". `for_html`
// (the report's cell): the best-of names its knobs, cut at their spaces. `figure_pieces`: how
// many of the first pieces are the figure.
struct CellPieces {
  std::vector<std::string> pieces;
  std::size_t figure_pieces = 0;
};
CellPieces cell_pieces(const Comparison& cmp, const Row& row, std::size_t column, const std::string& figure,
                       bool for_html);

// The md table: label columns, test, one column per compared identity (right-aligned; the
// winner in bold, ×ratio against the baseline), winner; the preamble says what cells mean.
Table compare_table(const Comparison& cmp);
// The same with the columns `shown` alone (indices into cmp.columns, in this order; empty: all),
// and only the rows where one of them has a record (measured or does not fit); the winner column
// is still of every column.
Table compare_table(const Comparison& cmp, const std::vector<std::size_t>& shown);
// The long form: one row per cell (what csv writes).
Table compare_cells_table(const Comparison& cmp);
// One row per regression tested.
Table regressions_table(const std::vector<Regression>& regressions);

// What compare says beside its table, each where the data holds it.
struct CompareExtras {
  // report/reversals.h: md prints their sentences above the table and their rankings and pairs
  // below the regressions; json "answers": [...].
  std::vector<Answers> answers;
  // report/stored_capacity.h: md prints its lines after the answers' sentences; json
  // "capacity": [{"machine", "model", "server", "workload", "sweep", "capacity", "answer", "test_time"}].
  std::vector<StoredCapacity> capacity;
  // report/served_overhead.h: md its table last; json "served_overhead" (served_overhead_json).
  std::vector<ServedOverhead> served;
};

// Writes `cmp` and `regressions` (tested at `alpha`) to `out` in `format`, with `extras`
// (csv and jsonl leave them out).
void print_comparison(const Comparison& cmp, const std::vector<Regression>& regressions, double alpha,
                      OutputFormat format, std::ostream& out, const CompareExtras& extras = {});

}  // namespace rigbench::report
