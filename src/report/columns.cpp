#include "report/columns.h"

#include <cstdio>

#include "core/strings.h"

namespace rigbench::report {

namespace {

std::string num(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
std::string full(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
template <typename T>
std::string str(T v) { return std::to_string(v); }

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
Column col(const char* key, const char* header, bool in_table, Get raw, Get pretty = {}) {
  return Column{key, header, in_table, std::move(raw), std::move(pretty)};
}

std::vector<Column> make_columns() {
  return {
      col("model_name", "model", true, [](const RunRecord& r) { return r.model.name; },
          [](const RunRecord& r) { return r.model.synthetic ? r.model.name + " (synthetic)" : r.model.name; }),
      col("model_file_type", "type", true, [](const RunRecord& r) { return r.model.file_type; }),
      col("model_size_bytes", "size", true, [](const RunRecord& r) { return str(r.model.size_bytes); },
          [](const RunRecord& r) { return format_bytes(r.model.size_bytes); }),
      col("model_n_params", "params", true, [](const RunRecord& r) { return str(r.model.n_params); },
          [](const RunRecord& r) { return format_count(r.model.n_params); }),
      col("model_synthetic", "synthetic", false, [](const RunRecord& r) { return std::string(r.model.synthetic ? "true" : "false"); }),
      col("backends", "backend", true, [](const RunRecord& r) { return join(r.devices_used, ","); }),
      col("n_threads", "threads", true, [](const RunRecord& r) { return str(r.params.n_threads); }),
      col("n_gpu_layers", "ngl", false, [](const RunRecord& r) { return str(r.params.n_gpu_layers); }),
      col("flash_attn", "fa", false, [](const RunRecord& r) { return r.params.flash_attn; }),
      col("type_k", "type_k", false, [](const RunRecord& r) { return r.params.type_k; }),
      col("type_v", "type_v", false, [](const RunRecord& r) { return r.params.type_v; }),
      col("n_batch", "n_batch", false, [](const RunRecord& r) { return str(r.params.n_batch); }),
      col("n_ubatch", "n_ubatch", false, [](const RunRecord& r) { return str(r.params.n_ubatch); }),
      col("n_depth", "depth", true, [](const RunRecord& r) { return str(r.params.n_depth); }),
      col("n_prompt", "pp", true, [](const RunRecord& r) { return str(r.params.n_prompt); },
          [](const RunRecord& r) { return r.params.n_prompt ? "pp" + str(r.params.n_prompt) : std::string("-"); }),
      col("pp_avg_tps", "pp t/s", true, [](const RunRecord& r) { return r.results.pp ? full(r.results.pp->tps.mean) : ""; },
          [](const RunRecord& r) { return rate(r.results.pp); }),
      col("pp_stddev_tps", "pp sd", false, [](const RunRecord& r) { return r.results.pp ? full(r.results.pp->tps.stddev) : ""; }),
      col("pp_median_tps", "pp median", false, [](const RunRecord& r) { return r.results.pp ? full(r.results.pp->tps.median) : ""; }),
      col("n_gen", "tg", true, [](const RunRecord& r) { return str(r.params.n_gen); },
          [](const RunRecord& r) { return r.params.n_gen ? "tg" + str(r.params.n_gen) : std::string("-"); }),
      col("tg_avg_tps", "tg t/s", true, [](const RunRecord& r) { return r.results.tg ? full(r.results.tg->tps.mean) : ""; },
          [](const RunRecord& r) { return rate(r.results.tg); }),
      col("tg_stddev_tps", "tg sd", false, [](const RunRecord& r) { return r.results.tg ? full(r.results.tg->tps.stddev) : ""; }),
      col("tg_median_tps", "tg median", false, [](const RunRecord& r) { return r.results.tg ? full(r.results.tg->tps.median) : ""; }),
      col("ttft_avg_ms", "TTFT ms", true, [](const RunRecord& r) { return r.results.ttft ? full(r.results.ttft->ms.mean) : ""; },
          [](const RunRecord& r) { return r.results.ttft ? num(r.results.ttft->ms.mean, 2) + " ± " + num(r.results.ttft->ms.stddev, 2) : "-"; }),
      col("ttft_stddev_ms", "TTFT sd", false, [](const RunRecord& r) { return r.results.ttft ? full(r.results.ttft->ms.stddev) : ""; }),
      col("model_bytes", "model MiB", true, [](const RunRecord& r) { return str(sum_buffers(r, &BufferMemory::model_bytes)); },
          [](const RunRecord& r) { return mib(sum_buffers(r, &BufferMemory::model_bytes)); }),
      col("context_bytes", "KV MiB", true, [](const RunRecord& r) { return str(sum_buffers(r, &BufferMemory::context_bytes)); },
          [](const RunRecord& r) { return mib(sum_buffers(r, &BufferMemory::context_bytes)); }),
      col("compute_bytes", "compute MiB", true, [](const RunRecord& r) { return str(sum_buffers(r, &BufferMemory::compute_bytes)); },
          [](const RunRecord& r) { return mib(sum_buffers(r, &BufferMemory::compute_bytes)); }),
      col("peak_rss_bytes", "peak RSS MiB", true, [](const RunRecord& r) { return str(r.memory.peak_rss_bytes); },
          [](const RunRecord& r) { return mib(r.memory.peak_rss_bytes); }),
      col("repetitions", "reps", false, [](const RunRecord& r) { return str(r.results.pp ? r.results.pp->tps.n : r.results.tg ? r.results.tg->tps.n : 0); }),
      col("interrupted", "interrupted", false, [](const RunRecord& r) { return std::string(r.interrupted ? "true" : "false"); }),
      col("cpu", "cpu", false, [](const RunRecord& r) { return r.machine.cpu; }),
      col("test_time", "time", false, [](const RunRecord& r) { return r.test_time; }),
      col("llama_cpp_commit", "llama.cpp", false, [](const RunRecord& r) { return r.build.llama_cpp_commit; }),
      col("rigbench_version", "rigbench", false, [](const RunRecord& r) { return r.build.rigbench_version; }),
      col("record_id", "record", false, [](const RunRecord& r) { return r.record_id; }),
  };
}

}  // namespace

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns = make_columns();
  return kColumns;
}

}  // namespace rigbench::report
