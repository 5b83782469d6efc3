#include "report/columns.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/strings.h"

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
std::string str(T v) { return std::to_string(v); }

// A figure that may be unmeasured (NaN): "" in CSV, "-" in the table.
std::string opt(double v) { return std::isfinite(v) ? full(v) : std::string(); }
std::string opt_pretty(double v, int decimals) { return std::isfinite(v) ? num(v, decimals) : std::string("-"); }

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

Column col(const char* key, const char* header, InTable in_table, Get raw, Get pretty = {}) {
  return Column{key, header, in_table, std::move(raw), std::move(pretty)};
}

std::vector<Column> make_columns() {
  return {
      col("model_name", "model", kAlways, [](const RunRecord& r) { return r.model.name; },
          [](const RunRecord& r) { return r.model.synthetic ? r.model.name + " (synthetic)" : r.model.name; }),
      col("model_file", "file", kIfAsked, [](const RunRecord& r) { return std::filesystem::path(r.model.path).filename().string(); }),
      col("model_file_type", "type", kAlways, [](const RunRecord& r) { return r.model.file_type; }),
      col("model_size_bytes", "size", kAlways, [](const RunRecord& r) { return str(r.model.size_bytes); },
          [](const RunRecord& r) { return format_bytes(r.model.size_bytes); }),
      col("model_n_params", "params", kAlways, [](const RunRecord& r) { return str(r.model.n_params); },
          [](const RunRecord& r) { return format_count(r.model.n_params); }),
      col("model_synthetic", "synthetic", kNever, [](const RunRecord& r) { return std::string(r.model.synthetic ? "true" : "false"); }),
      col("backends", "backend", kAlways, [](const RunRecord& r) { return join(r.devices_used, ","); }),
      col("n_threads", "threads", kAlways, [](const RunRecord& r) { return str(r.params.n_threads); }),
      col("n_gpu_layers", "ngl", kIfAsked, [](const RunRecord& r) { return str(r.params.n_gpu_layers); }),
      col("load_mode", "lm", kIfAsked, [](const RunRecord& r) { return r.params.load_mode; }),
      col("flash_attn", "fa", kIfAsked, [](const RunRecord& r) { return r.params.flash_attn; }),
      col("type_k", "type_k", kIfAsked, [](const RunRecord& r) { return r.params.type_k; }),
      col("type_v", "type_v", kIfAsked, [](const RunRecord& r) { return r.params.type_v; }),
      col("n_batch", "n_batch", kIfAsked, [](const RunRecord& r) { return str(r.params.n_batch); }),
      col("n_ubatch", "n_ubatch", kIfAsked, [](const RunRecord& r) { return str(r.params.n_ubatch); }),
      col("n_depth", "depth", kAlways, [](const RunRecord& r) { return str(r.params.n_depth); }),
      col("n_prompt", "pp", kAlways, [](const RunRecord& r) { return str(r.params.n_prompt); },
          [](const RunRecord& r) { return r.params.n_prompt ? "pp" + str(r.params.n_prompt) : std::string("-"); }),
      col("pp_avg_tps", "pp t/s", kAlways, [](const RunRecord& r) { return r.results.pp ? full(r.results.pp->tps.mean) : ""; },
          [](const RunRecord& r) { return rate(r.results.pp); }),
      col("pp_stddev_tps", "pp sd", kNever, [](const RunRecord& r) { return r.results.pp ? full(r.results.pp->tps.stddev) : ""; }),
      col("pp_median_tps", "pp median", kNever, [](const RunRecord& r) { return r.results.pp ? full(r.results.pp->tps.median) : ""; }),
      col("n_gen", "tg", kAlways, [](const RunRecord& r) { return str(r.params.n_gen); },
          [](const RunRecord& r) { return r.params.n_gen ? "tg" + str(r.params.n_gen) : std::string("-"); }),
      col("tg_avg_tps", "tg t/s", kAlways, [](const RunRecord& r) { return r.results.tg ? full(r.results.tg->tps.mean) : ""; },
          [](const RunRecord& r) { return rate(r.results.tg); }),
      col("tg_bound_tps", "tg bound", kAlways, [](const RunRecord& r) { return r.roofline.tg_bound_tps > 0 ? full(r.roofline.tg_bound_tps) : ""; },
          [](const RunRecord& r) { return r.roofline.tg_bound_tps > 0 ? "<= " + num(r.roofline.tg_bound_tps, 1) : std::string("-"); }),
      col("tg_fraction_of_bound", "tg/bound", kAlways,
          [](const RunRecord& r) { return r.results.tg && r.roofline.tg_bound_tps > 0 ? full(r.results.tg->tps.mean / r.roofline.tg_bound_tps) : ""; },
          [](const RunRecord& r) {
            return r.results.tg && r.roofline.tg_bound_tps > 0 ? num(100.0 * r.results.tg->tps.mean / r.roofline.tg_bound_tps, 0) + " %" : std::string("-");
          }),
      col("tg_stddev_tps", "tg sd", kNever, [](const RunRecord& r) { return r.results.tg ? full(r.results.tg->tps.stddev) : ""; }),
      col("tg_median_tps", "tg median", kNever, [](const RunRecord& r) { return r.results.tg ? full(r.results.tg->tps.median) : ""; }),
      col("ttft_avg_ms", "TTFT ms", kAlways, [](const RunRecord& r) { return r.results.ttft ? full(r.results.ttft->ms.mean) : ""; },
          [](const RunRecord& r) { return r.results.ttft ? num(r.results.ttft->ms.mean, 2) + " ± " + num(r.results.ttft->ms.stddev, 2) : "-"; }),
      col("ttft_stddev_ms", "TTFT sd", kNever, [](const RunRecord& r) { return r.results.ttft ? full(r.results.ttft->ms.stddev) : ""; }),
      col("energy_method", "energy", kIfAsked, [](const RunRecord& r) { return r.energy.method; }),
      col("idle_power_w", "idle W", kIfAsked, [](const RunRecord& r) { return opt(r.energy.idle_power_w); },
          [](const RunRecord& r) { return opt_pretty(r.energy.idle_power_w, 1); }),
      col("tg_power_w", "tg W", kIfAsked, [](const RunRecord& r) { return r.energy.tg ? opt(r.energy.tg->power_w) : ""; },
          [](const RunRecord& r) { return r.energy.tg ? opt_pretty(r.energy.tg->power_w, 1) : std::string("-"); }),
      col("pp_j_per_token", "pp J/token", kIfAsked, [](const RunRecord& r) { return r.energy.pp ? opt(r.energy.pp->j_per_token) : ""; },
          [](const RunRecord& r) { return r.energy.pp ? opt_pretty(r.energy.pp->j_per_token, 4) : std::string("-"); }),
      col("tg_j_per_token", "tg J/token", kIfAsked, [](const RunRecord& r) { return r.energy.tg ? opt(r.energy.tg->j_per_token) : ""; },
          [](const RunRecord& r) { return r.energy.tg ? opt_pretty(r.energy.tg->j_per_token, 4) : std::string("-"); }),
      col("cost_currency", "currency", kNever, [](const RunRecord& r) { return r.cost ? r.cost->currency : std::string(); }),
      col("cost_gross_per_mtok", "cost/Mtok", kIfAsked, [](const RunRecord& r) { return r.cost ? opt(r.cost->gross_per_mtok) : ""; },
          [](const RunRecord& r) { return r.cost ? opt_pretty(r.cost->gross_per_mtok, 4) + " " + r.cost->currency : std::string("-"); }),
      col("cost_marginal_per_mtok", "marginal/Mtok", kNever, [](const RunRecord& r) { return r.cost ? opt(r.cost->marginal_per_mtok) : ""; }),
      col("cost_total_per_mtok", "total/Mtok", kIfAsked, [](const RunRecord& r) { return r.cost ? opt(r.cost->total_per_mtok) : ""; },
          [](const RunRecord& r) { return r.cost ? opt_pretty(r.cost->total_per_mtok, 4) : std::string("-"); }),
      col("model_bytes", "model MiB", kAlways, [](const RunRecord& r) { return str(sum_buffers(r, &BufferMemory::model_bytes)); },
          [](const RunRecord& r) { return mib(sum_buffers(r, &BufferMemory::model_bytes)); }),
      col("context_bytes", "KV MiB", kAlways, [](const RunRecord& r) { return str(sum_buffers(r, &BufferMemory::context_bytes)); },
          [](const RunRecord& r) { return mib(sum_buffers(r, &BufferMemory::context_bytes)); }),
      col("compute_bytes", "compute MiB", kAlways, [](const RunRecord& r) { return str(sum_buffers(r, &BufferMemory::compute_bytes)); },
          [](const RunRecord& r) { return mib(sum_buffers(r, &BufferMemory::compute_bytes)); }),
      col("peak_rss_bytes", "peak RSS MiB", kAlways, [](const RunRecord& r) { return str(r.memory.peak_rss_bytes); },
          [](const RunRecord& r) { return mib(r.memory.peak_rss_bytes); }),
      col("repetitions", "reps", kNever, [](const RunRecord& r) { return str(r.params.repetitions); }),
      col("n_samples", "samples", kNever, [](const RunRecord& r) { return str(r.results.pp ? r.results.pp->tps.n : r.results.tg ? r.results.tg->tps.n : 0); }),
      col("interrupted", "interrupted", kNever, [](const RunRecord& r) { return std::string(r.interrupted ? "true" : "false"); }),
      col("model_fingerprint", "fingerprint", kNever, [](const RunRecord& r) { return r.model.fingerprint; }),
      col("tags", "tags", kNever, [](const RunRecord& r) { return join(r.tags, ";"); }),
      col("cpu", "cpu", kNever, [](const RunRecord& r) { return r.machine.cpu; }),
      col("test_time", "time", kNever, [](const RunRecord& r) { return r.test_time; }),
      col("llama_cpp_commit", "llama.cpp", kNever, [](const RunRecord& r) { return r.build.llama_cpp_commit; }),
      col("rigbench_version", "rigbench", kNever, [](const RunRecord& r) { return r.build.rigbench_version; }),
      col("record_id", "record", kNever, [](const RunRecord& r) { return r.record_id; }),
  };
}

}  // namespace

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns = make_columns();
  return kColumns;
}

}  // namespace rigbench::report
