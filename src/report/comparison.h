// rigbench: records side by side, the table behind `rigbench compare` and the HTML report.
//
// Every record is seen along three identities: the machine it ran on, the model, and the
// build (the tool and llama.cpp commit). One of them gives the columns (`--by`); the other
// two, with the test, give the rows. `--by backend` makes the columns the backend the run
// used (backend_identity: CPU, CUDA, Vulkan, Metal) and the rows the model (and build), as
// --by machine does; each machine a backend ran on is one configuration of its cell (the best
// is shown and named, "machine=..."), so the first study's Metal, CUDA and Vulkan machines
// compare as backends, and CPU and GPU runs of one machine (bench -ngl 0,99) sit side by side;
// --machine keeps the comparison to one machine. A row holds one metric of one test: pp512 t/s, tg128
// t/s, TTFT of pp512 in ms (each " @ d<N>" at a depth; a -pg test's phases named apart,
// "tg128 (pg)", core/test_name.h), J per generated token, electricity
// cost per million generated tokens, or the memory llama.cpp allocated at an n_ctx. Energy
// rows hold the tg phase's joules per token (RunRecord::energy.tg), cost rows the gross
// electricity cost (RunRecord::cost), one value per run and only where a run measured them;
// a figure that was stated (--watts) or estimated rather than read from a meter gets its
// own row ("tg128 (stated)"), so it never ranks against a measurement. A cell pools the
// values of every record of that row and column that ran the same knobs (threads, ngl, fa,
// KV types, batch sizes, n_cpu_moe, ...: knobs_label; with the build, and by backend the
// machine); configurations are never pooled.
//
// Which configurations a row ranks against each other depends on what the columns are:
//   - by machine, model or backend: each column at its best. When a column ran several
//     configurations in a row, its cell shows the best of them for that row's metric
//     (highest mean t/s, lowest mean ms, J, cost or bytes; so a machine's pp and tg rows may
//     show different configurations) and says which (Cell::config, n_configs). Where the
//     cells of a row show different knobs, Row::knobs_differ says so.
//   - by machine, model or backend where more than one tool measured (rigbench and imported
//     llama-bench rows): the tool goes with the column ("vm · llama-bench", "vm · rigbench
//     0.1.0") and the row's build is the llama.cpp commit alone ("llama.cpp 80fb11ac"), so the
//     two tools' runs of one commit, model and test line up side by side in one row, each
//     under its own name. With one tool the columns are the identities alone.
//   - by machine, where one machine's records come from builds of several backends (a CPU and
//     a Vulkan build; Metal,BLAS and Metal): a column per build, named by its backends
//     ("box-a (Vulkan)", "box-a (CPU)"), in the same rows as the other machines (the row's build
//     is the tool and commit alone: RecordIdentities::Entry::sources_build).
//   - by build: like for like, as the regressions (report/regressions.h): the knobs are part
//     of the row (Row::knobs), so a row holds one configuration and its builds differ in the
//     build alone. Builds that never ran the same knobs share no row: no winner, ratio or
//     answer (report/reversals.h) compares them.
//
// The winner of a row is the column with the best mean when Welch's two-sided t-test of it
// against the runner-up gives p < alpha (CompareOptions::alpha, compare's --alpha; rank_row in
// report/row_ranking.h): the one rule the table, its json and the answers (report/reversals.h)
// share. p >= alpha is "no clear winner"; a lead under a noise note that disturbs a whole run
// (steal, machine_busy, thermal_throttle, governor, drift) is "inconclusive: noisy runs" unless
// it exceeds kDisturbedLeadRatio (test_cells); a pair the test cannot take (one value a side, a
// summary-only source without stddev) "untested". Summary-only results
// (llama-bench csv and sql) enter with the mean and standard deviation their file states. A
// column whose run was refused for memory counts as a loser ("won't fit"); a column with
// no run does not count. Ratios are against the baseline column (unless chosen, the first
// one with a measured result: default_baseline), oriented so that > 1 is better than the baseline (t/s: cell /
// baseline; ms, J, cost: baseline / cell). Memory rows have no winner and no ratio: less memory is not better. By
// model, models of different parameter counts are not ranked against each other unless asked (--across-sizes): a row
// whose measured models differ in size has no winner ("sizes differ"), a ratio only against a baseline of the cell's
// size, and no answer between them (a 260K-parameter model is not "faster than" a 7B one: it does less).
//
// A refused run (RunRecord::refused, stored by `rigbench bench` when fit says the model will
// not fit the machine) marks its pp and tg cells "won't fit" unless the column also ran them.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/significance.h"
#include "core/status.h"
// The parts, each in a file of its own and all included here for the printers and commands:
#include "report/compare_by.h"         // what the columns are (--by)
#include "report/compare_metric.h"     // the metrics rows are of
#include "report/comparison_row.h"     // rows and their cells, each column at its best
#include "report/identities.h"         // machine, model, build, tool, commit, backend
#include "report/knob_settings.h"      // the knobs that keep runs apart, and their label
#include "report/metric_values.h"      // what one record gives a metric, and the test it names
#include "report/pooled_values.h"      // the values of several records, pooled
#include "report/record_identities.h"  // the identities of a set of records, once per setup
#include "report/row_ranking.h"        // winner, verdict, ratios, --baseline

namespace rigbench::report {

struct Comparison {
  CompareBy by = CompareBy::kMachine;
  double alpha = kDefaultAlpha;      // the significance level every winner of the rows was decided at
  std::vector<std::string> columns;  // labels of the column identity, sorted, unique
  std::size_t baseline = 0;          // index into columns
  std::vector<Row> rows;             // sorted by the row labels, then metric, then test
  // By machine or model: the rows hold more than one build, so each row says which (Row::build);
  // else the one build is the same in every row and is not shown.
  bool several_builds = false;
  // By build: the rows hold more than one configuration, so each row says which (Row::knobs_shown).
  bool several_knobs = false;
  // By model: each column's parameter count (ModelInfo::n_params; 0 when the records do not
  // state it), where models of different counts are not ranked against each other
  // (CompareOptions::across_sizes false); empty otherwise: every pair of columns compares.
  std::vector<uint64_t> column_n_params;
  // One line per machine or model label with " (2)", " (3)", ...: what tells it apart from the
  // one that has the name ("rig3090 (2): another machine named rig3090, told apart by its CPU
  // (AMD Ryzen 9 5950X; rig3090: AMD EPYC 7763)").
  std::vector<std::string> same_name_notes;
};

struct CompareOptions {
  CompareBy by = CompareBy::kMachine;  // --by: machine, model, build or backend
  std::string baseline;  // --baseline: a column label (case-insensitive), or a unique part of one; "" = default_baseline
  // --across-sizes: by model, rank models of different parameter counts against each other
  // (the question "which model is fastest here"); by default a row names a winner, a ratio and
  // an answer only between models of one parameter count (quantizations of one model).
  bool across_sizes = false;
  double alpha = kDefaultAlpha;  // --alpha: the significance level of a row's winner (Welch's t-test, two-sided)
};

// Whether columns a and b of `cmp` are ranked against each other: false only by model, for two
// models of different parameter counts (Comparison::column_n_params).
bool comparable_columns(const Comparison& cmp, std::size_t a, std::size_t b);

// The servers of a comparison's served rows (Row::server), each once, in the order of the rows;
// their legend tags are "S1", "S2", ... in this order. Empty when no row is a served run's.
std::vector<std::string> row_servers(const Comparison& cmp);

// A row's test with its server, the end of a served row's test, replaced by its tag in
// `servers` (row_servers): "tg16 @ c4 · S1" for "tg16 @ c4 llama.cpp b1-80fb11ac
// openai-completions http://127.0.0.1:8080"; the test whole otherwise. Every printer of a row
// (the table, its noise notes, the answers, rankings and pairs) names a server so.
std::string tagged_test(const Row& row, const std::vector<std::string>& servers);

// The legend line of servers[i]: "S1: the server llama.cpp b1-80fb11ac openai-completions
// http://127.0.0.1:8080 (serve-bench; @ cN: N requests in flight)".
std::string server_legend(const std::vector<std::string>& servers, std::size_t i);

// The comparison of `records`. Errors: kUsage when --baseline matches no column or several
// (naming them); kInvalidInput when there are no records.
Result<Comparison> compare(std::span<const RunRecord> records, const CompareOptions& options);
// The same with the records' identities made already (RecordIdentities(records)), which a
// caller that also finds regressions or draws a report makes once.
Result<Comparison> compare(std::span<const RunRecord> records, const CompareOptions& options,
                           const RecordIdentities& ids);

}  // namespace rigbench::report
