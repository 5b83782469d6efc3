#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/strings.h"
#include "report/answers_html.h"
#include "report/compare_printers.h"
#include "report/comparison.h"
#include "report/embed_table.h"
#include "report/escape.h"
#include "report/html_parts.h"
#include "report/memory_usage.h"
#include "report/serve_html.h"
#include "report/served_overhead.h"

namespace rigbench::report {

namespace {

using html::chart_spec;
using html::Json;
using html::section_html;
using html::table_html;
using html::Td;
using html::Tr;
using html::words_td;

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 0.01 ? "%.4f %%" : "%.2f %%", v);
  return buf;
}

// Bars whose largest value is more than this many times the smallest are drawn on a log
// axis, so that a 1B model's 20 t/s stays visible beside a 260K model's 7000 t/s.
constexpr double kLogAxisSpread = 20;

// The smallest positive value of a chart's bars (infinity when none).
double smallest(const std::vector<Json>& data) {
  double lo = INFINITY;
  for (const Json& series : data) {
    for (const Json& v : series) {
      if (v.is_number() && v.get<double>() > 0) lo = std::min(lo, v.get<double>());
    }
  }
  return lo;
}

// The spread (largest / smallest positive value) of a chart's bars; 1 when fewer than two.
double spread(const std::vector<Json>& data) {
  double lo = INFINITY, hi = 0;
  for (const Json& series : data) {
    for (const Json& v : series) {
      if (!v.is_number()) continue;
      const double x = v.get<double>();
      if (x <= 0) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  return hi > 0 && std::isfinite(lo) ? hi / lo : 1;
}

// The noise notes of a section's cells (compare_printers.h noise_lines), under its table:
// what spoiled the figures beside them, each with what to do; "" when none.
std::string noise_html(const Comparison& cmp, Metric metric) {
  const std::vector<std::string> lines = noise_lines(cmp, metric);
  if (lines.empty()) return "";
  std::string h = "<p class=\"note\">Noise seen while these runs measured ([noise: ...] in a cell):</p><ul class=\"noise\">";
  for (const std::string& line : lines) h += "<li>" + html_escape(line) + "</li>";
  return h + "</ul>";
}

struct MetricSection {
  Metric metric;
  const char* id;
  const char* title;
  const char* y_title;
  const char* note;
};
constexpr MetricSection kMetricSections[] = {
    {Metric::kTg, "tg", "Token generation (tg)", "tokens/s",
     "Mean tokens/s per model and test, one bar per machine; higher is better."},
    {Metric::kPp, "pp", "Prompt processing (pp)", "tokens/s",
     "Mean tokens/s per model and test, one bar per machine; higher is better."},
    {Metric::kTtft, "ttft", "Time to first token (TTFT)", "ms",
     "Mean ms from the start of the prompt to the first token sampled; lower is better."},
    {Metric::kItl, "itl", "Per-token latency in tg", "ms",
     "Median ms per generated token (each token's decode) per model and test; the cells add the 90th, 95th and "
     "99th percentiles; lower is better."},
    {Metric::kSuiteGen, "suite-gen", "Prompt suites: generation", "tokens/s",
     "Median over the suite's prompts of each prompt's median generation tokens/s; the cells add the 90th, "
     "95th and 99th percentiles; higher is better. Suites of another name or content are other rows."},
    {Metric::kSuiteTtft, "suite-ttft", "Prompt suites: time to first token", "ms",
     "Median over the suite's prompts of each prompt's median TTFT; the cells add the 90th, 95th and 99th "
     "percentiles; lower is better."},
    {Metric::kEmbedLatency, "embed-latency", "Embedding latency at batch 1", "ms",
     "Median ms per query, one query per llama.cpp call (rigbench embed), per model and query set; the cells add "
     "the 90th, 95th and 99th percentiles; lower is better. The batch sweep is in the Embeddings table below."},
    {Metric::kTgEnergy, "energy", "Energy per generated token", "J/token",
     "Joules per token of the tg phase, per run; lower is better. Figures stated with --watts or estimated are "
     "shown apart from measured ones."},
    {Metric::kCost, "cost", "Electricity per million generated tokens", "per Mtok",
     "Gross electricity cost per million generated tokens at the price each run was given; lower is better."},
};

// A metric's chart and table from the by-machine comparison; "" when no row has it.
std::string metric_section(const Comparison& cmp, const MetricSection& s, const std::set<std::string>& currencies,
                           Json& charts) {
  // Rows of one model under several builds say which build each is.
  std::vector<std::string> head = {"model"};
  if (cmp.several_builds) head.push_back("build");
  head.push_back("test");
  for (std::size_t i = 0; i < cmp.columns.size(); ++i)
    head.push_back(cmp.columns[i] + (i == cmp.baseline ? " (baseline)" : ""));
  head.push_back("winner");
  std::vector<Tr> rows;
  std::vector<std::string> flags;  // the energy flags shown
  bool knobs_differ = false;       // a row's best configurations ran different knobs
  bool several_configs = false;    // a cell shows the best of several configurations
  Json labels = Json::array();
  std::vector<Json> data(cmp.columns.size(), Json::array());
  for (const Row& row : cmp.rows) {
    if (row.metric != s.metric) continue;
    labels.push_back(row.model + " · " + (cmp.several_builds ? row.build + " · " : "") + row.test);
    Tr tr = {words_td(row.model)};
    if (cmp.several_builds) tr.push_back({row.build});
    tr.push_back({row.test});
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& c = row.cells[i];
      const bool by_median = is_distribution(s.metric);
      data[i].push_back(c.state == CellState::kMeasured ? Json(by_median ? c.summary.median : c.summary.mean)
                                                        : Json(nullptr));
      // A distribution: p50, p90, p95, p99; with which configuration it is, as compare -o json gives it.
      // The cell wraps between its pieces where the table would be wider than the page.
      CellPieces cp = cell_pieces(cmp, row, i, percentiles_text(row.metric, c), true);
      several_configs = several_configs || c.n_configs > 1;
      flags.insert(flags.end(), c.energy_flags.begin(), c.energy_flags.end());
      tr.push_back({join(cp.pieces, " "), static_cast<int>(i) == row.winner, true, std::move(cp.pieces)});
    }
    tr.push_back(words_td(winner_text(cmp, row)));
    knobs_differ = knobs_differ || row.knobs_differ;
    rows.push_back(std::move(tr));
  }
  if (rows.empty()) return "";
  Json datasets = Json::array();
  for (std::size_t i = 0; i < cmp.columns.size(); ++i)
    datasets.push_back({{"label", cmp.columns[i]}, {"data", data[i]}});
  const std::string chart_id = std::string("chart-") + s.id;
  std::string y_title = s.y_title, unit = metric_info(s.metric).unit;
  if (s.metric == Metric::kCost) {
    // The axis names the currency ("EUR per Mtok"); several currencies are never mixed on one axis.
    const std::string named =
        currencies.size() == 1 ? *currencies.begin() : join({currencies.begin(), currencies.end()}, " or ");
    y_title = (currencies.empty() ? std::string("cost") : named) + " per Mtok" +
              (currencies.size() > 1 ? " (each bar in its row's currency)" : "");
    unit = (currencies.size() == 1 ? named + " " : std::string()) + "per Mtok";
  }
  Json spec = chart_spec(chart_id, s.title, y_title, unit, false, labels, datasets);
  const bool by_median = is_distribution(s.metric);
  const bool per_repetition = metric_info(s.metric).per_repetition;
  std::string note = std::string(s.note) + (by_median ? " Cells: p50 · p90 · p95 · p99" : " Cells: mean ± sd") +
                     (per_repetition ? " (± % of the mean: its 95 % interval)" : "") +
                     ", ×ratio to the baseline (> 1 is better).";
  if (const std::string f = energy_flags_note(flags); !f.empty()) note += " " + f;
  if (knobs_differ) note += " " + knobs_differ_note(cmp);
  if (several_configs) note += " " + best_of_note();
  for (const std::string& same : cmp.same_name_notes) note += " " + same + ".";
  const double ratio = spread(data);
  if (ratio > kLogAxisSpread) {
    spec["scale"] = "log";
    spec["y_title"] = y_title + " (log scale)";
    // The axis starts a power of ten at least 3 times below the smallest bar, so that bar
    // is never a sliver (Chart.js would start at the power of ten just below it).
    spec["y_min"] = std::pow(10.0, std::floor(std::log10(smallest(data) / 3)));
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  " Log axis (the largest bar is %.0f times the smallest): equal heights are equal ratios, and "
                  "each power of ten on it (1, 10, 100) is ten times the one below.",
                  ratio);
    note += buf;
  }
  charts.push_back(std::move(spec));
  return section_html(s.id, s.title, note, chart_id, table_html(head, rows) + noise_html(cmp, s.metric));
}

std::string memory_section(std::span<const RunRecord> records, const RecordIdentities& ids, Json& charts) {
  const std::vector<DeviceMemory> mem = memory_by_device(records, ids);
  if (mem.empty()) return "";
  Json labels = Json::array(), weights = Json::array(), kv = Json::array(), compute = Json::array();
  std::vector<Tr> rows;
  for (const DeviceMemory& d : mem) {
    labels.push_back(d.model + " · " + d.machine + " · " + d.device);
    const double cap = static_cast<double>(d.capacity_bytes);
    auto share = [cap](uint64_t b) { return cap > 0 ? Json(100.0 * static_cast<double>(b) / cap) : Json(nullptr); };
    weights.push_back(share(d.weights_bytes));
    kv.push_back(share(d.kv_bytes));
    compute.push_back(share(d.compute_bytes));
    rows.push_back({words_td(d.model),
                    words_td(d.machine),
                    {d.device},
                    {d.n_ctx > 0 ? std::to_string(d.n_ctx) : "-", false, true},  // 0: no context (embed)
                    {format_bytes(d.weights_bytes), false, true},
                    {format_bytes(d.kv_bytes), false, true},
                    {format_bytes(d.compute_bytes), false, true},
                    {format_bytes(d.total_bytes()), false, true},
                    {format_bytes(d.resident_bytes()), false, true},
                    {d.reclaimable_bytes > 0 ? format_bytes(d.reclaimable_bytes) : "-", false, true},
                    {cap > 0 ? format_bytes(d.capacity_bytes) : "unknown", false, true},
                    {cap > 0 ? percent(100.0 * static_cast<double>(d.resident_bytes()) / cap) : "-", false, true}});
  }
  Json datasets = Json::array({{{"label", "weights"}, {"data", weights}},
                               {{"label", "KV cache"}, {"data", kv}},
                               {{"label", "compute"}, {"data", compute}}});
  charts.push_back(chart_spec("chart-memory", "Memory fit per device", "% of the device's memory", "%", true, labels,
                              datasets, 100));
  return section_html(
      "memory", "Memory fit per device",
      "What llama.cpp allocated on each device (weights, KV cache, compute buffers), stacked as a share "
      "of the device's memory (RAM for the CPU); the largest stored run per model, machine and device. Resident: "
      "what the run holds; reclaimable: the mapped file's pages of weights llama.cpp repacked into a copy of its "
      "own (a CPU_REPACK buffer), clean page cache the kernel takes back under pressure. Used: resident over "
      "capacity.",
      "chart-memory",
      table_html({"model", "machine", "device", "n_ctx", "weights", "KV", "compute", "total", "resident",
                  "reclaimable", "capacity", "used"},
                 rows));
}

// Power over time of each run that sampled a meter (or a stated figure): a line per run.
std::string power_section(std::span<const RunRecord> records, Json& charts) {
  Json datasets = Json::array();
  std::vector<Tr> rows;
  std::vector<std::string> flags;  // the energy flags shown
  for (const RunRecord& rec : records) {
    const auto& trace = rec.energy.power_trace;
    if (trace.empty()) continue;
    Json points = Json::array();
    double sum = 0, peak = 0;
    for (const auto& [t, w] : trace) {
      points.push_back({{"x", t}, {"y", w}});
      sum += w;
      peak = std::max(peak, w);
    }
    // A figure given (--watts) or estimated is a constant, not a reading: drawn dashed and
    // labelled so, never like a measured trace.
    const bool not_measured = rec.energy.method == "stated" || rec.energy.method == "estimated";
    const std::string label = model_identity(rec).label + " · " + machine_identity(rec).label + " · " + rec.test_time +
                              (not_measured ? " (" + rec.energy.method + ")" : "");
    datasets.push_back({{"label", label}, {"data", points}, {"dashed", not_measured}});
    char avg[32], max[32], span[32];
    std::snprintf(avg, sizeof avg, "%.1f", sum / static_cast<double>(trace.size()));
    std::snprintf(max, sizeof max, "%.1f", peak);
    std::snprintf(span, sizeof span, "%.2f", trace.back().first);
    rows.push_back({words_td(model_identity(rec).label),
                    words_td(machine_identity(rec).label),
                    {rec.test_time},
                    {rec.energy.method},
                    {std::to_string(trace.size()), false, true},
                    {span, false, true},
                    {avg, false, true},
                    {max, false, true},
                    {rec.energy.flags.empty() ? "-" : join(rec.energy.flags, ", ")}});
    flags.insert(flags.end(), rec.energy.flags.begin(), rec.energy.flags.end());
  }
  if (rows.empty()) return "";
  Json spec = chart_spec("chart-power", "Power over time", "W", "W", false, Json::array(), datasets);
  spec["type"] = "line";
  spec["x_title"] = "seconds since the run's sampler started (idle window, warmup, repetitions)";
  charts.push_back(std::move(spec));
  return section_html(
      "power", "Power over time",
      "Watts between successive meter reads during each run that measured energy, from its idle baseline "
      "through the repetitions (at most 240 points per run; the method says how the watts were obtained). "
      "Dashed lines are a power stated with --watts or estimated from a TDP: a constant, not a reading." +
          (flags.empty() ? std::string() : " " + energy_flags_note(flags)),
      "chart-power",
      table_html({"model", "machine", "run", "method", "points", "seconds", "average W", "peak W", "flags"}, rows));
}

std::string machines_section(std::span<const RunRecord> records, const RecordIdentities& ids) {
  std::map<std::string, std::pair<const RunRecord*, int>> machines;  // label -> first record, count
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Identity& machine = ids.of(i).machine;
    auto& entry = machines[machine.label + '\x1f' + machine.key];
    if (!entry.first) entry.first = &records[i];
    entry.second += records[i].runs;  // a pooled record stands for its runs
  }
  std::vector<Tr> rows;
  for (const auto& [key, entry] : machines) {
    const MachineInfo& m = entry.first->machine;
    std::vector<std::string> gpus;
    for (const DeviceInfo& d : m.gpus) {
      gpus.push_back((d.description.empty() ? d.name : d.description) +
                     (d.memory_total_bytes ? " (" + format_bytes(d.memory_total_bytes) + ")" : ""));
    }
    // The name and the descriptions (CPU, GPUs, OS) may wrap at their spaces and hyphens.
    rows.push_back({words_td(machine_identity(*entry.first).label),
                    words_td(m.cpu),
                    {m.cores ? std::to_string(m.cores) + " / " + std::to_string(m.threads) : "-", false, true},
                    {m.ram_bytes ? format_bytes(m.ram_bytes) : "-", false, true},
                    words_td(gpus.empty() ? "-" : join(gpus, ", ")),
                    words_td(m.os.empty() ? "-" : m.os),
                    {join(m.backends, ", ")},
                    {std::to_string(entry.second), false, true}});
  }
  return section_html(
      "machines", "Machines", "", "",
      table_html({"machine", "CPU", "cores / threads", "RAM", "GPUs", "OS", "backends", "records"}, rows));
}

// Split runs (bench --rpc): each device that held layers, once per distinct setup that has a
// topology (record.h TopologyDevice). "" when no record has one.
std::string topology_section(std::span<const RunRecord> records, const RecordIdentities& ids) {
  std::vector<Tr> rows;
  std::set<std::size_t> seen;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].topology.empty() || !seen.insert(ids.setup(i)).second) continue;
    for (const TopologyDevice& t : records[i].topology) {
      const std::string memory = t.memory_total_bytes > 0 ? format_bytes(t.memory_free_bytes) + " free of " +
                                                                format_bytes(t.memory_total_bytes)
                                                          : "-";
      rows.push_back({{ids.of(i).model.label},
                      {ids.of(i).machine.label},
                      {t.endpoint.empty() ? "this machine" : t.endpoint},
                      {t.device},
                      {memory, false, true},
                      {std::to_string(t.n_layers) + (t.output_layer ? " + output" : ""), false, true},
                      {std::isfinite(t.rtt_ms) ? format_fixed(t.rtt_ms, 3) : "-", false, true}});
    }
  }
  if (rows.empty()) return "";
  return section_html("topology", "Split runs over machines",
                      "Runs split over rpc-servers (bench --rpc): each device that held layers, its memory as it "
                      "reported it before the run, the layers llama.cpp gave it, and the round trip measured before "
                      "the first run.",
                      "", table_html({"model", "machine", "endpoint", "device", "memory", "layers", "rtt ms"}, rows));
}

// bench and serve-bench of one model file side by side (report/served_overhead.h): the decode
// like for like, the whole request, TTFT; "" when no served run pairs with an in-process one.
std::string served_overhead_section(std::span<const RunRecord> records, const RecordIdentities& ids) {
  const std::vector<ServedOverhead> pairs = served_overheads(records, ids);
  if (pairs.empty()) return "";
  const Table t = served_overhead_table(pairs);
  std::string section = html::section_html("served-overhead", "In-process against served",
                                           t.preamble().empty() ? "" : t.preamble().front(), "", html::table_html(t));
  std::string footers;
  for (const std::string& f : t.footers()) footers += "<p class=\"note\">" + html_escape(f) + "</p>";
  section.insert(section.rfind("</section>"), footers);
  return section;
}

std::string regressions_section(const std::vector<Regression>& regs, double alpha) {
  char note[200];
  std::snprintf(note, sizeof note,
                "Same machine, model and knobs across builds; Welch's t-test on the per-sample values, one-sided, "
                "alpha %g.",
                alpha);
  if (regs.empty()) {
    return section_html("regressions", "Regressions",
                        std::string(note) +
                            " None to test: no machine ran the same model "
                            "and knobs under two builds.",
                        "", "");
  }
  std::vector<Tr> rows;
  for (const Regression& r : regs) {
    char change[32], p[32];
    std::snprintf(change, sizeof change, "%+.1f %%", 100 * r.change);
    std::snprintf(p, sizeof p, "%.4f", r.p_slower);
    rows.push_back({{r.machine},
                    words_td(r.model),
                    {r.test + " " + metric_info(r.metric).unit},
                    {r.from_build},
                    {r.to_build},
                    {change, false, true},
                    {r.verdict == Change::kTooFewSamples ? "-" : p, false, true},
                    {change_name(r.verdict), r.verdict == Change::kSlower}});
  }
  return section_html("regressions", "Regressions", note, "",
                      table_html({"machine", "model", "test", "from", "to", "change", "p (slower)", "verdict"}, rows));
}

// What "(synthetic vN, seed S)" after a model's name means, once at the end of the page,
// with the recipes and seeds that occur; "" when no model is synthetic.
std::string synthetic_footnote(std::span<const RunRecord> records, const RecordIdentities& ids) {
  std::set<std::string> seen;
  for (const RecordIdentities::Entry& e : ids.entries()) {
    const std::string part = synthetic_part(model_identity(records[e.first]).label);
    if (!part.empty()) seen.insert(part);
  }
  if (seen.empty()) return "";
  return "<section id=\"synthetic-note\"><h2>Note: synthetic models</h2><p class=\"note\">" +
         html_escape("A model labelled (" + *seen.begin() +
                     ") is a synthetic file written by `rigbench synth`: the real "
                     "model's tensors, types and metadata with random values, so its speed and memory are the real "
                     "model's and its text is noise. vN is the version of the values recipe (the GGUF key "
                     "rigbench.values): files of different recipes are compared apart. seed S is the seed its random "
                     "values were drawn from (rigbench synth --seed). Labels in this report: " +
                     join({seen.begin(), seen.end()}, "; ") + ".") +
         "</p></section>\n";
}

// Replaces each {{name}} of `page` once, in one pass, so no inserted text is read again.
Result<std::string> fill(const std::string& page, const std::map<std::string, std::string>& values) {
  std::string out;
  std::set<std::string> used;
  std::size_t pos = 0;
  for (std::size_t open; (open = page.find("{{", pos)) != std::string::npos;) {
    const std::size_t close = page.find("}}", open);
    if (close == std::string::npos) break;
    const std::string name = page.substr(open + 2, close - open - 2);
    auto it = values.find(name);
    if (it == values.end())
      return fail(ErrorCode::kInvalidInput, "report template: unknown placeholder {{" + name + "}}");
    out.append(page, pos, open - pos);
    out += it->second;
    used.insert(name);
    pos = close + 2;
  }
  out.append(page, pos, std::string::npos);
  for (const auto& [name, value] : values) {
    if (!used.count(name)) return fail(ErrorCode::kInvalidInput, "report template: no {{" + name + "}} placeholder");
  }
  return out;
}

// Script text that cannot end its <script> element early.
std::string script_safe(std::string js) {
  for (std::size_t at = 0; (at = js.find("</", at)) != std::string::npos; at += 3) {
    if (to_lower(js.substr(at + 2, 6)) == "script") js.replace(at, 2, "<\\/");
  }
  return js;
}

}  // namespace

Result<std::string> render_html_report(std::span<const RunRecord> records, const ReportAssets& assets,
                                       const HtmlReportOptions& options) {
  const RecordIdentities ids(records);  // once per distinct setup, for every section
  auto cmp = compare(records, CompareOptions{.alpha = options.alpha}, ids);
  if (!cmp) return std::unexpected(cmp.error());
  const std::vector<Regression> regs = find_regressions(records, options.alpha, ids);

  Json charts = Json::array();
  // First the sentences (report/reversals.h), then the charts; the tables the sentences link to after them.
  const AnswersHtml answers = answers_section_html(*cmp, records, options.answers);
  std::string body = answers.section;
  body += machines_section(records, ids);
  body += topology_section(records, ids);
  std::set<std::string> currencies;
  for (const RunRecord& rec : records) {
    if (rec.cost && !rec.cost->currency.empty()) currencies.insert(rec.cost->currency);
  }
  for (const MetricSection& s : kMetricSections) body += metric_section(*cmp, s, currencies, charts);
  body += memory_section(records, ids, charts);
  body += power_section(records, charts);
  body += embedding_section_html(records);  // report/embed_table.h
  body += serve_section_html(records, charts);  // report/serve_html.h
  body += served_overhead_section(records, ids);
  body += answers.tables;
  body += regressions_section(regs, options.alpha);
  std::string absent;
  for (const char* id : {"energy", "cost", "power"}) {
    if (body.find(std::string("<section id=\"") + id + "\">") == std::string::npos)
      absent += (absent.empty() ? "" : ", ") + std::string(id);
  }
  if (!absent.empty()) body += "<p class=\"note\">Not shown: " + absent + ", where no stored run measured it.</p>\n";
  body += synthetic_footnote(records, ids);

  std::set<std::string> models;
  for (const RecordIdentities::Entry& e : ids.entries()) models.insert(e.model.key);
  auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  std::size_t n_runs = 0;  // stored runs (a pooled record stands for RunRecord::runs)
  for (const RunRecord& rec : records) n_runs += static_cast<std::size_t>(std::max(rec.runs, 1));
  std::string generated = count(n_runs, "record") + ", " + count(cmp->columns.size(), "machine") + ", " +
                          count(models.size(), "model");
  if (!options.generated_at.empty()) generated += "; generated " + options.generated_at;
  if (body.find("<section id=\"synthetic-note\">") != std::string::npos) {
    generated += ". Models marked \"(synthetic vN, seed S)\" are synthetic files: see the note at the end";
  }

  const Json data = {{"schema_version", 1}, {"charts", charts}};
  return fill(assets.page_template,
              {{"title", html_escape(options.title)},
               {"generated", html_escape(generated)},
               {"body", body},
               {"data", json_for_script(data.dump(-1, ' ', false, Json::error_handler_t::replace))},
               {"chart_js", script_safe(assets.chart_js)},
               {"glue_js", script_safe(assets.glue_js)}});
}

}  // namespace rigbench::report
