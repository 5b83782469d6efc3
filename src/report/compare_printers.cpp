#include "report/compare_printers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

#include "core/noise_note.h"
#include "core/strings.h"
#include "report/escape.h"
#include "report/identities.h"
#include "report/row_ranking.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

using Json = nlohmann::ordered_json;

// Shortest decimal form that reads back as the same double; "" for NaN or inf.
std::string full(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string state_name(CellState s) {
  switch (s) {
    case CellState::kMeasured: return "measured";
    case CellState::kWontFit: return "does not fit";
    case CellState::kMissing: break;
  }
  return "missing";
}

// The row-label columns: the identities that are not the columns; the build only where the
// rows hold several (else one build is every row's).
std::vector<std::pair<std::string, std::string Row::*>> label_columns(const Comparison& cmp) {
  std::vector<std::pair<std::string, std::string Row::*>> cols;
  switch (cmp.by) {
    case CompareBy::kMachine:
    case CompareBy::kBackend: cols = {{"model", &Row::model}}; break;
    case CompareBy::kModel: cols = {{"machine", &Row::machine}}; break;
    case CompareBy::kBuild: cols = {{"model", &Row::model}, {"machine", &Row::machine}}; break;
  }
  if (cmp.several_knobs) cols.push_back({"knobs", &Row::knobs_shown});
  if (cmp.several_builds) cols.push_back({"build", &Row::build});
  return cols;
}

std::string test_with_unit(const Row& row, const std::string& test) {
  if (row.metric == Metric::kMemory) return test.empty() ? "memory" : "memory " + test;
  return test + " " + metric_info(row.metric).unit;
}

// A cell's noise codes, each once, in order of first appearance.
std::string noise_codes_text(const Cell& cell, const char* sep = ";") { return join(noise_codes(cell), sep); }

Json cell_json(const Comparison& cmp, Metric metric, std::size_t i, const Cell& c) {
  Json j = {{"column", cmp.columns[i]}, {"state", state_name(c.state)}};
  if (c.state == CellState::kMeasured) {
    j["n"] = c.summary.n;
    j["mean"] = json_number(c.summary.mean);
    j["stddev"] = json_number(c.summary.stddev);
    j["median"] = json_number(c.summary.median);
    j["p90"] = json_number(c.summary.p90);
    j["p95"] = json_number(c.summary.p95);
    j["p99"] = json_number(c.summary.p99);
    j["min"] = json_number(c.summary.min);
    j["max"] = json_number(c.summary.max);
    if (c.summary_only) j["summary_only"] = true;  // statistics stated by the source, no samples
    j["ratio"] = json_number(c.ratio);
    j["config"] = c.config;
    j["n_configs"] = c.n_configs;
    const auto ci = cell_interval(metric, c);
    j["ci95_low"] = ci ? json_number(ci->low) : Json(nullptr);
    j["ci95_high"] = ci ? json_number(ci->high) : Json(nullptr);
    j["ci95_pct"] = ci ? json_number(ci->half_width_pct) : Json(nullptr);
    j["ci_target_pct"] = json_number(c.ci_target_pct);
    j["ci_reached"] = ci && std::isfinite(c.ci_target_pct) ? Json(ci->half_width_pct <= c.ci_target_pct) : Json(nullptr);
    Json noise = Json::array();
    for (const NoiseNote& n : c.noise)
      noise.push_back({{"code", n.code}, {"phase", n.phase}, {"note", n.text}, {"remedy", n.remedy}});
    j["noise"] = std::move(noise);
    if (c.noise_more > 0) j["noise_more"] = c.noise_more;
  }
  if (c.state == CellState::kMeasured && !metric_info(metric).per_repetition && metric != Metric::kMemory)
    j["energy_flags"] = c.energy_flags;  // J/token and cost: the doubts about the energy they come from
  return j;
}

Json row_json(const Comparison& cmp, const Row& row) {
  Json j;
  for (const auto& [name, field] : label_columns(cmp)) j[name] = row.*field;
  j["metric"] = metric_info(row.metric).key;
  j["unit"] = metric_info(row.metric).unit;
  j["test"] = row.test;
  if (!row.server.empty()) j["server"] = row.server;  // the end of `test`
  j["winner"] = row.winner >= 0 ? Json(cmp.columns[row.winner]) : Json(nullptr);
  j["verdict"] = row.verdict;
  j["p"] = json_number(row.p);  // Welch, two-sided: the best against the runner-up
  if (cmp.by == CompareBy::kBuild) j["config"] = row.knobs;  // every cell's
  else j["knobs_differ"] = row.knobs_differ;
  return j;
}

Json regression_json(const Regression& r) {
  auto summary = [](const Summary& s) { return Json{{"n", s.n}, {"mean", s.mean}, {"stddev", s.stddev}}; };
  return {{"machine", r.machine},
          {"model", r.model},
          {"metric", metric_info(r.metric).key},
          {"test", r.test},
          {"config", r.config},
          {"from_build", r.from_build},
          {"to_build", r.to_build},
          {"from", summary(r.from)},
          {"to", summary(r.to)},
          {"change", json_number(r.change)},
          {"p_slower", json_number(r.p_slower)},
          {"p_faster", json_number(r.p_faster)},
          {"verdict", change_name(r.verdict)}};
}

// "A", "B", ..., "Z", "AA", "AB", ...: the letter of column `i`.
std::string column_letter(std::size_t i) {
  std::string s(1, static_cast<char>('A' + i % 26));
  for (i /= 26; i > 0; i = (i - 1) / 26) s.insert(s.begin(), static_cast<char>('A' + (i - 1) % 26));
  return s;
}

// The widest of the md tables that name the compared columns: the table, each answer's pairs table.
std::size_t names_width(const Comparison& cmp, const std::vector<Answers>& answers) {
  std::size_t w = widest_line(markdown_table(compare_table(cmp)));
  for (const Answers& a : answers) {
    if (!a.pairs.empty()) w = std::max(w, widest_line(markdown_table(pairs_table(cmp, a))));
  }
  return w;
}

// Where the md tables that name the compared columns are wider than kMarkdownWidth and their
// names are what widens them (lettered, they are narrower), `cmp` with each column named by its
// letter and the legend that names them ("Columns by letter ...: A = linux-2080ti-cuda-workstation
// (baseline), B = ..."); nullopt otherwise.
std::optional<std::pair<Comparison, std::string>> lettered(const Comparison& cmp, const std::vector<Answers>& answers) {
  if (cmp.columns.empty()) return std::nullopt;  // one column too: a build's long name widened its table
  const std::size_t full = names_width(cmp, answers);
  if (full <= kMarkdownWidth) return std::nullopt;
  Comparison short_cmp = cmp;
  std::vector<std::string> legend;
  for (std::size_t i = 0; i < cmp.columns.size(); ++i) {
    short_cmp.columns[i] = column_letter(i);
    legend.push_back(short_cmp.columns[i] + " = " + cmp.columns[i] + (i == cmp.baseline ? " (baseline)" : ""));
  }
  if (names_width(short_cmp, answers) >= full) return std::nullopt;
  return std::pair{std::move(short_cmp),
                   "Columns by letter (their names are too long for a 120-column table): " + join(legend, ", ") + "."};
}

// The columns of `cmp` in groups, in order, each with its table (compare_table of those
// columns): a column joins the group before it while their table keeps within kMarkdownWidth.
std::vector<std::pair<std::vector<std::size_t>, Table>> column_groups(const Comparison& cmp) {
  std::vector<std::pair<std::vector<std::size_t>, Table>> groups;
  for (std::size_t i = 0; i < cmp.columns.size(); ++i) {
    if (!groups.empty()) {
      std::vector<std::size_t> more = groups.back().first;
      more.push_back(i);
      Table t = compare_table(cmp, more);
      if (widest_line(markdown_table(t)) <= kMarkdownWidth) {
        groups.back() = {std::move(more), std::move(t)};
        continue;
      }
    }
    groups.push_back({{i}, compare_table(cmp, {i})});
  }
  return groups;
}

// `table` (compare_table of `cmp`), or, where it is wider than kMarkdownWidth (four machines'
// cells with their notes were 156 columns) and each group of column_groups fits, its preamble,
// one table per group (each with the labels, the test and the winner of all the columns), and
// its notes once.
void print_column_groups(const Comparison& cmp, const Table& table, std::ostream& out) {
  if (cmp.columns.size() < 2 || widest_line(markdown_table(table)) <= kMarkdownWidth) {
    render(table, OutputFormat::kMarkdown, out);
    return;
  }
  const auto groups = column_groups(cmp);
  // Where a column alone does not fit (the labels or one cell are what is wide), one table.
  const bool each_fits = std::all_of(groups.begin(), groups.end(), [](const auto& g) {
    return widest_line(markdown_table(g.second)) <= kMarkdownWidth;
  });
  if (groups.size() < 2 || !each_fits) {
    render(table, OutputFormat::kMarkdown, out);
    return;
  }
  for (const std::string& line : table.preamble()) out << paragraph_lines(line);
  out << paragraph_lines("The columns in " + std::to_string(groups.size()) +
                         " tables, to keep within 120 columns; the winner of each row is of all of them.")
      << "\n";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::string> names;
    for (std::size_t i : groups[g].first) names.push_back(cmp.columns[i]);
    out << (g == 0 ? "" : "\n") << paragraph_lines("Columns " + join(names, ", ") + ":") << "\n"
        << markdown_table(groups[g].second);
  }
  out << markdown_footer(table);
}

void print_markdown(const Comparison& full_cmp, const std::vector<Regression>& regressions, double alpha,
                    std::ostream& out, const CompareExtras& extras) {
  const std::vector<Answers>& answers = extras.answers;
  print_answer_sentences(answers, out);
  if (const std::string lines = capacity_lines(extras.capacity, row_servers(full_cmp)); !lines.empty())
    out << lines << "\n";
  const auto short_names = lettered(full_cmp, answers);
  const Comparison& cmp = short_names ? short_names->first : full_cmp;
  Table table = compare_table(cmp);
  if (short_names) table.add_preamble(short_names->second);
  print_column_groups(cmp, table, out);
  const std::string regressions_line =
      "Regressions (same machine, model and knobs across builds; Welch's t-test on per-sample values, one-sided, alpha " +
      full(alpha) + "):" +
      (regressions.empty() ? " none to test (no machine ran the same model and knobs under two builds)." : "");
  out << "\n" << paragraph_lines(regressions_line);
  if (!regressions.empty()) out << "\n" << markdown_table(regressions_table(regressions));
  out << std::flush;
  print_answer_tables(cmp, answers, out);
  // bench and serve-bench of one model file side by side.
  if (!extras.served.empty()) {
    out << "\n";
    render(served_overhead_table(extras.served), OutputFormat::kMarkdown, out);
  }
}

// Where every synthetic model's label says the same "(synthetic v2, seed 42)", the labels of
// `cmp` (its rows', or by model its columns') say "(synthetic)" and the returned note the rest,
// once; "" (the labels unchanged) when no model is synthetic or two recipes or seeds occur.
std::string shorten_synthetic(Comparison& cmp) {
  std::vector<std::string*> labels;
  for (std::string& c : cmp.columns) labels.push_back(&c);
  for (Row& r : cmp.rows) labels.push_back(&r.model);
  std::string common;
  for (const std::string* label : labels) {
    const std::string part = synthetic_part(*label);
    if (part.empty()) continue;
    if (!common.empty() && part != common) return "";
    common = part;
  }
  if (common.empty()) return "";
  const std::string said = " (" + common + ")";
  for (std::string* label : labels) {
    if (const std::size_t at = label->find(said); at != std::string::npos) label->replace(at, said.size(), " (synthetic)");
  }
  return "(synthetic): a file rigbench synth wrote (" + common +
         "): the real model's tensors, types and metadata with random values, so its speed and memory are the real "
         "model's.";
}

}  // namespace

Table compare_table(const Comparison& compared) { return compare_table(compared, {}); }

Table compare_table(const Comparison& compared, const std::vector<std::size_t>& shown_columns) {
  std::vector<std::size_t> shown = shown_columns;
  if (shown.empty())
    for (std::size_t i = 0; i < compared.columns.size(); ++i) shown.push_back(i);
  Comparison cmp = compared;  // labels as the md table shows them
  const std::string synthetic_note = shorten_synthetic(cmp);
  std::vector<TableColumn> cols;
  // The model and machine whole on their rows, a build broken only after its " / " ("llama-bench
  // / llama.cpp 80fb11ac" was cut into "llama-benc", "h /", ...), by build the knobs between them;
  // what still cannot fit goes in successive tables (print_column_groups).
  for (const auto& [name, field] : label_columns(cmp)) {
    TableColumn col{name, name};
    if (name == "build") {  // "rigbench 0.1.0 / llama.cpp aaaaaaaa" may break after its " / "
      col.wrap = true;
      col.wrap_at = " / ";
    }
    if (name == "knobs") col.wrap = true;  // a value ("n_batch=2048 n_ubatch=512 ..."): between its knobs
    cols.push_back(std::move(col));
  }
  // The test is a value too ("embed latency b1 builtin (343 queries) ms"): it wraps at spaces
  // where the table would pass 120 columns.
  TableColumn test{"test", "test"};
  test.wrap = true;
  cols.push_back(std::move(test));
  // A column per machine (build, model): its cells wrap between their pieces to keep the table
  // within 120 columns (cell_pieces: a mean, its ± sd, its interval, its ratio, each note stay whole).
  for (const std::size_t i : shown) {
    TableColumn col{cmp.columns[i], cmp.columns[i] + (i == cmp.baseline ? " (baseline)" : ""), Align::kRight};
    col.wrap = true;
    cols.push_back(std::move(col));
  }
  TableColumn winner{"winner", "winner"};
  winner.wrap = true;
  cols.push_back(std::move(winner));
  Table t(std::move(cols));
  t.add_preamble(
      "Compared by " + compare_by_name(cmp.by) + "; baseline: " + cmp.columns[cmp.baseline] +
      ". Cells: mean ± standard deviation over samples (± % of the mean: its 95 % interval); ×ratio to the baseline"
      " (> 1 is better). Winner: the best mean, where Welch's t-test (two-sided, alpha " + full(cmp.alpha) +
      ") separates it from the runner-up; else \"no clear winner\" (\"untested\": one value a side). [noise: ...]:"
      " the runs' noise notes, below the table.");
  if (cmp.by == CompareBy::kBuild) {
    t.add_preamble(
        "By build, a row holds one configuration (knobs), as the regressions do: builds are compared only where they"
        " ran the same knobs; builds that ran none in common share no row." +
        std::string(cmp.several_knobs ? " knobs: those that differ between the rows." : ""));
  }
  if (std::any_of(cmp.rows.begin(), cmp.rows.end(), [](const Row& r) { return r.verdict == "sizes differ"; })) {
    t.add_preamble(
        "sizes differ: models of different parameter counts are not ranked against each other (a smaller model"
        " does less; ratios only to a baseline of the same size); --across-sizes ranks them.");
  }
  if (std::any_of(cmp.rows.begin(), cmp.rows.end(), [](const Row& r) { return r.verdict == kInconclusiveVerdict; })) {
    t.add_preamble(
        "inconclusive: noisy runs: the test separates the two best, but a run among them carries a note that moves a"
        " whole run (steal, machine_busy, thermal_throttle, governor, drift) and the lead is within " +
        change_text(kDisturbedLeadRatio - 1) + "; re-run on a quiet machine.");
  }
  const bool any_distribution = std::any_of(cmp.rows.begin(), cmp.rows.end(), [](const Row& r) {
    return is_distribution(r.metric);
  });
  if (any_distribution) {
    t.add_preamble(
        "itl rows: each generated token's latency, mean · p50 · p99 (the ratio and the winner by the mean: a few "
        "long pauses move it where p50 does not); suite rows: the prompts' medians, p50 · p95; embed "
        "latency rows: each query's latency, p50 · p95 · p99 (ranked by the same rule; embedding latency by the "
        "paired t-test on each query's mean, like queries against like).");
  }
  const bool any_summary = std::any_of(cmp.rows.begin(), cmp.rows.end(), [](const Row& r) {
    return std::any_of(r.cells.begin(), r.cells.end(), [](const Cell& c) { return c.summary_only; });
  });
  if (any_summary) {
    t.add_preamble(
        "(summary): mean ± sd as a llama-bench csv or sql file states them, without samples "
        "(its -o jsonl keeps them).");
  }
  bool several_configs = false;
  std::vector<std::string> flags;  // the energy flags shown
  // Served rows name their server by a tag, said once below the table: a server's identity
  // (software, version, API, URL) made a served row's test 80 characters wide.
  const std::vector<std::string> servers = row_servers(cmp);
  for (const Row& row : cmp.rows) {
    // A part of the columns (print_markdown's groups) leaves out the rows none of them has a record of.
    if (shown.size() < row.cells.size() && std::all_of(shown.begin(), shown.end(), [&](std::size_t i) {
          return row.cells[i].state == CellState::kMissing;
        }))
      continue;
    std::vector<TableCell> cells;
    for (const auto& [name, field] : label_columns(cmp)) {
      TableCell label = TableCell::str(row.*field);
      if (name == "knobs") label.pieces = split(label.text, ' ');  // each knob whole
      cells.push_back(std::move(label));
    }
    cells.push_back(TableCell::str(row_test_text(row, servers)));
    for (const std::size_t i : shown) {
      const Cell& c = row.cells[i];
      const std::string strong = static_cast<int>(i) == row.winner ? "**" : "";
      // (bold: the figure whole on one line, each of its pieces where the cell wraps)
      CellPieces cp = cell_pieces(cmp, row, i, cell_text(row.metric, c), false);
      std::vector<std::string> figure(cp.pieces.begin(), cp.pieces.begin() + static_cast<long>(cp.figure_pieces));
      std::vector<std::string> rest(cp.pieces.begin() + static_cast<long>(cp.figure_pieces), cp.pieces.end());
      std::string text = strong + join(figure, " ") + strong + (rest.empty() ? "" : " " + join(rest, " "));
      // (each line of a wrapped cell is a row of its own: a bold that opened on one never closes on the next)
      for (std::size_t k = 0; k < cp.figure_pieces; ++k) cp.pieces[k] = strong + cp.pieces[k] + strong;
      std::vector<std::string> pieces = std::move(cp.pieces);
      several_configs = several_configs || c.n_configs > 1;
      flags.insert(flags.end(), c.energy_flags.begin(), c.energy_flags.end());
      TableCell cell = c.state == CellState::kMeasured ? TableCell::number_text(c.summary.mean, std::move(text))
                                                       : TableCell::absent(std::move(text));
      cell.pieces = std::move(pieces);
      cells.push_back(std::move(cell));
    }
    // The winner: a column's name whole, a verdict ("no clear winner") at its spaces.
    TableCell winner = TableCell::str(winner_text(cmp, row));
    if (row.winner >= 0) winner.pieces = {winner.text};
    cells.push_back(std::move(winner));
    t.add_row(std::move(cells));
  }
  if (const std::string note = knobs_differ_note(cmp); !note.empty()) t.add_note(note);
  if (!synthetic_note.empty()) t.add_note(synthetic_note);
  for (const std::string& note : cmp.same_name_notes) t.add_note(note);
  if (several_configs) t.add_note(best_of_note());
  if (const std::string note = energy_flags_note(flags); !note.empty()) t.add_note(note);
  for (std::size_t i = 0; i < servers.size(); ++i) t.add_note(server_legend(servers, i));
  for (std::string& line : noise_lines(cmp, std::nullopt, servers)) t.add_note("[noise] " + std::move(line));
  return t;
}

Table compare_cells_table(const Comparison& cmp) {
  std::vector<TableColumn> cols;
  for (const auto& [name, field] : label_columns(cmp)) cols.push_back({name, name});
  const std::string column = compare_by_name(cmp.by);
  for (const std::string h : {"metric", "unit", "test", column.c_str(), "baseline", "state", "n", "mean", "stddev",
                              "median", "p90", "p95", "p99", "min", "max", "ci95_low", "ci95_high", "ci95_pct", "ci_target_pct",
                              "ci_reached", "ratio", "winner", "verdict", "config", "energy_flags", "noise_codes",
                              "noise_notes"}) {
    cols.push_back({h, h});
  }
  Table t(std::move(cols));
  for (const Row& row : cmp.rows) {
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& c = row.cells[i];
      const bool m = c.state == CellState::kMeasured;
      std::vector<TableCell> f;
      for (const auto& [name, field] : label_columns(cmp)) f.push_back(TableCell::str(row.*field));
      f.push_back(TableCell::str(metric_info(row.metric).key));
      f.push_back(TableCell::str(metric_info(row.metric).unit));
      f.push_back(TableCell::str(row.test));
      f.push_back(TableCell::str(cmp.columns[i]));
      f.push_back(TableCell::boolean(i == cmp.baseline));
      f.push_back(TableCell::str(state_name(c.state)));
      f.push_back(m ? TableCell::count(c.summary.n) : TableCell::absent());
      for (double v : {c.summary.mean, c.summary.stddev, c.summary.median, c.summary.p90, c.summary.p95,
                       c.summary.p99, c.summary.min, c.summary.max}) {
        f.push_back(m ? TableCell::number(v) : TableCell::absent());
      }
      const auto ci = cell_interval(row.metric, c);
      for (double v : {ci ? ci->low : NAN, ci ? ci->high : NAN, ci ? ci->half_width_pct : NAN})
        f.push_back(ci ? TableCell::number(v) : TableCell::absent());
      f.push_back(m ? TableCell::number(c.ci_target_pct) : TableCell::absent());
      f.push_back(ci && std::isfinite(c.ci_target_pct) ? TableCell::boolean(ci->half_width_pct <= c.ci_target_pct)
                                                       : TableCell::absent());
      f.push_back(TableCell::number(c.ratio));
      f.push_back(TableCell::boolean(static_cast<int>(i) == row.winner));
      f.push_back(TableCell::str(row.verdict));
      f.push_back(TableCell::str(c.config));
      f.push_back(TableCell::str(join(c.energy_flags, ";")));
      f.push_back(TableCell::str(noise_codes_text(c)));
      std::string notes;
      for (const NoiseNote& n : c.noise) notes += (notes.empty() ? "" : " | ") + noise_note_text(n);
      if (c.noise_more > 0) notes += " | and " + std::to_string(c.noise_more) + " more";
      f.push_back(TableCell::str(notes));
      t.add_row(std::move(f));
    }
  }
  return t;
}

Table regressions_table(const std::vector<Regression>& regressions) {
  // A build ("rigbench 0.1.0 / llama.cpp aaaaaaaa"), the test and the verdict wrap at their
  // spaces: two builds made the table 155 columns wide, and broken after " / " alone 145.
  TableColumn from{"from_build", "from"}, to{"to_build", "to"}, test{"test", "test"}, verdict{"verdict", "verdict"};
  for (TableColumn* c : {&from, &to, &test, &verdict}) c->wrap = true;
  Table t({{"machine", "machine"},
           {"model", "model"},
           test,
           from,
           to,
           {"from_mean", "from mean", Align::kRight},
           {"to_mean", "to mean", Align::kRight},
           {"change", "change", Align::kRight},
           {"p_slower", "p (slower)", Align::kRight},
           verdict});
  for (const Regression& r : regressions) {
    const bool tested = r.verdict != Change::kTooFewSamples;
    t.add_row({TableCell::str(r.machine), TableCell::str(r.model),
               TableCell::str(r.test + " " + metric_info(r.metric).unit), TableCell::str(r.from_build),
               TableCell::str(r.to_build), TableCell::number(r.from.mean), TableCell::number(r.to.mean),
               TableCell::number_text(r.change, (r.change >= 0 ? "+" : "") + format_fixed(100 * r.change, 1) + " %"),
               tested ? TableCell::number(r.p_slower, 4) : TableCell::absent(),
               TableCell::str(change_name(r.verdict))});
  }
  return t;
}

std::string winner_text(const Comparison& cmp, const Row& row) {
  const std::string text = row.winner >= 0 ? cmp.columns[row.winner] : row.verdict;
  return row.knobs_differ ? text + " (knobs differ)" : text;
}

CellPieces cell_pieces(const Comparison& cmp, const Row& row, std::size_t column, const std::string& figure,
                       bool for_html) {
  const Cell& c = row.cells[column];
  CellPieces out;
  // A distribution's percentiles ("p50 6.16 · p99 6.83") may break after each "·"; in md a mean
  // before its "± sd" ("834355.78 ± 8342.78" kept three machines' columns past 120).
  if (is_distribution(row.metric)) out.pieces = split_after(figure, " · ");
  else out.pieces = for_html ? std::vector<std::string>{figure} : mean_sd_pieces(figure);
  out.figure_pieces = out.pieces.size();
  auto add = [&out](const std::string& piece) {
    if (!piece.empty()) out.pieces.push_back(piece.starts_with(' ') ? piece.substr(1) : piece);
  };
  add(interval_text(row.metric, c));
  if (column != cmp.baseline && !std::isnan(c.ratio)) add(ratio_text(c.ratio));
  // In the report a best-of names its knobs, which may break between them.
  for (const std::string& piece :
       for_html ? split(best_of_text(c, true), ' ') : std::vector<std::string>{best_of_text(c, false)})
    add(piece);
  // "[sources_disagree, gap]" and "[noise: first_repetition, high_cv]" may break after each code
  // and after "[noise:" (six machines' columns side by side in 1280 px; in md "[noise:
  // first_repetition," kept three machines' columns at 25 and the table at 135 columns).
  for (const std::string& piece : split_after(flags_text(c), ", ")) add(piece);
  for (const std::string& codes : split_after(noise_text(c), ", ")) {
    for (const std::string& piece : split_after(codes, ": ")) add(piece);
  }
  return out;
}

std::string best_of_text(const Cell& cell, bool with_knobs) {
  if (cell.n_configs < 2) return "";
  const std::string knobs = with_knobs && !cell.knobs.empty() ? ": " + cell.knobs : "";
  return " (best of " + std::to_string(cell.n_configs) + knobs + ")";
}

std::string best_of_note() {
  return "(best of N): N configurations (knob combinations) ran there, never pooled; the best is shown "
         "(-o json: config, n_configs).";
}

std::string knobs_differ_note(const Comparison& cmp) {
  if (std::none_of(cmp.rows.begin(), cmp.rows.end(), [](const Row& r) { return r.knobs_differ; })) return "";
  return "(knobs differ): the cells show each " + compare_by_name(cmp.by) +
         " at its best configuration, and those ran different knobs: the row compares configurations, not the " +
         compare_by_name(cmp.by) + " alone (`rigbench compare -o json` gives each cell's config).";
}

bool is_distribution(Metric metric) {
  return metric == Metric::kItl || metric == Metric::kSuiteGen || metric == Metric::kSuiteTtft ||
         metric == Metric::kEmbedLatency;
}

std::string percentiles_text(Metric metric, const Cell& cell) {
  if (cell.state != CellState::kMeasured || !is_distribution(metric)) return cell_text(metric, cell);
  const Summary& s = cell.summary;
  return "p50 " + format_fixed(s.median, 2) + " · p90 " + format_fixed(s.p90, 2) + " · p95 " + format_fixed(s.p95, 2) +
         " · p99 " + format_fixed(s.p99, 2);
}

std::string cell_text(Metric metric, const Cell& cell) {
  switch (cell.state) {
    case CellState::kMissing: return "-";
    case CellState::kWontFit: return "does not fit";
    case CellState::kMeasured: break;
  }
  if (metric == Metric::kMemory) return format_bytes(static_cast<uint64_t>(cell.summary.mean));
  // Distributions whose tail matters: the median and the tail percentile (suites: over the
  // prompts' medians; ITL: over every token).
  // ITL's ratio and winner are the mean's (its mean is 1 / tg t/s): the mean is shown beside them
  // (p50 and p99 alone read 0.21 · 540 against 0.22 · 553 under "×0.33").
  if (metric == Metric::kItl)
    return "mean " + format_fixed(cell.summary.mean, 2) + " · p50 " + format_fixed(cell.summary.median, 2) + " · p99 " +
           format_fixed(cell.summary.p99, 2);
  if (metric == Metric::kEmbedLatency) {
    return "p50 " + format_fixed(cell.summary.median, 2) + " · p95 " + format_fixed(cell.summary.p95, 2) + " · p99 " +
           format_fixed(cell.summary.p99, 2);
  }
  if (metric == Metric::kSuiteGen || metric == Metric::kSuiteTtft)
    return "p50 " + format_fixed(cell.summary.median, 2) + " · p95 " + format_fixed(cell.summary.p95, 2);
  if (!metric_info(metric).per_repetition) {  // J/token, cost: small numbers, 4 significant digits
    char buf[64];
    if (cell.summary.n > 1) {
      std::snprintf(buf, sizeof buf, "%.4g ± %.2g", cell.summary.mean, cell.summary.stddev);
    } else {
      std::snprintf(buf, sizeof buf, "%.4g", cell.summary.mean);
    }
    return buf;
  }
  const std::string sd = std::isfinite(cell.summary.stddev) ? format_fixed(cell.summary.stddev, 2) : "?";
  // Statistics a source stated without its samples (llama-bench csv, sql).
  return format_fixed(cell.summary.mean, 2) + " ± " + sd + (cell.summary_only ? " (summary)" : "");
}

std::string energy_flag_meaning(const std::string& flag) {
  static const std::pair<const char*, const char*> kMeanings[] = {
      {"below_update_period", "a phase shorter than the meter's update period"},
      {"coarse", "a phase shorter than ten updates of its meter"},
      {"sources_disagree", "the meter's counter and its power readings differ by more than 10 %"},
      {"gap", "the meter had no reading over part of a phase"},
      {"idle_above_active", "idle power above the phase's: no marginal figure"},
      {"idle_stated", "idle power stated (--idle-watts), not measured"},
  };
  for (const auto& [name, meaning] : kMeanings) {
    if (flag == name) return meaning;
  }
  return "see the record's energy notes";
}

std::string flags_text(const Cell& cell) {
  return cell.energy_flags.empty() ? "" : " [" + join(cell.energy_flags, ", ") + "]";
}

std::string energy_flags_note(const std::vector<std::string>& flags) {
  std::vector<std::string> seen(flags);
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  if (seen.empty()) return "";
  std::string note = "[flags]: doubts about the energy figures of the runs shown (docs/energy.md; their causes in the "
                     "record's energy notes):";
  for (std::size_t i = 0; i < seen.size(); ++i)
    note += (i ? "; " : " ") + seen[i] + " = " + energy_flag_meaning(seen[i]);
  return note + ".";
}

std::string interval_text(Metric metric, const Cell& cell) {
  const auto ci = cell_interval(metric, cell);
  if (!ci || !std::isfinite(ci->half_width_pct)) return "";
  // A low bound clamped at 0 (a rate or time cannot be negative) is said in the cell.
  return " (±" + format_fixed(ci->half_width_pct, 1) + " %" + (ci->low_clamped ? ", low 0" : "") + ")";
}

std::string noise_text(const Cell& cell) {
  return cell.noise.empty() ? "" : " [noise: " + noise_codes_text(cell, ", ") + "]";
}

std::string row_test_text(const Row& row, const std::vector<std::string>& servers) {
  return test_with_unit(row, tagged_test(row, servers));
}

std::vector<std::string> noise_lines(const Comparison& cmp, std::optional<Metric> only,
                                     const std::vector<std::string>& servers) {
  // One kind of note (its code and remedy) in one column: said on one line, the rows it was
  // seen in listed, the first note's text as the example and the remedy once.
  struct Group {
    std::size_t column;
    std::string code, remedy;
    std::vector<std::string> where;  // each row (labels and test) that holds the note
    NoiseNote first;
    int notes = 0;  // how many distinct notes of the kind (two pooled runs' "60 %" and "40 %": 2)
  };
  std::vector<Group> groups;
  std::vector<std::string> more;  // "... and N more distinct notes" lines, after the groups
  // (labels, server, column, note): said once; a run's notes are in each of its rows' cells.
  std::set<std::tuple<std::string, std::string, std::size_t, std::string>> said;
  for (const Row& row : cmp.rows) {
    if (only && row.metric != *only) continue;
    std::string labels;
    for (const auto& [name, field] : label_columns(cmp)) labels += (labels.empty() ? "" : " · ") + row.*field;
    const std::string where = labels + (labels.empty() ? "" : " · ") + row_test_text(row, servers);
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& c = row.cells[i];
      for (const NoiseNote& n : c.noise) {
        if (!said.emplace(labels, row.server, i, noise_note_text(n)).second) continue;
        auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
          return x.column == i && x.code == n.code && x.remedy == n.remedy;
        });
        if (g == groups.end()) {
          groups.push_back({i, n.code, n.remedy, {}, n});
          g = groups.end() - 1;
        }
        ++g->notes;
        if (std::find(g->where.begin(), g->where.end(), where) == g->where.end()) g->where.push_back(where);
      }
      if (c.noise_more > 0)
        more.push_back(where + ", " + cmp.columns[i] + ": and " + std::to_string(c.noise_more) +
                       (c.noise_more == 1 ? " more distinct note" : " more distinct notes") + " (-o json: the first " +
                       std::to_string(kMaxCellNoise) + ")");
    }
  }
  std::vector<std::string> lines;
  for (const Group& g : groups) {
    if (g.notes == 1) {
      lines.push_back(g.where.front() + ", " + cmp.columns[g.column] + ": " + noise_note_text(g.first));
      continue;
    }
    NoiseNote example = g.first;
    example.remedy.clear();
    const std::string rows =
        g.where.size() == 1 ? g.where.front() : std::to_string(g.where.size()) + " rows (" + join(g.where, "; ") + ")";
    lines.push_back(cmp.columns[g.column] + ", " + rows + ": " + std::to_string(g.notes) + " notes, the first: " +
                    noise_note_text(example) + " (-o json: each)" + (g.remedy.empty() ? "" : "; " + g.remedy));
  }
  lines.insert(lines.end(), more.begin(), more.end());
  return lines;
}

std::string ratio_text(double ratio) { return std::isnan(ratio) ? "" : "×" + format_fixed(ratio, 2); }

void print_comparison(const Comparison& cmp, const std::vector<Regression>& regressions, double alpha,
                      OutputFormat format, std::ostream& out, const CompareExtras& extras) {
  const std::vector<Answers>& answers = extras.answers;
  const std::vector<StoredCapacity>& capacity = extras.capacity;
  switch (format) {
    case OutputFormat::kMarkdown: print_markdown(cmp, regressions, alpha, out, extras); return;
    case OutputFormat::kCsv: render(compare_cells_table(cmp), OutputFormat::kCsv, out); return;
    case OutputFormat::kJson: {
      Json rows = Json::array();
      for (const Row& row : cmp.rows) {
        Json j = row_json(cmp, row);
        j["cells"] = Json::array();
        for (std::size_t i = 0; i < row.cells.size(); ++i) j["cells"].push_back(cell_json(cmp, row.metric, i, row.cells[i]));
        rows.push_back(std::move(j));
      }
      Json regs = Json::array();
      for (const Regression& r : regressions) regs.push_back(regression_json(r));
      Json doc = {{"by", compare_by_name(cmp.by)},
                  {"baseline", cmp.columns[cmp.baseline]},
                  {"alpha", alpha},
                  {"columns", cmp.columns},
                  {"rows", rows},
                  {"regressions", regs}};
      if (!cmp.same_name_notes.empty()) doc["same_name_notes"] = cmp.same_name_notes;
      if (!answers.empty()) {
        doc["answers"] = Json::array();
        for (const Answers& a : answers) doc["answers"].push_back(answers_json(cmp, a));
      }
      if (!extras.served.empty()) doc["served_overhead"] = served_overhead_json(extras.served);
      if (!capacity.empty()) {
        doc["capacity"] = Json::array();
        for (const StoredCapacity& c : capacity) {
          doc["capacity"].push_back({{"machine", c.machine},
                                     {"model", c.model},
                                     {"server", c.server},
                                     {"workload", c.workload},
                                     {"sweep", c.sweep},
                                     {"capacity", c.capacity},
                                     {"answer", c.answer},
                                     {"test_time", c.test_time}});
        }
      }
      out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << "\n" << std::flush;
      return;
    }
    case OutputFormat::kJsonl: {
      for (const Row& row : cmp.rows) {
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
          Json j = {{"kind", "cell"}};
          j.update(row_json(cmp, row));
          j.update(cell_json(cmp, row.metric, i, row.cells[i]));
          out << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
        }
      }
      for (const Regression& r : regressions) {
        Json j = {{"kind", "regression"}};
        j.update(regression_json(r));
        out << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
      }
      out << std::flush;
      return;
    }
    case OutputFormat::kSql: return;  // not offered by compare (its -o refuses sql)
  }
}

}  // namespace rigbench::report
