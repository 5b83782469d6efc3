// rigbench: the answers a comparison holds, as sentences (`rigbench compare`, the HTML report).
//
// compare's table names one winner per row; a reversal between two columns that never win
// (the first study's RX 6600 XT, 80 % ahead of the M2 Pro on Llama 3.1 8B and 14 % behind it
// on Phi-3 mini, while the RTX 2080 Ti wins every row) shows there only through ratios. Here,
// for one metric (pp or tg t/s, higher is better; TTFT ms, J per generated token, cost per
// Mtok, lower is better: answers_metric):
//   - every pair of columns (machines, models, builds or backends, as compare's --by): on each
//     row both ran, which is ahead (the better mean), by how much (the ratio of means less 1,
//     from the first column's view: +80 % t/s, or −30 % ms, J or cost) and whether the difference is significant:
//     Welch's t-test, two-sided, at `alpha` (core/significance.h, the test compare's regressions use), on the cells'
//     per-sample values, or on their statistics for a summary-only source. A row where one column's run was refused for
//     memory and the other ran counts as "alone runs it" for the one that ran.
//   - per row, a ranking: the measured columns by mean, best first, then those that did not fit;
//     the leader is "clear" exactly where compare's table names the row's winner (rank_row in
//     report/row_ranking.h: the same test at the same alpha), or only it ran.
//   - an answer that rests on cells with noise notes says so: "(+40 %, significant; noisy
//     runs: outliers, steal)"; where a note disturbs a whole run (steal, machine_busy, ...) and
//     the lead is within kDisturbedLeadRatio, the lead is "inconclusive" rather than
//     significant (test_cells in report/row_ranking.h, the table's rule too).
//   - a headline: "<X> is fastest on every <item> (...)" when one column leads every ranked row
//     clearly; else "No universal winner: ..." naming each row's leader, and where no row has a
//     clear leader "No clear leader: the lead over the runner-up is within noise on <item> (<X>
//     +1 % over <Y>, not significant)". What the headline calls within noise is that lead only:
//     a third column may be significantly behind, and its pair line says so without
//     contradicting it.
//   - per pair, a sentence (among Answers::sentences unless two columns have a universal winner,
//     whose headline says it): "RX 6600 XT is faster than M2 Pro on Llama 3.1 8B Q4_K_M (+80 %,
//     significant) and Qwen2.5 7B Q4_K_M (+65 %, significant), and slower on Phi-3 mini Q4_K_M
//     (−14 %, significant): no universal winner between them." A difference the test does not
//     hold up (tested: an untested one keeps its words, "untested") is never called faster or slower: "...; no clear
//     difference on m1 F32 (a +0.5 %, not significant)", or "a and b show no clear difference on ..." alone. A pair is
//     a reversal when each side is significantly ahead somewhere. Other metrics speak their own words: "has a shorter
//     TTFT than ... and a longer one on", "uses less energy per token than ... and more on", "costs less per Mtok than
//     ... and more on"; the headline "has the shortest TTFT", "uses the least energy per token", "costs least per
//     Mtok".
// An "item" is what a row is about besides the metric: the model for --by machine or build,
// the machine for --by model; with the test ("tg128") and the other identity added only when
// the rows differ in them, and by build the knobs that differ between rows (Row::knobs_shown:
// "Qwen3 30B Q4_K_M (n_cpu_moe=30)"). By build a row holds one configuration, so no answer
// compares builds that ran different knobs. Pure: no I/O.
#pragma once

#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "report/comparison.h"
#include "report/table.h"

namespace rigbench::report {

// Where a pair stands on one item.
enum class PairSide {
  kAAhead,  // a's mean is higher (significant or not: see PairItem::significant)
  kBAhead,
  kEqual,  // equal means
  kAOnly,  // b's run was refused for memory, a ran
  kBOnly,
};

struct PairItem {
  std::string item;     // "Llama 3.1 8B Q4_K_M" (with " tg128" when the rows hold several tests)
  std::size_t row = 0;  // index into Comparison::rows
  PairSide side = PairSide::kEqual;
  double mean_a = std::nan(""), mean_b = std::nan("");  // in the metric's unit; NaN for a side that did not fit
  double change = std::nan("");  // mean_a / mean_b - 1 (t/s: > 0 = a ahead; ms, J, cost: < 0); NaN for kAOnly/kBOnly
  double p = std::nan("");   // two-sided Welch p-value; NaN when untested (fewer than 2 samples a side)
  bool significant =
      false;  // test_cells (report/row_ranking.h); true for kAOnly/kBOnly (one side cannot run it at all)
  bool inconclusive = false;  // p < alpha, held back by a disturbed run (CellsTest::inconclusive)
  // The noise codes (report::noise_codes) of the two cells, each once: an answer resting on
  // noisy runs says so ("+15 %, significant; noisy runs: outliers, steal").
  std::vector<std::string> noise;
};

struct PairAnswer {
  std::size_t a = 0, b = 0;      // column indices; a is the one ahead on more items (ties: on the larger lead)
  std::vector<PairItem> items;   // rows both columns hold (measured or refused), a's leads first, largest first
  int a_ahead = 0, b_ahead = 0;  // items each is significantly ahead on (kAOnly/kBOnly included)
  bool reversal = false;         // a_ahead > 0 && b_ahead > 0: no universal winner between them
  std::string sentence;
};

struct RankEntry {
  std::size_t column = 0;
  double mean = std::nan("");  // in the metric's unit; NaN when the run did not fit
  bool fits = true;            // false: the run was refused for memory
};

struct RankingAnswer {
  std::string item;
  std::size_t row = 0;
  std::vector<RankEntry> order;  // measured columns best first, then those that did not fit
  bool clear = false;            // the leader is significantly ahead of the runner-up, or alone ran it
  double p = std::nan("");       // the row's p-value (Row::p), leader vs runner-up; NaN when untested or alone
  bool inconclusive = false;     // the row's verdict is "inconclusive: noisy runs" (rank_row)
  std::vector<std::string> noise;  // the noise codes of the leader's and the runner-up's cells, each once
};

struct Answers {
  Metric metric = Metric::kTg;
  double alpha = 0.05;
  std::string unit_test;  // "tg128 t/s", "TTFT pp512 ms" when every row has one test, else "tg t/s", "TTFT ms"
  // What every item shares and the sentences say once, in the header rather than in each item:
  // "synthetic v2, seed 42" when every item's model is the same synthetic file (its label's
  // " (synthetic v2, seed 42)", left out of the items); "" otherwise (beside real models each
  // synthetic item says " (synthetic)" instead of its recipe and seed).
  std::string items_note;
  std::vector<PairAnswer> pairs;        // every pair of columns with an item in common, in column order
  std::vector<RankingAnswer> rankings;  // rows of `metric` with two or more contestants
  int universal_winner = -1;            // column index, or -1
  std::string headline;
  // Items that fit no column that tried them ("does not fit" is an answer too): one sentence
  // each, "Llama 70B Q3_K_S does not fit on rig-a or rig-c (no run of it fits).", after the
  // headline.
  std::vector<std::string> fits_nowhere;
  // headline, then fits_nowhere, then each reversal's sentence, then the other pairs' sentences
  std::vector<std::string> sentences;
};

// The metrics with answers: pp, tg, TTFT, J per tg token, cost per Mtok (not memory, whose
// less is not better, nor ITL and suites, one value per token or prompt).
bool answers_metric(Metric metric);
// Those metrics in the order compare and the report state them: tg, pp, TTFT, J/token, cost.
std::span<const Metric> answer_metrics();

// The answers of `cmp` for `metric` (answers_metric; others give no pairs), tested at the
// comparison's alpha (Comparison::alpha, the level its rows' winners were decided at: a
// ranking's leader is clear exactly where the table names the row's winner).
// Empty (no pairs, no rankings, no sentences) when fewer than two columns share a row. Energy
// and cost hold one value per run: with one run a side, their differences are "untested".
Answers find_answers(const Comparison& cmp, Metric metric);

// A change for people: "+80 %", "−14 %" (U+2212 minus), "+0.4 %" below 1 %.
std::string change_text(double change);

// One row per pair and item: a, b, item, a t/s, b t/s, change, p, verdict ("a ahead",
// "b ahead", "not significant", "inconclusive", "untested", "even", "only a fits", "only b fits").
Table pairs_table(const Comparison& cmp, const Answers& answers);
// One row per ranked item: item, ranking ("RTX 2080 Ti 59.90 > RX 6600 XT 20.90 > M2 Pro 11.60"),
// leader, clear.
Table rankings_table(const Comparison& cmp, const Answers& answers);

// json: {"metric", "unit_test", "items_note", "alpha", "headline", "sentences", "universal_winner" (label or
// null), "pairs": [{"a", "b", "reversal", "a_ahead", "b_ahead", "sentence", "items": [{"item",
// "side" ("a", "b", "equal", "a only", "b only"), "a_tps", "b_tps", "change", "p", "significant", "inconclusive",
// "noise"}]}], "rankings": [{"item", "order": [{"column", "mean_tps", "fits"}], "clear", "p", "noise"}]}; the figures'
// keys carry the metric's unit: _tps (pp, tg), _ms (TTFT), _j_per_token, _per_mtok (cost).
nlohmann::ordered_json answers_json(const Comparison& cmp, const Answers& answers);

// md: "Answers (tg128 t/s; models: synthetic v2, seed 42; significant: Welch's t-test, two-sided,
// alpha 0.05):" (the models part only with Answers::items_note) and the sentences, one a line.
void print_answer_sentences(const std::vector<Answers>& answers, std::ostream& out);
// md: the pairs and rankings tables of each Answers with pairs.
void print_answer_tables(const Comparison& cmp, const std::vector<Answers>& answers, std::ostream& out);

}  // namespace rigbench::report
