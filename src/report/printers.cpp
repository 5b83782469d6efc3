// The printers: markdown table, CSV, JSON array, JSON lines, SQL.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/noise_note.h"
#include "core/rpc_endpoints.h"
#include "core/short_commit.h"
#include "core/significance.h"
#include "core/strings.h"
#include "report/columns.h"
#include "report/printer.h"
#include "report/suite_table.h"
#include "store/record_json.h"

namespace rigbench::report {

namespace {

// When a run's mean tg beats its roofline bound by more than 5 % (noise), says what the bound
// is made of and how to measure again. A local run's bound is this machine's memory bandwidth:
// measured low (a probe on a busy machine), or the weights sit in a cache faster than DRAM. A
// split run's (bench --rpc, fit::plan_device_split) is its devices' memory, the rpc-servers'
// assumed as fast as this machine's (a server reports no bandwidth), and the network: the round
// trip the probe measured before the run and a link assumed at 1 Gb/s.
std::string bound_exceeded_note(const RunRecord& rec) {
  const double bound = rec.roofline.tg_bound_tps;
  if (!rec.results.tg || bound <= 0 || rec.results.tg->tps.mean <= 1.05 * bound) return "";
  char buf[512];
  if (names_rpc_servers(rec.params.rpc)) {
    const Roofline& r = rec.roofline;
    char terms[160] = "";
    if (r.memory_bound_tps > 0)
      std::snprintf(terms, sizeof terms, " (memory alone %.1f t/s, network %.3f ms a token)", r.memory_bound_tps,
                    r.network_ms_per_token);
    std::snprintf(buf, sizeof buf,
                  "tg %.2f t/s is above its bound %.1f t/s, the split's%s: the rpc-servers' memory is assumed as "
                  "fast as this machine's (they report none), the link at 1 Gb/s with the round trip measured "
                  "before the run; `rigbench fit --rpc` with --link-gbps and --link-rtt-ms plans it with the "
                  "link's own figures",
                  rec.results.tg->tps.mean, bound, terms);
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "tg %.2f t/s is above its bound %.1f t/s: the bound's bandwidth (%.1f GB/s) was measured low, or "
                "the weights sit in cache; `rigbench hw --bandwidth` on an idle machine measures it again",
                rec.results.tg->tps.mean, bound, rec.roofline.bandwidth_gbps);
  return buf;
}

// The markdown table's columns: test_columns(), those not shown kept out of md (data_only).
Table test_table(const PrinterOptions& options) {
  std::vector<TableColumn> cols;
  for (const auto& c : test_columns()) {
    TableColumn t;
    t.key = c.key;
    t.header = c.header;
    t.wide_only = c.wide_only;
    t.align = c.left ? Align::kLeft : Align::kRight;
    // Wide enough for the tests and figures that follow the first row (a depth's "pp512 @ d4096",
    // a tg's "1093.03 ± 508.44" after a pp's "582.14 ± 4.39"), as llama-bench's fixed widths.
    if (c.key == "test") t.min_width = options.test_width;
    // "14215.74 ± 1919.70" after "20571.58 ± 111.45" (llama-bench keeps 20: at 18 the default
    // model's row keeps within 120 columns beside its TTFT and p99, #37)
    if (c.key == "avg_tps") t.min_width = 18;
    t.data_only =
        c.in_table == InTable::kNever || (c.in_table == InTable::kIfAsked && !options.shown_knobs.count(c.key));
    cols.push_back(std::move(t));
  }
  return Table(std::move(cols));
}

// One row per test of each record (llama-bench's layout), columns from test_columns(), through
// the table builder's streaming lines (report/table.h: aligned to the first row, each flushed); the
// footer and notes after the table say what a row's cells cannot (the llama.cpp build, why a
// run was refused or failed, an interruption, a tg above its bound).
// "RPC0 at 127.0.0.1:50052 3 layers (15.2 of 15.6 GiB free, rtt 0.061 ms), CPU 0 layers + output".
std::string topology_text(const std::vector<TopologyDevice>& topology) {
  std::string out;
  for (const TopologyDevice& t : topology) {
    char buf[256];
    std::string where = t.endpoint.empty() ? t.device : t.device + " at " + t.endpoint;
    std::string mem;
    if (t.memory_total_bytes > 0) {
      std::snprintf(buf, sizeof buf, "%.1f of %.1f GiB free", t.memory_free_bytes / 1073741824.0,
                    t.memory_total_bytes / 1073741824.0);
      mem = buf;
    }
    if (std::isfinite(t.rtt_ms)) {
      std::snprintf(buf, sizeof buf, "%srtt %.3f ms", mem.empty() ? "" : ", ", t.rtt_ms);
      mem += buf;
    }
    out += (out.empty() ? "" : ", ") + where + " " + std::to_string(t.n_layers) + " layers" +
           (t.output_layer ? " + output" : "") + (mem.empty() ? "" : " (" + mem + ")");
  }
  return out;
}

class MarkdownPrinter final : public Printer {
 public:
  MarkdownPrinter(std::ostream& out, PrinterOptions options)
      : out_(out), options_(std::move(options)), table_(test_table(options_)) {}
  void begin() override {}
  void add(const RunRecord& rec) override {
    if (rec.results.suite) {  // a prompt suite: its own table, whole
      if (suites_++) out_ << "\n";
      render(suite_table(rec), OutputFormat::kMarkdown, out_, RenderOptions{options_.wide});
      return;
    }
    if (rec.params.n_prompt == 0 && rec.params.n_gen == 0) {  // a suite that did not run
      if (!rec.refused.empty()) notes_.push_back("suite refused: " + rec.refused);
      if (!rec.failed.empty()) notes_.push_back("suite failed: " + rec.failed);
      return;
    }
    for (const Phase ph : row_phases(rec)) {
      std::vector<TableCell> cells;
      for (const auto& c : test_columns()) cells.push_back(TableCell::str(c.cell(rec, ph)));
      table_.add_row(std::move(cells));
      if (table_.rows().size() == 1) out_ << markdown_header(table_, options_.wide);
      out_ << markdown_row(table_, table_.rows().size() - 1, options_.wide) << std::flush;
      const std::string at = "row " + std::to_string(table_.rows().size()) + ": ";
      if (!rec.refused.empty()) notes_.push_back(at + "refused: " + rec.refused);
      if (!rec.failed.empty()) notes_.push_back(at + "failed: " + rec.failed);
      if (rec.interrupted) {
        const auto& res = ph == Phase::kPp ? rec.results.pp : rec.results.tg;
        const std::string done = std::to_string(res ? res->tps.n : 0);
        notes_.push_back(at + "interrupted after " +
                         (rec.precision.repetitions_mode == "auto"
                              ? done + " repetitions (-r auto)"
                              : done + " of " + std::to_string(rec.params.repetitions) + " repetitions"));
      }
      if (ph == Phase::kTg) {
        if (const std::string note = bound_exceeded_note(rec); !note.empty()) notes_.push_back(at + note);
        if (rec.roofline.tg_bound_tps > 0)
          bounds_ += (bounds_.empty() ? "row " : ", row ") + std::to_string(table_.rows().size()) + " <= " +
                     format_fixed(rec.roofline.tg_bound_tps, 1);
        if (rec.cost) add_cost(*rec.cost, table_.rows().size());
      }
      interval_cell(rec, ph, table_.rows().size());
      const char* phase = ph == Phase::kPp ? "pp" : "tg";
      for (const auto& n : rec.noise) {
        if (n.phase == phase) notes_.push_back(at + noise_note_text(n));
      }
    }
    // Notes on the whole run (the machine, not one test's samples), once, at its last row.
    for (const auto& n : rec.noise) {
      if (n.phase.empty() && !table_.rows().empty())
        notes_.push_back("row " + std::to_string(table_.rows().size()) + ": " + noise_note_text(n));
    }
    // A split run (bench --rpc): where its layers went and what each server reported.
    if (!rec.topology.empty() && !table_.rows().empty())
      notes_.push_back("row " + std::to_string(table_.rows().size()) + ": split: " + topology_text(rec.topology));
    // Doubts about the energy figures (docs/energy.md, flags), once per record, with their causes.
    if (!rec.energy.flags.empty() && !table_.rows().empty()) {
      std::string text = "row " + std::to_string(table_.rows().size()) + ": energy flagged";
      for (std::size_t i = 0; i < rec.energy.flags.size(); ++i) text += (i ? ", " : " ") + rec.energy.flags[i];
      for (const auto& n : rec.energy.notes) text += "; " + n;
      notes_.push_back(text);
    }
    if (!rec.build.llama_cpp_commit.empty()) commit_ = short_commit(rec.build.llama_cpp_commit);
    if (rec.model.synthetic) synthetic_ = true;
  }
  void end() override {
    if (table_.rows().empty() && notes_.empty()) return;  // nothing, or only suites (each with its footer)
    if (!table_.rows().empty())
      table_.add_note(
          "p99 ms: TTFT's 99th percentile on pp rows, each generated token's latency on tg rows (--wide: p50, p90, "
          "p95; -o json/csv: every percentile)");
    if (!intervals_.empty()) {
      std::string target;
      if (std::isfinite(target_pct_)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (target ±%g %%)", target_pct_);
        target = buf;
      }
      table_.add_footer("t/s: mean ± standard deviation of the repetitions; 95 % interval of the mean t/s: " +
                        intervals_ + target);
      if (!low_clamped_.empty())
        table_.add_note((low_clamped_.find(',') == std::string::npos ? "row " : "rows ") + low_clamped_ +
                        ": the interval's low end (mean minus the half width) is below 0: csv and json give it as "
                        "0 t/s (a rate cannot be negative); so wide an interval says the repetitions are too few or "
                        "too spread to pin the mean");
    }
    if (!bounds_.empty() && !options_.wide)  // --wide: the tg bound t/s column
      table_.add_footer(
          "tg bound t/s (bandwidth / bytes read per token: the weights, less the token embeddings of which a "
          "token reads one row, and the KV cache at the test's depth; an upper bound, not a measurement): " +
          bounds_);
    if (!costs_.empty() && !options_.wide)  // --wide: the cost/Mtok and total/Mtok columns
      table_.add_footer(
          "cost/Mtok (electricity per million generated tokens at the run's power; total: at "
          "--utilization, with the hardware's amortization): " +
          costs_);
    for (auto& note : cost_notes_) table_.add_note("cost: " + note);
    if (!commit_.empty()) table_.add_footer("llama.cpp build: " + commit_);
    if (synthetic_)
      table_.add_note(
          "(synthetic): random weights in a real model's shape (rigbench synth); speed as the real model's, not its "
          "output");
    for (auto& note : notes_) table_.add_note(std::move(note));
    out_ << markdown_footer(table_) << std::flush;
  }

 private:
  std::ostream& out_;
  PrinterOptions options_;
  Table table_;
  std::string commit_;
  bool synthetic_ = false;
  std::vector<std::string> notes_;
  std::string intervals_;  // "row 1 ±0.8 %, row 2 ±1.9 %"
  std::string bounds_;     // tg rows' bounds: "row 2 <= 24010.2"
  std::string low_clamped_;  // rows whose interval has its low end cut at 0: "1, 2"
  std::string costs_;        // tg rows' costs: "row 2 0.0114 EUR, total 0.0520 EUR"
  std::vector<std::string> cost_notes_;  // what a cost lacks ("... give --idle-watts"), once each

  // A tg row's cost for the footer (the table's cost columns made it 140 columns wide), and what
  // it could not price, said once.
  void add_cost(const CostInfo& c, std::size_t row) {
    if (!options_.shown_knobs.count("cost_gross_per_mtok")) return;
    auto money = [&](double v) {
      if (!std::isfinite(v)) return std::string("-");
      // Four decimals, more for a small model's fraction of a cent (three significant digits).
      const int decimals = v > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(v))), 4, 8) : 4;
      return format_fixed(v, decimals) + " " + c.currency;
    };
    costs_ += (costs_.empty() ? "row " : ", row ") + std::to_string(row) + " " + money(c.gross_per_mtok);
    if (options_.shown_knobs.count("cost_total_per_mtok")) costs_ += ", total " + money(c.total_per_mtok);
    for (const std::string& n : c.notes) {
      if (std::find(cost_notes_.begin(), cost_notes_.end(), n) == cost_notes_.end()) cost_notes_.push_back(n);
    }
  }
  double target_pct_ = std::nan("");

  // The row's 95 % interval (core/significance.h) for the footer, and a note when it missed
  // the record's target.
  void interval_cell(const RunRecord& rec, Phase ph, std::size_t row) {
    const auto& res = ph == Phase::kPp ? rec.results.pp : rec.results.tg;
    if (!res) return;
    const auto ci = mean_interval(res->tps);
    if (!ci || !std::isfinite(ci->half_width_pct)) return;
    char buf[160];
    std::snprintf(buf, sizeof buf, "row %zu ±%.1f %%", row, ci->half_width_pct);
    if (ci->low_clamped) low_clamped_ += (low_clamped_.empty() ? "" : ", ") + std::to_string(row);
    intervals_ += (intervals_.empty() ? "" : ", ") + std::string(buf);
    const Precision& p = rec.precision;
    if (!std::isfinite(p.ci_target_pct)) return;
    target_pct_ = p.ci_target_pct;
    if (ci->half_width_pct <= p.ci_target_pct) return;
    std::string why;
    if (p.stopped_by == "max_time") {
      std::snprintf(buf, sizeof buf, " (--max-time %g s ran out); raise --max-time or quiet the machine", p.max_time_s);
      why = buf;
    } else if (p.stopped_by == "cap") {
      why = " (the cap of -r auto); quiet the machine";
    } else if (p.repetitions_mode == "fixed") {
      why = "; use -r auto to repeat until it is, or more repetitions";
    }
    std::snprintf(buf, sizeof buf,
                  "row %zu: the 95 %% interval is ±%.1f %%, wider than the ±%g %% target, after %zu repetitions", row,
                  ci->half_width_pct, p.ci_target_pct, res->tps.n);
    notes_.push_back(buf + why);
  }

  int suites_ = 0;
};

// Every column of columns() (report/columns.h), raw values, through the table builder's csv
// lines: the header with the first record, then a line per record, each flushed.
class CsvPrinter final : public Printer {
 public:
  explicit CsvPrinter(std::ostream& out) : out_(out), table_(record_table()) {}
  void begin() override {}
  void add(const RunRecord& rec) override {
    if (table_.rows().empty()) out_ << csv_header(table_);
    std::vector<TableCell> cells;
    for (const auto& c : columns()) cells.push_back(TableCell::str(c.raw(rec)));
    table_.add_row(std::move(cells));
    out_ << csv_row(table_, table_.rows().size() - 1) << std::flush;
  }
  void end() override { out_ << std::flush; }

 private:
  static Table record_table() {
    std::vector<TableColumn> cols;
    for (const auto& c : columns()) {
      TableColumn t;
      t.key = c.key;
      t.header = c.header;
      cols.push_back(std::move(t));
    }
    return Table(std::move(cols));
  }
  std::ostream& out_;
  Table table_;
};

class JsonPrinter final : public Printer {
 public:
  explicit JsonPrinter(std::ostream& out) : out_(out) {}
  void begin() override {}
  void add(const RunRecord& rec) override {
    out_ << (first_ ? "[\n" : ",\n") << store::to_json(rec).dump(2) << std::flush;
    first_ = false;
  }
  void end() override { out_ << (first_ ? "[]\n" : "\n]\n") << std::flush; }

 private:
  std::ostream& out_;
  bool first_ = true;
};

class JsonlPrinter final : public Printer {
 public:
  explicit JsonlPrinter(std::ostream& out) : out_(out) {}
  void begin() override {}
  void add(const RunRecord& rec) override { out_ << store::to_json(rec).dump() << "\n" << std::flush; }
  void end() override { out_ << std::flush; }

 private:
  std::ostream& out_;
};

// SQL that SQLite runs as it is (`rigbench bench -o sql | sqlite3 results.db`), as
// llama-bench's sql printer: with the first record, a CREATE TABLE IF NOT EXISTS of every
// column (report/columns.h: the key is the column name, the ValueType its type), then one
// INSERT per record. Text is quoted ('' doubled), numbers are plain, an absent value (and a
// number that is not finite) is NULL. record_id is the primary key and the insert is OR
// IGNORE, so that loading the same records twice keeps one copy, as `rigbench import` does.
class SqlPrinter final : public Printer {
 public:
  explicit SqlPrinter(std::ostream& out) : out_(out) {}
  void begin() override {}
  void add(const RunRecord& rec) override {
    if (!created_) {
      out_ << create_table();
      created_ = true;
    }
    std::string names, values;
    for (const auto& c : columns()) {
      names += (names.empty() ? "" : ", ") + c.key;
      values += (values.empty() ? "" : ", ") + literal(c.type, c.raw(rec));
    }
    out_ << "INSERT OR IGNORE INTO " << kSqlTable << " (" << names << ") VALUES (" << values << ");\n" << std::flush;
  }
  void end() override { out_ << std::flush; }

 private:
  static std::string create_table() {
    std::string sql = std::string("CREATE TABLE IF NOT EXISTS ") + kSqlTable + " (\n";
    const auto& cols = columns();
    for (std::size_t i = 0; i < cols.size(); ++i) {
      sql += "  " + cols[i].key + " " + declared_type(cols[i].type) +
             (cols[i].key == "record_id" ? " PRIMARY KEY" : "") + (i + 1 < cols.size() ? ",\n" : "\n");
    }
    return sql + ");\n\n";
  }
  static const char* declared_type(ValueType type) {
    switch (type) {
      case ValueType::kInteger:
      case ValueType::kBool: return "INTEGER";
      case ValueType::kReal: return "REAL";
      case ValueType::kText: break;
    }
    return "TEXT";
  }
  static std::string literal(ValueType type, const std::string& raw) {
    if (raw.empty()) return "NULL";
    switch (type) {
      case ValueType::kBool: return raw == "true" ? "1" : raw == "false" ? "0" : "NULL";
      case ValueType::kInteger:
      case ValueType::kReal: {
        char* end = nullptr;
        const double v = std::strtod(raw.c_str(), &end);
        return *end == '\0' && std::isfinite(v) ? raw : "NULL";
      }
      case ValueType::kText: break;
    }
    std::string quoted = "'";
    for (const char ch : raw) {
      if (ch == '\0') continue;  // SQL text cannot hold NUL
      quoted += ch;
      if (ch == '\'') quoted += '\'';
    }
    return quoted + "'";
  }

  std::ostream& out_;
  bool created_ = false;
};

}  // namespace

std::unique_ptr<Printer> make_printer(OutputFormat format, std::ostream& out, PrinterOptions options) {
  switch (format) {
    case OutputFormat::kCsv: return std::make_unique<CsvPrinter>(out);
    case OutputFormat::kJson: return std::make_unique<JsonPrinter>(out);
    case OutputFormat::kJsonl: return std::make_unique<JsonlPrinter>(out);
    case OutputFormat::kSql: return std::make_unique<SqlPrinter>(out);
    case OutputFormat::kMarkdown: break;
  }
  return std::make_unique<MarkdownPrinter>(out, std::move(options));
}

}  // namespace rigbench::report
