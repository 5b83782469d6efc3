#include "report/comparison.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/knobs.h"
#include "core/rpc_endpoints.h"
#include "core/short_commit.h"
#include "core/strings.h"
#include "core/suite_stats.h"
#include "core/test_name.h"
#include "report/byte_signature.h"
#include "report/table.h"
#include "report/unique_labels.h"
#include "store/llama_bench_record.h"

namespace rigbench::report {

namespace {

// The metrics, in row order (all_metrics() lists the same). A record contributes the values
// of each metric it holds (metric_values()).
struct MetricDef {
  Metric metric;
  MetricInfo info;
};
constexpr MetricDef kMetrics[] = {
    {Metric::kPp, {"pp_tps", "t/s", true, true, true}},
    {Metric::kTg, {"tg_tps", "t/s", true, true, true}},
    {Metric::kTtft, {"ttft_ms", "ms", false, true, true}},
    {Metric::kTgEnergy, {"tg_j_per_token", "J/token", false, true, false}},
    {Metric::kCost, {"cost_per_mtok", "per Mtok", false, true, false}},
    {Metric::kMemory, {"memory_bytes", "bytes", false, false, false}},
    {Metric::kItl, {"itl_ms", "ms", false, true, false}},
    {Metric::kSuiteGen, {"suite_gen_tps", "t/s", true, true, false}},
    {Metric::kSuiteTtft, {"suite_ttft_ms", "ms", false, true, false}},
    {Metric::kEmbedLatency, {"embed_latency_ms", "ms", false, true, false}},
};

struct RowKey {
  std::string model, machine, build, knobs;
  int metric = 0, n = 0, depth = 0;
  std::string test;
  auto operator<=>(const RowKey&) const = default;
};

// One configuration of a cell: its knobs (knobs_label, knob_settings) and its values.
struct ConfigValues {
  std::string knobs;
  KnobSettings knob_settings;
  PooledValues values;
};
// Per column: configuration (Cell::config) -> its values.
using ColumnSamples = std::map<std::string, ConfigValues>;

// The configuration key of a run that was refused for memory (no samples).
constexpr const char* kRefusedConfig = "\x01refused";

Cell make_cell(const ColumnSamples& configs, const MetricInfo& info) {
  Cell cell;
  if (configs.empty()) return cell;
  if (configs.size() == 1 && configs.count(kRefusedConfig)) {
    cell.state = CellState::kWontFit;  // refused, and nothing else of this column ran it
    return cell;
  }
  const std::pair<const std::string, ConfigValues>* best = nullptr;
  Summary best_summary;
  for (const auto& entry : configs) {
    if (entry.first == kRefusedConfig) continue;
    const Summary summary = entry.second.values.summary();
    if (!best || (info.higher_is_better ? summary.mean > best_summary.mean : summary.mean < best_summary.mean)) {
      best = &entry;
      best_summary = summary;
    }
  }
  cell.state = CellState::kMeasured;
  cell.config = best->first;
  cell.knobs = best->second.knobs;
  cell.knob_settings = best->second.knob_settings;
  const PooledValues& shown = best->second.values;
  cell.samples = shown.samples;
  cell.summary = best_summary;
  cell.summary_only = shown.summary_only();
  cell.energy_flags = shown.flags;
  cell.noise = shown.noise;
  cell.noise_more = shown.noise_more;
  cell.ci_target_pct = shown.ci_target_pct;
  cell.n_configs = configs.size();
  return cell;
}

void rank(Row& row, const MetricInfo& info) {
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

// A cell's knobs without the ones its column's identity implies: by backend, where the layers
// ran (-ngl: CPU at 0, a GPU above) is the column, not a difference of setup.
KnobSettings knobs_beyond_column(const KnobSettings& settings, CompareBy by) {
  if (by != CompareBy::kBackend) return settings;
  const Knob* ngl = find_knob("n_gpu_layers");
  KnobSettings out;
  for (const KnobSetting& s : settings) {
    if (!ngl || s.name != ngl->header) out.push_back(s);
  }
  return out;
}

// Whether the measured cells of a row show configurations of different knobs.
bool knobs_differ(const Row& row, CompareBy by) {
  std::optional<KnobSettings> first;
  for (const Cell& c : row.cells) {
    if (c.state != CellState::kMeasured) continue;
    KnobSettings k = knobs_beyond_column(c.knob_settings, by);
    if (first && k != *first) return true;
    if (!first) first = std::move(k);
  }
  return false;
}

// Row::knobs_shown: each row's knobs among those that differ between the rows, in the order
// knobs_label first names them; a knob knobs_label leaves out at its default is named at that
// default (every row has every knob), a source's setting a row lacks as "-".
void set_knobs_shown(std::vector<Row>& rows) {
  std::vector<std::string> names;  // in the order the rows' labels first name them
  for (const Row& row : rows) {
    for (const KnobSetting& s : row.knob_settings) {
      if (s.in_label && std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
    }
  }
  auto value_of = [&](std::size_t i, const std::string& name) {
    const KnobSettings& settings = rows[i].knob_settings;
    const auto it = std::find_if(settings.begin(), settings.end(), [&](const KnobSetting& s) { return s.name == name; });
    return it != settings.end() ? it->value : std::string("-");  // a setting another llama-bench version recorded
  };
  for (const std::string& name : names) {
    bool varies = false;
    for (std::size_t i = 1; i < rows.size() && !varies; ++i) varies = value_of(i, name) != value_of(0, name);
    if (!varies) continue;
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i].knobs_shown += (rows[i].knobs_shown.empty() ? "" : " ") + name + "=" + value_of(i, name);
  }
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

// `suffix` follows the test: " in EUR" for cost, " (stated)" for energy that was not measured.
// `pg`: a -pg test's phase (core/test_name.h), named apart from a plain pp or tg test.
std::string test_label(Metric metric, int n, int depth, bool pg, const std::string& suffix) {
  switch (metric) {
    case Metric::kPp: return phase_test_name(true, n, pg, depth) + suffix;
    case Metric::kTg:
    case Metric::kTgEnergy:
    case Metric::kCost: return phase_test_name(false, n, pg, depth) + suffix;
    case Metric::kTtft: return "ttft " + phase_test_name(true, n, pg, depth) + suffix;
    case Metric::kItl: return "itl " + phase_test_name(false, n, pg, depth) + suffix;
    case Metric::kMemory: return n > 0 ? "n_ctx " + std::to_string(n) : "";  // 0: no context (embed)
    case Metric::kSuiteGen:
    case Metric::kSuiteTtft:
    case Metric::kEmbedLatency: return suffix;  // metric_values names the suite or the query set
  }
  return suffix;
}

// The values of one of `rec`'s tests: its name says whether it is a -pg test's phase.
MetricValues values(const RunRecord& rec, std::vector<double> samples, Metric metric, int n, int depth,
                    const std::string& suffix = "") {
  std::string test = test_label(metric, n, depth, pp_tg_test(rec), suffix);
  return MetricValues{std::move(samples), n, depth, std::move(test), std::nullopt, {}};
}

// " (stated)", " (estimated)", ...: energy that no meter read; "" for counter or integrated.
std::string unmeasured_suffix(const EnergyInfo& e) {
  for (const std::string& method : split(e.method, '+')) {
    if (method != "counter" && method != "integrated") return " (" + e.method + ")";
  }
  return "";
}

}  // namespace

namespace {

// What of a record's results decides its rows (metric_values: which metrics it holds, their
// tokens, depth and test label; whether it was refused), apart from its setup: records of
// one setup and one results shape have the same rows.
std::string results_shape(const RunRecord& rec) {
  std::string shape;
  shape.reserve(64);
  for (const auto* t : {&rec.results.pp, &rec.results.tg}) {
    shape.push_back(t->has_value() ? 1 : 0);
    if (!*t) continue;
    const ThroughputResult& r = **t;
    shape.append(reinterpret_cast<const char*>(&r.n_tokens), sizeof r.n_tokens);
    shape.push_back(r.summary_only ? 1 : 0);
    shape.push_back(r.samples_tps.empty() ? 1 : 0);
  }
  shape.push_back(rec.results.ttft && !rec.results.ttft->samples_ns.empty() ? 1 : 0);
  shape.push_back(rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token) ? 1 : 0);
  shape.push_back(rec.cost && std::isfinite(rec.cost->gross_per_mtok) ? 1 : 0);
  shape.push_back(rec.memory.buffers.empty() ? 1 : 0);
  shape.push_back(rec.refused.empty() ? 1 : 0);
  shape.push_back(rec.results.tg && !rec.results.tg->itl_ns.empty() ? 1 : 0);  // kItl
  const auto& embedding = rec.results.embedding;  // kEmbedLatency: its row names the query set and its size
  const bool embed_latency = embedding && !embedding->latency.samples_ns.empty();
  shape.push_back(embed_latency ? 1 : 0);
  if (embed_latency) shape.append(reinterpret_cast<const char*>(&embedding->n_queries), sizeof embedding->n_queries);
  // A prompt suite's rows name the suite (kSuiteGen, kSuiteTtft); a serve-bench run's name the
  // server and its load (metric_values).
  const Results& res = rec.results;
  const std::string suite =
      res.suite ? res.suite->name + '\x1f' + res.suite->hash + '\x1f' + std::to_string(res.suite->prompts.size()) : "";
  std::string server;
  if (rec.server) {
    const ServerRun& sv = *rec.server;
    server = std::to_string(sv.concurrency) + '\x1f' + std::to_string(sv.rate_rps) + '\x1f' + sv.software + '\x1f' +
             sv.version + '\x1f' + sv.api + '\x1f' + sv.url;
  }
  const std::string& currency = rec.cost ? rec.cost->currency : std::string();
  const std::string& query_set = embed_latency ? embedding->query_set : std::string();
  for (const std::string* text :
       {&rec.energy.method, &currency, &suite, static_cast<const std::string*>(&server), &query_set}) {
    const auto n = static_cast<uint32_t>(text->size());
    shape.append(reinterpret_cast<const char*>(&n), sizeof n);
    shape.append(*text);
  }
  return shape;
}

}  // namespace

namespace {

// A summary of unknown n (0) counts as 2 when pooled (PooledValues::summary).
Summary with_known_n(Summary s) {
  if (s.n == 0) s.n = 2;
  return s;
}

}  // namespace

void PooledValues::add(const MetricValues& v) {
  samples.insert(samples.end(), v.samples.begin(), v.samples.end());
  for (const std::string& f : v.flags) {
    const auto at = std::lower_bound(flags.begin(), flags.end(), f);
    if (at == flags.end() || *at != f) flags.insert(at, f);
  }
  if (v.stated) stated = stated ? combine(with_known_n(*stated), with_known_n(*v.stated)) : *v.stated;
}

namespace {

// The phase of a record's noise notes that concern a metric's rows ("" = none but the whole
// run's): TTFT is measured in the pp phase; ITL, energy and cost come from tg.
const char* noise_phase(Metric metric) {
  switch (metric) {
    case Metric::kPp:
    case Metric::kTtft: return "pp";
    case Metric::kTg:
    case Metric::kItl:
    case Metric::kTgEnergy:
    case Metric::kCost: return "tg";
    default: return "";
  }
}

// Adds the record's noise notes that concern `metric` and its interval target to `pooled`.
void add_noise_of(PooledValues& pooled, const RunRecord& rec, Metric metric) {
  const double target = rec.precision.ci_target_pct;
  if (std::isfinite(target) && !(pooled.ci_target_pct <= target)) pooled.ci_target_pct = target;
  if (rec.noise.empty() || metric == Metric::kMemory) return;
  const std::string phase = noise_phase(metric);
  for (const NoiseNote& n : rec.noise) {
    if (!n.phase.empty() && n.phase != phase) continue;
    const bool seen = std::any_of(pooled.noise.begin(), pooled.noise.end(), [&n](const NoiseNote& m) {
      return m.code == n.code && m.phase == n.phase && m.text == n.text;
    });
    if (seen) continue;
    if (pooled.noise.size() < kMaxCellNoise) pooled.noise.push_back(n);
    else ++pooled.noise_more;
  }
}

}  // namespace

bool PooledValues::add_values_of(const RunRecord& rec, Metric metric) {
  if (!add_samples_of(rec, metric)) return false;
  add_noise_of(*this, rec, metric);
  return true;
}

bool PooledValues::add_samples_of(const RunRecord& rec, Metric metric) {
  const Results& r = rec.results;
  switch (metric) {
    case Metric::kPp:
    case Metric::kTg: {
      const auto& t = metric == Metric::kPp ? r.pp : r.tg;
      if (!t || t->summary_only) break;  // summary-only: as metric_values states it, below
      if (t->samples_tps.empty()) return false;
      samples.insert(samples.end(), t->samples_tps.begin(), t->samples_tps.end());
      return true;
    }
    case Metric::kTtft:
      if (!r.ttft || r.ttft->samples_ns.empty()) return false;
      for (int64_t ns : r.ttft->samples_ns) samples.push_back(static_cast<double>(ns) / 1e6);  // to_milliseconds
      return true;
    default: break;  // one value per run: few
  }
  auto v = metric_values(rec, metric);
  if (!v) return false;
  // One value per run (energy, cost, memory, ITL): a record that stands for several runs
  // (RunRecord::runs, a pooled view) gives it once per run, as the runs one by one would.
  for (int k = 0; k < std::max(rec.runs, 1); ++k) add(*v);
  return true;
}

Summary PooledValues::summary() const {
  if (!stated) return summarize(samples);
  if (samples.empty()) return *stated;
  return combine(summarize(samples), with_known_n(*stated));
}

std::span<const Metric> all_metrics() {
  static constexpr Metric kAll[] = {Metric::kPp,       Metric::kTg,        Metric::kTtft,
                                    Metric::kTgEnergy, Metric::kCost,      Metric::kMemory,
                                    Metric::kItl,      Metric::kSuiteGen,  Metric::kSuiteTtft,
                                    Metric::kEmbedLatency};
  return kAll;
}

namespace {

std::optional<MetricValues> run_metric_values(const RunRecord& rec, Metric metric) {
  const Results& r = rec.results;
  switch (metric) {
    case Metric::kPp:
    case Metric::kTg: {
      const auto& t = metric == Metric::kPp ? r.pp : r.tg;
      if (!t) break;
      if (t->summary_only) {
        MetricValues v = values(rec, {}, metric, t->n_tokens, rec.params.n_depth);
        v.stated = t->tps;
        return v;
      }
      if (!t->samples_tps.empty()) return values(rec, t->samples_tps, metric, t->n_tokens, rec.params.n_depth);
      break;
    }
    case Metric::kTtft:
      if (r.ttft && !r.ttft->samples_ns.empty()) {
        return values(rec, to_milliseconds(r.ttft->samples_ns), metric, rec.params.n_prompt, rec.params.n_depth);
      }
      break;
    case Metric::kTgEnergy:
      if (r.tg && rec.energy.tg && std::isfinite(rec.energy.tg->j_per_token)) {
        MetricValues v = values(rec, {rec.energy.tg->j_per_token}, metric, r.tg->n_tokens, rec.params.n_depth,
                                unmeasured_suffix(rec.energy));
        v.flags = rec.energy.flags;
        return v;
      }
      break;
    case Metric::kCost:
      if (r.tg && rec.cost && std::isfinite(rec.cost->gross_per_mtok)) {
        MetricValues v = values(rec, {rec.cost->gross_per_mtok}, metric, r.tg->n_tokens, rec.params.n_depth,
                                " in " + rec.cost->currency + unmeasured_suffix(rec.energy));
        v.flags = rec.energy.flags;  // the cost is the energy's: the same doubts
        return v;
      }
      break;
    case Metric::kItl:
      if (r.tg && !r.tg->itl_ns.empty()) {
        return values(rec, to_milliseconds(r.tg->itl_ns), metric, r.tg->n_tokens, rec.params.n_depth);
      }
      break;
    case Metric::kSuiteGen:
    case Metric::kSuiteTtft: {
      if (!r.suite) break;
      const bool gen = metric == Metric::kSuiteGen;
      std::vector<double> medians = prompt_medians(*r.suite, gen ? "gen_tps" : "ttft_ms");
      if (medians.empty()) break;
      // "suite builtin [1a2b3c4d] gen": the name and the content hash's first 8 hex digits.
      const std::string& h = r.suite->hash;
      const std::string tag = h.substr(h.find(':') == std::string::npos ? 0 : h.find(':') + 1, 8);
      const std::string label = "suite " + r.suite->name + " [" + tag + "] " + (gen ? "gen" : "TTFT");
      return values(rec, std::move(medians), metric, static_cast<int>(r.suite->prompts.size()), 0, label);
    }
    case Metric::kEmbedLatency: {
      if (!r.embedding || r.embedding->latency.samples_ns.empty()) break;
      // "embed latency b1 builtin (343 queries)": the query set as given and its size.
      const EmbeddingResult& e = *r.embedding;
      const std::string label =
          "embed latency b1 " + e.query_set + " (" + std::to_string(e.n_queries) + " queries)";
      return values(rec, to_milliseconds(e.latency.samples_ns), metric, e.n_queries, 0, label);
    }
    case Metric::kMemory: {
      if (rec.memory.buffers.empty()) break;
      uint64_t total = 0;
      for (const auto& b : rec.memory.buffers) total += b.model_bytes + b.context_bytes + b.compute_bytes;
      // The context the run created, where it is a setting of the run (an embedding run has none).
      const int n_ctx = knob_applies(*find_knob("n_ctx"), rec) ? rec.params.n_ctx : 0;
      return values(rec, {static_cast<double>(total)}, metric, n_ctx, 0);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<MetricValues> metric_values(const RunRecord& rec, Metric metric) {
  auto v = run_metric_values(rec, metric);
  // serve-bench runs: the load, the server and its API are part of the row, so runs at
  // another concurrency or against another server are never pooled nor ranked together
  // ("tg16 @ c4 llama.cpp b7090 openai-completions http://127.0.0.1:8080").
  if (v && rec.server) {
    const ServerRun& s = *rec.server;
    v->test += " @ c" + std::to_string(s.concurrency);
    if (s.rate_rps > 0) v->test += " rate " + shortest(s.rate_rps);
    if (!s.software.empty()) v->test += " " + s.software;
    if (!s.version.empty()) v->test += " " + short_commit(s.version);  // llama-server's "b7090-<40 hex>"
    v->test += " " + s.api + " " + s.url;
  }
  return v;
}

std::optional<MeanInterval> cell_interval(Metric metric, const Cell& cell) {
  if (cell.state != CellState::kMeasured || !metric_info(metric).per_repetition) return std::nullopt;
  return mean_interval(cell.summary);
}

const MetricInfo& metric_info(Metric metric) {
  for (const MetricDef& d : kMetrics) {
    if (d.metric == metric) return d.info;
  }
  return kMetrics[0].info;
}

Result<Comparison> compare(std::span<const RunRecord> records, const CompareOptions& options) {
  return compare(records, options, RecordIdentities(records));
}

Result<Comparison> compare(std::span<const RunRecord> records, const CompareOptions& options,
                           const RecordIdentities& ids) {
  if (records.empty()) return fail(ErrorCode::kInvalidInput, "no records to compare");
  UniqueLabels machines, models, builds, backends, commits;
  std::set<std::string> tools;
  for (const RecordIdentities::Entry& e : ids.entries()) {
    machines.add(e.machine);
    models.add(e.model);
    builds.add(e.build);
    backends.add(e.backend);
    commits.add(e.commit);
    tools.insert(e.tool.key);
  }
  machines.finish();
  models.finish();
  builds.finish();
  backends.finish();
  commits.finish();
  // Several tools (rigbench, llama-bench imports) by machine, model or backend: the tool goes
  // with the column, the commit alone with the row, so one commit's runs line up side by side.
  const bool tool_columns = options.by != CompareBy::kBuild && tools.size() > 1;
  auto plain_column = [&](const RecordIdentities::Entry& e) -> Identity {
    switch (options.by) {
      case CompareBy::kMachine: return {e.machine.key, machines.of(e.machine.key)};
      case CompareBy::kModel: return {e.model.key, models.of(e.model.key)};
      case CompareBy::kBuild: return {e.build.key, builds.of(e.build.key)};
      case CompareBy::kBackend: break;
    }
    return {e.backend.key, backends.of(e.backend.key)};
  };
  auto column_identity = [&](const RecordIdentities::Entry& e) {
    Identity c = plain_column(e);
    if (tool_columns) c = {c.key + '\x1e' + e.tool.key, c.label + " \u00b7 " + e.tool.label};
    return c;
  };
  UniqueLabels tooled;
  for (const RecordIdentities::Entry& e : ids.entries()) tooled.add(column_identity(e));
  tooled.finish();

  Comparison cmp;
  cmp.by = options.by;
  cmp.same_name_notes = same_name_notes(machines, models);
  const UniqueLabels& column_labels = tooled;
  cmp.columns = column_labels.sorted();
  std::map<std::string, std::size_t> column_of;
  for (std::size_t i = 0; i < cmp.columns.size(); ++i) column_of[cmp.columns[i]] = i;
  auto baseline = find_baseline(cmp.columns, options.baseline, options.by);
  if (!baseline) return std::unexpected(baseline.error());
  cmp.baseline = *baseline;

  // Per row: its cells' configurations per column, and by build the knobs of the row.
  struct RowCells {
    std::vector<ColumnSamples> columns;
    KnobSettings knobs;
  };
  std::map<RowKey, RowCells> table;
  // Where a record's values go (metric -> pooled values of its row, column and
  // configuration), found once per setup and shape of results: the records that share both
  // go to the same cells.
  struct Destination {
    Metric metric;
    PooledValues* values;
  };
  std::unordered_map<std::string, std::vector<Destination>> destinations;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const RunRecord& rec = records[r];
    std::string where = results_shape(rec);
    append_raw(where, ids.setup(r));
    auto [dest, fresh] = destinations.try_emplace(std::move(where));
    if (fresh) {
      const RecordIdentities::Entry& id = ids.of(r);
      const std::string& machine = machines.of(id.machine.key);
      const std::string& model = models.of(id.model.key);
      const std::string& build = builds.of(id.build.key);
      const std::size_t col = column_of.at(tooled.of(column_identity(id).key));
      // The row's build: the commit alone where the tool is the column's.
      const std::string& row_build = tool_columns ? commits.of(id.commit.key) : build;
      // By backend, a cell pools the backend's runs on every machine: each machine is a configuration
      // of it (the best one is shown, and says which machine).
      const std::string config = options.by == CompareBy::kBuild     ? id.knobs
                                 : options.by == CompareBy::kBackend ? id.knobs + " build=" + build + " machine=" + machine
                                                                     : id.knobs + " build=" + build;
      for (const MetricDef& def : kMetrics) {
        auto c = metric_values(rec, def.metric);
        if (!rec.refused.empty() && (def.metric == Metric::kPp || def.metric == Metric::kTg)) {
          // A refused run has no samples: its pp and tg rows say "won't fit" for this column.
          const int n = def.metric == Metric::kPp ? rec.params.n_prompt : rec.params.n_gen;
          const int depth = rec.params.n_depth;
          if (n > 0)
            c = MetricValues{{}, n, depth, test_label(def.metric, n, depth, pp_tg_test(rec), ""), std::nullopt, {}};
        }
        if (!c) continue;
        // By build the knobs are part of the row: builds are compared like for like.
        RowKey key{options.by == CompareBy::kModel ? "" : model,
                   options.by == CompareBy::kMachine || options.by == CompareBy::kBackend ? "" : machine,
                   options.by == CompareBy::kBuild ? "" : row_build,
                   options.by == CompareBy::kBuild ? id.knobs : "",
                   static_cast<int>(def.metric),
                   c->n,
                   c->depth,
                   c->test};
        RowCells& row = table[key];
        if (row.columns.empty()) {
          row.columns.resize(cmp.columns.size());
          if (options.by == CompareBy::kBuild) row.knobs = id.knob_settings;
        }
        ConfigValues& cv = row.columns[col][rec.refused.empty() ? config : std::string(kRefusedConfig)];
        cv.knobs = id.knobs;
        cv.knob_settings = id.knob_settings;
        dest->second.push_back({def.metric, &cv.values});
      }
    }
    for (const Destination& d : dest->second) {
      // A refused run adds no values to its pp and tg rows (their cell says "won't fit").
      if (!rec.refused.empty() && (d.metric == Metric::kPp || d.metric == Metric::kTg)) continue;
      d.values->add_values_of(rec, d.metric);
    }
  }

  for (const auto& [key, cells] : table) {
    Row row;
    row.machine = key.machine;
    row.model = key.model;
    row.build = key.build;
    row.knobs = key.knobs;
    row.knob_settings = cells.knobs;
    row.metric = static_cast<Metric>(key.metric);
    row.test = key.test;
    const MetricInfo& info = metric_info(row.metric);
    for (const ColumnSamples& configs : cells.columns) row.cells.push_back(make_cell(configs, info));
    row.knobs_differ = knobs_differ(row, options.by);
    rank(row, info);
    set_ratios(row, info, cmp.baseline);
    cmp.rows.push_back(std::move(row));
  }
  for (const Row& row : cmp.rows) {
    cmp.several_builds = cmp.several_builds || row.build != cmp.rows.front().build;
    cmp.several_knobs = cmp.several_knobs || row.knob_settings != cmp.rows.front().knob_settings;
  }
  if (cmp.several_knobs) set_knobs_shown(cmp.rows);
  return cmp;
}

}  // namespace rigbench::report
