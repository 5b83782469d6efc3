#include "report/columns.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/knobs.h"
#include "core/noise_note.h"
#include "core/significance.h"
#include "core/strings.h"
#include "core/suite_stats.h"
#include "core/test_name.h"
#include "report/comparison.h"

namespace rigbench::report {

namespace {

std::string num(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
// Shortest decimal form that reads back as the same double.
std::string full(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}
template <typename T>
std::string str(T v) {
  return std::to_string(v);
}

// A figure that may be unmeasured (NaN): "" in CSV, "-" in the table.
std::string opt(double v) { return std::isfinite(v) ? full(v) : std::string(); }
std::string opt_pretty(double v, int decimals) { return std::isfinite(v) ? num(v, decimals) : std::string("-"); }

// The backend column: the ggml devices that held the layers (RunRecord::devices_used); for a
// llama-bench import, which records no devices, the backends llama-bench recorded (its own
// table's backend column, MachineInfo::backends: "CPU", "CUDA", "Vulkan,BLAS"); "" when neither.
std::string backend_text(const RunRecord& r) {
  if (!r.devices_used.empty()) return join(r.devices_used, ",");
  return from_llama_bench(r) ? join(r.machine.backends, ",") : std::string();
}

std::string mib(uint64_t bytes) { return num(static_cast<double>(bytes) / (1024.0 * 1024.0), 2); }

uint64_t sum_buffers(const RunRecord& r, uint64_t BufferMemory::*field) {
  uint64_t total = 0;
  for (const auto& b : r.memory.buffers) total += b.*field;
  return total;
}

// "avg ± stddev" of a throughput, or "-" when the test did not run.
std::string rate(const std::optional<ThroughputResult>& t) {
  return t ? num(t->tps.mean, 2) + " ± " + num(t->tps.stddev, 2) : "-";
}

using Get = std::function<std::string(const RunRecord&)>;
constexpr InTable kAlways = InTable::kAlways, kIfAsked = InTable::kIfAsked, kNever = InTable::kNever;

constexpr ValueType kText = ValueType::kText, kInteger = ValueType::kInteger, kReal = ValueType::kReal,
                    kBool = ValueType::kBool;

Column col(std::string key, std::string header, InTable in_table, ValueType type, Get raw, Get pretty = {}) {
  return Column{std::move(key), std::move(header), in_table, type, std::move(raw), std::move(pretty)};
}
void append(std::vector<Column>& out, std::vector<Column> more) {
  for (Column& c : more) out.push_back(std::move(c));
}

// A statistic of pp's or tg's tokens/s, its shortest form: "" when the test did not run.
Column tps_stat(std::string key, std::string header, std::optional<ThroughputResult> Results::*test,
                double Summary::*stat) {
  return col(std::move(key), std::move(header), kNever, kReal, [test, stat](const RunRecord& r) {
    const auto& t = r.results.*test;
    return t ? full(t->tps.*stat) : std::string();
  });
}
// A percentile of pp's or tg's tokens/s: "" when the test did not run or it is unmeasured.
Column pct(std::string key, std::string header, std::optional<ThroughputResult> Results::*test, double Summary::*stat) {
  return col(std::move(key), std::move(header), kNever, kReal, [test, stat](const RunRecord& r) {
    const auto& t = r.results.*test;
    return t ? opt(t->tps.*stat) : std::string();
  });
}
// The 95 % interval of the mean t/s of pp or tg (core/significance.h mean_interval, as the
// record's ci95_* in JSON): its low or high end in t/s, or its half width in % of the mean;
// "" when the test did not run or has fewer than 2 samples.
Column ci95(std::string key, std::string header, std::optional<ThroughputResult> Results::*test,
            double MeanInterval::*end) {
  return col(std::move(key), std::move(header), kNever, kReal, [test, end](const RunRecord& r) {
    const auto& t = r.results.*test;
    if (!t) return std::string();
    const auto ci = mean_interval(t->tps);
    return ci ? opt((*ci).*end) : std::string();
  });
}

// The spread of pp's or tg's tokens/s, the CSV's columns after `<t>_avg_tps`: sd, median,
// p50 to p99 and the 95 % interval of the mean; none shown in the table.
std::vector<Column> tps_spread(const std::string& t, std::optional<ThroughputResult> Results::*test) {
  return {
      tps_stat(t + "_stddev_tps", t + " sd", test, &Summary::stddev),
      tps_stat(t + "_median_tps", t + " median", test, &Summary::median),
      pct(t + "_p50_tps", t + " p50", test, &Summary::median),
      pct(t + "_p90_tps", t + " p90", test, &Summary::p90),
      pct(t + "_p95_tps", t + " p95", test, &Summary::p95),
      pct(t + "_p99_tps", t + " p99", test, &Summary::p99),
      ci95(t + "_ci95_low_tps", t + " ci95 low", test, &MeanInterval::low),
      ci95(t + "_ci95_high_tps", t + " ci95 high", test, &MeanInterval::high),
      ci95(t + "_ci95_pct", t + " ci95 ±%", test, &MeanInterval::half_width_pct),
  };
}

// pp's or tg's columns: its size (`n_key`; "pp512" in the table), its mean t/s ("avg ± sd"
// in the table), `after_avg`, then its spread.
std::vector<Column> test_tps_columns(const std::string& t, const char* n_key, int BenchParams::*n,
                                     std::optional<ThroughputResult> Results::*test,
                                     std::vector<Column> after_avg = {}) {
  std::vector<Column> out = {
      col(
          n_key, t, kAlways, kInteger, [n](const RunRecord& r) { return str(r.params.*n); },
          [t, n](const RunRecord& r) { return r.params.*n ? t + str(r.params.*n) : std::string("-"); }),
      col(
          t + "_avg_tps", t + " t/s", kAlways, kReal,
          [test](const RunRecord& r) { return r.results.*test ? full((r.results.*test)->tps.mean) : ""; },
          [test](const RunRecord& r) { return rate(r.results.*test); }),
  };
  append(out, std::move(after_avg));
  append(out, tps_spread(t, test));
  return out;
}

// A kind of the buffers llama.cpp reserved, summed over the devices: bytes in CSV, MiB in the table.
Column buffer_col(const char* key, const char* header, uint64_t BufferMemory::*field) {
  return col(
      key, header, kAlways, kInteger, [field](const RunRecord& r) { return str(sum_buffers(r, field)); },
      [field](const RunRecord& r) { return mib(sum_buffers(r, field)); });
}

// The record's noise notes (measure/noise.h), "phase: note; remedy" each, " | " between them.
std::string noise_notes(const RunRecord& r) {
  std::string out;
  for (const NoiseNote& n : r.noise) {
    out += (out.empty() ? "" : " | ") + noise_note_text(n);
  }
  return out;
}

// A statistic of tg's per-token latency, ms: "" when no token was timed.
Column itl(const char* key, const char* header, double Summary::*stat) {
  return col(key, header, kNever, kReal, [stat](const RunRecord& r) {
    return r.results.tg && r.results.tg->itl_ms.n > 0 ? opt(r.results.tg->itl_ms.*stat) : std::string();
  });
}
Column ttft(const char* key, const char* header, double Summary::*stat) {
  return col(key, header, kNever, kReal,
             [stat](const RunRecord& r) { return r.results.ttft ? opt(r.results.ttft->ms.*stat) : std::string(); });
}
// A statistic over a suite's per-prompt medians (core/suite_stats.h).
Column suite_col(const char* key, const char* header, Summary SuiteFigures::*figure, double Summary::*stat) {
  return col(key, header, kNever, kReal, [figure, stat](const RunRecord& r) {
    return r.results.suite ? opt(suite_figures(*r.results.suite).*figure.*stat) : std::string();
  });
}

// A column per knob (core/knobs.h), in the knobs' order.
std::vector<Column> knob_columns() {
  std::vector<Column> out;
  for (const Knob& k : knobs()) {
    out.push_back(col(k.key.c_str(), k.header.c_str(), k.always_shown ? kAlways : kIfAsked,
                      k.type == Knob::Type::kInt ? kInteger : kText,
                      [&k](const RunRecord& r) { return knob_text(k, r.params); }));
  }
  return out;
}

std::vector<Column> make_columns() {
  std::vector<Column> head = {
      col(
          "model_name", "model", kAlways, kText, [](const RunRecord& r) { return r.model.name; },
          [](const RunRecord& r) { return r.model.synthetic ? r.model.name + " (synthetic)" : r.model.name; }),
      col("model_file", "file", kIfAsked, kText,
          [](const RunRecord& r) { return std::filesystem::path(r.model.path).filename().string(); }),
      col("model_file_type", "type", kAlways, kText, [](const RunRecord& r) { return r.model.file_type; }),
      col(
          "model_size_bytes", "size", kAlways, kInteger, [](const RunRecord& r) { return str(r.model.size_bytes); },
          [](const RunRecord& r) { return format_bytes(r.model.size_bytes); }),
      col(
          "model_n_params", "params", kAlways, kInteger, [](const RunRecord& r) { return str(r.model.n_params); },
          [](const RunRecord& r) { return format_count(r.model.n_params); }),
      col("model_synthetic", "synthetic", kNever, kBool,
          [](const RunRecord& r) { return std::string(r.model.synthetic ? "true" : "false"); }),
      col("backends", "backend", kAlways, kText, backend_text),
  };
  // tg's roofline bound and the share of it reached, after tg's mean.
  std::vector<Column> tg_bound = {
      col(
          "tg_bound_tps", "tg bound t/s", kAlways, kReal,
          [](const RunRecord& r) { return r.roofline.tg_bound_tps > 0 ? full(r.roofline.tg_bound_tps) : ""; },
          [](const RunRecord& r) {
            return r.roofline.tg_bound_tps > 0 ? "<= " + num(r.roofline.tg_bound_tps, 1) : std::string("-");
          }),
      col(
          "tg_fraction_of_bound", "tg/bound", kAlways, kReal,
          [](const RunRecord& r) {
            return r.results.tg && r.roofline.tg_bound_tps > 0 ? full(r.results.tg->tps.mean / r.roofline.tg_bound_tps)
                                                               : "";
          },
          [](const RunRecord& r) {
            return r.results.tg && r.roofline.tg_bound_tps > 0
                       ? num(100.0 * r.results.tg->tps.mean / r.roofline.tg_bound_tps, 0) + " %"
                       : std::string("-");
          }),
  };
  std::vector<Column> tail = {
      itl("itl_avg_ms", "ITL ms", &Summary::mean),
      itl("itl_stddev_ms", "ITL sd", &Summary::stddev),
      itl("itl_p50_ms", "ITL p50", &Summary::median),
      itl("itl_p90_ms", "ITL p90", &Summary::p90),
      itl("itl_p95_ms", "ITL p95", &Summary::p95),
      itl("itl_p99_ms", "ITL p99", &Summary::p99),
      col(
          "ttft_avg_ms", "TTFT ms", kAlways, kReal,
          [](const RunRecord& r) { return r.results.ttft ? full(r.results.ttft->ms.mean) : ""; },
          [](const RunRecord& r) {
            return r.results.ttft ? num(r.results.ttft->ms.mean, 2) + " ± " + num(r.results.ttft->ms.stddev, 2) : "-";
          }),
      col("ttft_stddev_ms", "TTFT sd", kNever, kReal,
          [](const RunRecord& r) { return r.results.ttft ? full(r.results.ttft->ms.stddev) : ""; }),
      ttft("ttft_p50_ms", "TTFT p50", &Summary::median),
      ttft("ttft_p90_ms", "TTFT p90", &Summary::p90),
      ttft("ttft_p95_ms", "TTFT p95", &Summary::p95),
      ttft("ttft_p99_ms", "TTFT p99", &Summary::p99),
      col("suite_name", "suite", kNever, kText,
          [](const RunRecord& r) { return r.results.suite ? r.results.suite->name : std::string(); }),
      col("suite_hash", "suite hash", kNever, kText,
          [](const RunRecord& r) { return r.results.suite ? r.results.suite->hash : std::string(); }),
      col("suite_runs", "suite runs", kNever, kInteger,
          [](const RunRecord& r) { return r.results.suite ? str(r.results.suite->runs) : std::string(); }),
      col("suite_n_prompts", "prompts", kNever, kInteger,
          [](const RunRecord& r) { return r.results.suite ? str(r.results.suite->prompts.size()) : std::string(); }),
      suite_col("suite_gen_p50_tps", "gen t/s p50", &SuiteFigures::gen_tps, &Summary::median),
      suite_col("suite_gen_p95_tps", "gen t/s p95 (fast)", &SuiteFigures::gen_tps, &Summary::p95),
      suite_col("suite_ttft_p50_ms", "TTFT p50", &SuiteFigures::ttft_ms, &Summary::median),
      suite_col("suite_ttft_p95_ms", "TTFT p95", &SuiteFigures::ttft_ms, &Summary::p95),
      col("energy_method", "energy", kIfAsked, kText, [](const RunRecord& r) { return r.energy.method; }),
      col(
          "idle_power_w", "idle W", kIfAsked, kReal, [](const RunRecord& r) { return opt(r.energy.idle_power_w); },
          [](const RunRecord& r) { return opt_pretty(r.energy.idle_power_w, 1); }),
      col(
          "tg_power_w", "tg W", kIfAsked, kReal,
          [](const RunRecord& r) { return r.energy.tg ? opt(r.energy.tg->power_w) : ""; },
          [](const RunRecord& r) { return r.energy.tg ? opt_pretty(r.energy.tg->power_w, 1) : std::string("-"); }),
      col(
          "pp_j_per_token", "pp J/token", kIfAsked, kReal,
          [](const RunRecord& r) { return r.energy.pp ? opt(r.energy.pp->j_per_token) : ""; },
          [](const RunRecord& r) { return r.energy.pp ? opt_pretty(r.energy.pp->j_per_token, 4) : std::string("-"); }),
      col(
          "tg_j_per_token", "tg J/token", kIfAsked, kReal,
          [](const RunRecord& r) { return r.energy.tg ? opt(r.energy.tg->j_per_token) : ""; },
          [](const RunRecord& r) { return r.energy.tg ? opt_pretty(r.energy.tg->j_per_token, 4) : std::string("-"); }),
      col("cost_currency", "currency", kNever, kText,
          [](const RunRecord& r) { return r.cost ? r.cost->currency : std::string(); }),
      col(
          "cost_gross_per_mtok", "cost/Mtok", kIfAsked, kReal,
          [](const RunRecord& r) { return r.cost ? opt(r.cost->gross_per_mtok) : ""; },
          [](const RunRecord& r) {
            return r.cost ? opt_pretty(r.cost->gross_per_mtok, 4) + " " + r.cost->currency : std::string("-");
          }),
      col("cost_marginal_per_mtok", "marginal/Mtok", kNever, kReal,
          [](const RunRecord& r) { return r.cost ? opt(r.cost->marginal_per_mtok) : ""; }),
      col(
          "cost_total_per_mtok", "total/Mtok", kIfAsked, kReal,
          [](const RunRecord& r) { return r.cost ? opt(r.cost->total_per_mtok) : ""; },
          [](const RunRecord& r) { return r.cost ? opt_pretty(r.cost->total_per_mtok, 4) : std::string("-"); }),
      buffer_col("model_bytes", "model MiB", &BufferMemory::model_bytes),
      buffer_col("context_bytes", "KV MiB", &BufferMemory::context_bytes),
      buffer_col("compute_bytes", "compute MiB", &BufferMemory::compute_bytes),
      col(
          "peak_rss_bytes", "peak RSS MiB", kAlways, kInteger,
          [](const RunRecord& r) { return str(r.memory.peak_rss_bytes); },
          [](const RunRecord& r) { return mib(r.memory.peak_rss_bytes); }),
      col("repetitions", "reps", kNever, kInteger, [](const RunRecord& r) { return str(r.params.repetitions); }),
      col("n_samples", "samples", kNever, kInteger,
          [](const RunRecord& r) {
            return str(r.results.pp ? r.results.pp->tps.n : r.results.tg ? r.results.tg->tps.n : 0);
          }),
      // How the repetitions were decided and whether the interval reached its target (the
      // record's `precision`), and its noise notes (`noise`: the codes, then the notes).
      col("repetitions_mode", "reps mode", kNever, kText,
          [](const RunRecord& r) { return r.precision.repetitions_mode; }),
      col("ci_target_pct", "ci target ±%", kNever, kReal, [](const RunRecord& r) { return opt(r.precision.ci_target_pct); }),
      col("max_time_s", "max time s", kNever, kReal, [](const RunRecord& r) { return opt(r.precision.max_time_s); }),
      col("ci_reached", "ci reached", kNever, kBool,
          [](const RunRecord& r) { return std::string(r.precision.reached ? "true" : "false"); }),
      col("stopped_by", "stopped by", kNever, kText, [](const RunRecord& r) { return r.precision.stopped_by; }),
      col("noise_codes", "noise", kNever, kText,
          [](const RunRecord& r) {
            std::vector<std::string> codes;
            for (const NoiseNote& n : r.noise) {
              if (std::find(codes.begin(), codes.end(), n.code) == codes.end()) codes.push_back(n.code);
            }
            return join(codes, ";");
          }),
      col("noise_notes", "noise notes", kNever, kText, noise_notes),
      col("status", "status", kNever, kText, [](const RunRecord& r) { return std::string(run_status(r)); }),
      col("interrupted", "interrupted", kNever, kBool,
          [](const RunRecord& r) { return std::string(r.interrupted ? "true" : "false"); }),
      col("refused", "refused", kNever, kText, [](const RunRecord& r) { return r.refused; }),
      col("failed", "failed", kNever, kText, [](const RunRecord& r) { return r.failed; }),
      col("model_fingerprint", "fingerprint", kNever, kText, [](const RunRecord& r) { return r.model.fingerprint; }),
      col("tags", "tags", kNever, kText, [](const RunRecord& r) { return join(r.tags, ";"); }),
      col("cpu", "cpu", kNever, kText, [](const RunRecord& r) { return r.machine.cpu; }),
      col("test_time", "time", kNever, kText, [](const RunRecord& r) { return r.test_time; }),
      col("llama_cpp_commit", "llama.cpp", kNever, kText, [](const RunRecord& r) { return r.build.llama_cpp_commit; }),
      col("rigbench_version", "rigbench", kNever, kText, [](const RunRecord& r) { return r.build.rigbench_version; }),
      col("record_id", "record", kNever, kText, [](const RunRecord& r) { return r.record_id; }),
  };
  append(head, knob_columns());
  append(head, test_tps_columns("pp", "n_prompt", &BenchParams::n_prompt, &Results::pp));
  append(head, test_tps_columns("tg", "n_gen", &BenchParams::n_gen, &Results::tg, std::move(tg_bound)));
  append(head, std::move(tail));
  return head;
}

}  // namespace

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns = make_columns();
  return kColumns;
}

std::vector<Phase> row_phases(const RunRecord& rec) {
  std::vector<Phase> out;
  const bool ran = run_status(rec) == std::string("ok") || run_status(rec) == std::string("interrupted");
  if (ran ? rec.results.pp.has_value() : rec.params.n_prompt > 0) out.push_back(Phase::kPp);
  if (ran ? rec.results.tg.has_value() : rec.params.n_gen > 0) out.push_back(Phase::kTg);
  return out;
}

namespace {

using Cell = std::function<std::string(const RunRecord&, Phase)>;

TestColumn tcol(const char* key, const char* header, InTable in_table, bool wide_only, Cell cell) {
  return TestColumn{key, header, in_table, wide_only, std::move(cell)};
}

const std::optional<ThroughputResult>& phase_result(const RunRecord& r, Phase ph) {
  return ph == Phase::kPp ? r.results.pp : r.results.tg;
}
const std::optional<PhaseEnergyInfo>& phase_energy(const RunRecord& r, Phase ph) {
  return ph == Phase::kPp ? r.energy.pp : r.energy.tg;
}

// "pp512", "tg128", "pp512 @ d4096" (llama-bench's test names); the phases of a -pg test
// "pp512 (pg)" and "tg128 (pg)".
std::string test_name(const RunRecord& r, Phase ph) {
  const bool pp = ph == Phase::kPp;
  return phase_test_name(pp, pp ? r.params.n_prompt : r.params.n_gen, pp_tg_test(r), r.params.n_depth);
}

// A statistic of the row's latency distribution, ms: TTFT on a pp row, each generated token's
// latency on a tg row; "-" when the row has none.
TestColumn row_latency(const char* key, const char* header, bool wide_only, double Summary::*stat) {
  return tcol(key, header, kAlways, wide_only, [stat](const RunRecord& r, Phase ph) {
    if (ph == Phase::kPp) return r.results.ttft ? opt_pretty(r.results.ttft->ms.*stat, 2) : std::string("-");
    return r.results.tg && r.results.tg->itl_ms.n > 0 ? opt_pretty(r.results.tg->itl_ms.*stat, 2) : std::string("-");
  });
}
// A statistic of the row's tokens/s (wide view).
TestColumn row_rate(const char* key, const char* header, double Summary::*stat) {
  return tcol(key, header, kAlways, true, [stat](const RunRecord& r, Phase ph) {
    const auto& t = phase_result(r, ph);
    return t ? opt_pretty(t->tps.*stat, 2) : std::string("-");
  });
}

std::vector<TestColumn> make_test_columns() {
  std::vector<TestColumn> out = {
      tcol("model_name", "model", kAlways, false,
           [](const RunRecord& r, Phase) {
             std::string name = r.model.name + (r.model.file_type.empty() ? "" : " " + r.model.file_type);
             return r.model.synthetic ? name + " (synthetic)" : name;
           }),
      tcol("model_file", "file", kIfAsked, false,
           [](const RunRecord& r, Phase) { return std::filesystem::path(r.model.path).filename().string(); }),
      tcol("model_size_bytes", "size", kAlways, false,
           [](const RunRecord& r, Phase) { return format_bytes(r.model.size_bytes); }),
      tcol("model_n_params", "params", kAlways, true,
           [](const RunRecord& r, Phase) { return format_count(r.model.n_params); }),
      tcol("backends", "backend", kAlways, false,
           [](const RunRecord& r, Phase) {
             const std::string b = backend_text(r);
             return b.empty() ? std::string("-") : b;
           }),
  };
  for (const Knob& k : knobs()) {
    if (k.key == "n_depth") continue;  // in the test's name, as llama-bench shows it
    out.push_back(tcol(k.key.c_str(), k.header.c_str(), k.always_shown ? kAlways : kIfAsked, false,
                       [&k](const RunRecord& r, Phase) { return knob_text(k, r.params); }));
  }
  std::vector<TestColumn> tail = {
      tcol("test", "test", kAlways, false, test_name),
      tcol("avg_tps", "t/s", kAlways, false,
           [](const RunRecord& r, Phase ph) {
             if (!r.refused.empty()) return std::string("refused");
             if (!r.failed.empty()) return std::string("failed");
             return rate(phase_result(r, ph));
           }),
      row_rate("rate_p50_tps", "p50 t/s", &Summary::median),
      row_rate("rate_p95_tps", "p95 t/s", &Summary::p95),
      tcol("ttft_avg_ms", "TTFT ms", kAlways, false,
           [](const RunRecord& r, Phase ph) {
             return ph == Phase::kPp && r.results.ttft ? num(r.results.ttft->ms.mean, 2) : std::string("-");
           }),
      tcol("ttft_stddev_ms", "TTFT sd", kAlways, true,
           [](const RunRecord& r, Phase ph) {
             return ph == Phase::kPp && r.results.ttft ? num(r.results.ttft->ms.stddev, 2) : std::string("-");
           }),
      row_latency("latency_p50_ms", "p50 ms", true, &Summary::median),
      row_latency("latency_p90_ms", "p90 ms", true, &Summary::p90),
      row_latency("latency_p95_ms", "p95 ms", true, &Summary::p95),
      row_latency("latency_p99_ms", "p99 ms", false, &Summary::p99),
      // In md's default view the bound is a footer (MarkdownPrinter): its column made the aligned
      // table wider than 120 columns.
      tcol("tg_bound_tps", "tg bound t/s", kAlways, true,
           [](const RunRecord& r, Phase ph) {
             return ph == Phase::kTg && r.roofline.tg_bound_tps > 0 ? "<= " + num(r.roofline.tg_bound_tps, 1)
                                                                    : std::string("-");
           }),
      tcol("tg_fraction_of_bound", "of bound", kAlways, true,
           [](const RunRecord& r, Phase ph) {
             return ph == Phase::kTg && r.results.tg && r.roofline.tg_bound_tps > 0
                        ? num(100.0 * r.results.tg->tps.mean / r.roofline.tg_bound_tps, 0) + " %"
                        : std::string("-");
           }),
      tcol("energy_method", "energy", kIfAsked, true, [](const RunRecord& r, Phase) { return r.energy.method; }),
      tcol("idle_power_w", "idle W", kIfAsked, true,
           [](const RunRecord& r, Phase) { return opt_pretty(r.energy.idle_power_w, 1); }),
      tcol("tg_power_w", "W", kIfAsked, false,
           [](const RunRecord& r, Phase ph) {
             const auto& e = phase_energy(r, ph);
             return e ? opt_pretty(e->power_w, 1) : std::string("-");
           }),
      tcol("tg_j_per_token", "J/tok", kIfAsked, false,
           [](const RunRecord& r, Phase ph) {
             const auto& e = phase_energy(r, ph);
             return e ? opt_pretty(e->j_per_token, 4) : std::string("-");
           }),
      tcol("cost_gross_per_mtok", "cost/Mtok", kIfAsked, true,
           [](const RunRecord& r, Phase ph) {
             return ph == Phase::kTg && r.cost ? opt_pretty(r.cost->gross_per_mtok, 4) + " " + r.cost->currency
                                               : std::string("-");
           }),
      tcol("cost_total_per_mtok", "total/Mtok", kIfAsked, true,
           [](const RunRecord& r, Phase ph) {
             return ph == Phase::kTg && r.cost ? opt_pretty(r.cost->total_per_mtok, 4) : std::string("-");
           }),
      tcol("model_bytes", "model MiB", kAlways, true,
           [](const RunRecord& r, Phase) { return mib(sum_buffers(r, &BufferMemory::model_bytes)); }),
      tcol("context_bytes", "KV MiB", kAlways, true,
           [](const RunRecord& r, Phase) { return mib(sum_buffers(r, &BufferMemory::context_bytes)); }),
      tcol("compute_bytes", "compute MiB", kAlways, true,
           [](const RunRecord& r, Phase) { return mib(sum_buffers(r, &BufferMemory::compute_bytes)); }),
      tcol("peak_rss_bytes", "peak RSS MiB", kAlways, true,
           [](const RunRecord& r, Phase) { return mib(r.memory.peak_rss_bytes); }),
  };
  for (TestColumn& c : tail) out.push_back(std::move(c));
  for (TestColumn& c : out) {
    const Knob* k = find_knob(c.key);
    c.left = c.key == "model_name" || c.key == "model_file" || c.key == "backends" || c.key == "energy_method" ||
             (k != nullptr && k->type == Knob::Type::kText);
  }
  return out;
}

}  // namespace

const std::vector<TestColumn>& test_columns() {
  static const std::vector<TestColumn> kColumns = make_test_columns();
  return kColumns;
}

}  // namespace rigbench::report
