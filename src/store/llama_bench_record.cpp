#include "store/llama_bench_record.h"

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "core/knobs.h"
#include "core/model_name.h"
#include "core/results.h"
#include "core/stats.h"
#include "core/strings.h"

namespace rigbench::store {

namespace {

// llama.cpp v0.4.0's file type descriptions (llama_ftype_name, src/llama-model-loader.cpp)
// and the short names GGUF tools and rigbench use (model/file_type.cpp).
constexpr std::pair<const char*, const char*> kFileTypeNames[] = {
    {"all F32", "F32"},
    {"F16", "F16"},
    {"BF16", "BF16"},
    {"Q1_0", "Q1_0"},
    {"Q2_0", "Q2_0"},
    {"Q4_0", "Q4_0"},
    {"Q4_1", "Q4_1"},
    {"Q5_0", "Q5_0"},
    {"Q5_1", "Q5_1"},
    {"Q8_0", "Q8_0"},
    {"MXFP4 MoE", "MXFP4_MOE"},
    {"NVFP4", "NVFP4"},
    {"Q2_K - Medium", "Q2_K"},
    {"Q2_K - Small", "Q2_K_S"},
    {"Q3_K - Small", "Q3_K_S"},
    {"Q3_K - Medium", "Q3_K_M"},
    {"Q3_K - Large", "Q3_K_L"},
    {"Q4_K - Small", "Q4_K_S"},
    {"Q4_K - Medium", "Q4_K_M"},
    {"Q5_K - Small", "Q5_K_S"},
    {"Q5_K - Medium", "Q5_K_M"},
    {"Q6_K", "Q6_K"},
    {"TQ1_0 - 1.69 bpw ternary", "TQ1_0"},
    {"TQ2_0 - 2.06 bpw ternary", "TQ2_0"},
    {"IQ2_XXS - 2.0625 bpw", "IQ2_XXS"},
    {"IQ2_XS - 2.3125 bpw", "IQ2_XS"},
    {"IQ2_S - 2.5 bpw", "IQ2_S"},
    {"IQ2_M - 2.7 bpw", "IQ2_M"},
    {"IQ3_XS - 3.3 bpw", "IQ3_XS"},
    {"IQ3_XXS - 3.0625 bpw", "IQ3_XXS"},
    {"IQ1_S - 1.5625 bpw", "IQ1_S"},
    {"IQ1_M - 1.75 bpw", "IQ1_M"},
    {"IQ4_NL - 4.5 bpw", "IQ4_NL"},
    {"IQ4_XS - 4.25 bpw", "IQ4_XS"},
    {"IQ3_S - 3.4375 bpw", "IQ3_S"},
    {"IQ3_S mix - 3.66 bpw", "IQ3_M"},
};

// The fields a row is read through, with the row's line for messages.
class Fields {
 public:
  explicit Fields(const LlamaBenchRow& row) : row_(row) {}

  std::string text(const std::string& key, const std::string& fallback = "") const {
    auto it = row_.fields.find(key);
    return it == row_.fields.end() ? fallback : it->second;
  }
  bool has(const std::string& key) const { return row_.fields.count(key) > 0; }

  template <typename T>
  Result<T> number(const std::string& key, std::optional<T> fallback = std::nullopt) const {
    auto it = row_.fields.find(key);
    if (it == row_.fields.end() || it->second.empty()) {
      if (fallback) return *fallback;
      return fail(ErrorCode::kInvalidInput, where() + "no " + key);
    }
    const std::string& s = it->second;
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
      return fail(ErrorCode::kInvalidInput, where() + key + " '" + s + "' is not a number");
    }
    return v;
  }

  std::string where() const { return "line " + std::to_string(row_.line) + ": "; }

 private:
  const LlamaBenchRow& row_;
};

bool is_true(const std::string& v) { return v == "1" || v == "true"; }

// load_mode when the row has it; else older builds' use_direct_io / use_mmap flags (direct
// I/O -> "dio", mmap off -> "none", mmap on -> "mmap"); else `fallback`.
std::string load_mode_of(const Fields& f, const std::string& fallback) {
  if (f.has("load_mode")) return f.text("load_mode");
  if (f.has("use_direct_io") && is_true(f.text("use_direct_io"))) return "dio";
  if (f.has("use_mmap")) return is_true(f.text("use_mmap")) ? "mmap" : "none";
  return fallback;
}

// Builds before `backends` (2024) wrote one boolean per backend compiled in; gpu_blas
// (any GPU BLAS) repeats them.
constexpr std::pair<const char*, const char*> kBackendFlags[] = {
    {"cuda", "CUDA"}, {"vulkan", "Vulkan"}, {"kompute", "Kompute"}, {"metal", "Metal"},
    {"sycl", "SYCL"}, {"opencl", "OpenCL"}, {"rpc", "RPC"},         {"blas", "BLAS"},
};

// The backends: `backends` ("CUDA,BLAS") when the row has it, else older builds' flags.
std::vector<std::string> backends_of(const Fields& f) {
  std::vector<std::string> out;
  if (f.has("backends")) {
    for (const std::string& b : split(f.text("backends"), ',')) {
      if (!trim(b).empty()) out.push_back(trim(b));
    }
    return out;
  }
  for (const auto& [flag, name] : kBackendFlags) {
    if (f.has(flag) && is_true(f.text(flag))) out.push_back(name);
  }
  return out;
}

std::vector<DeviceInfo> gpus_of(const std::string& gpu_info) {
  std::vector<DeviceInfo> gpus;
  if (trim(gpu_info).empty()) return gpus;
  for (const std::string& part : split(gpu_info, ',')) {
    DeviceInfo d;
    d.description = trim(part);
    d.name = "GPU" + std::to_string(gpus.size());  // llama-bench prints descriptions only
    d.type = "gpu";
    gpus.push_back(std::move(d));
  }
  return gpus;
}

// The row's fields that map_llama_bench_row reads into the record's own fields (the rest
// are kept in RunRecord::source_fields). avg_ns and stddev_ns are the results' statistics,
// which the record holds as its samples (json, jsonl) or as avg_ts and stddev_ts (csv, sql).
const std::set<std::string>& mapped_fields() {
  static const std::set<std::string> kMapped = [] {
    std::set<std::string> s = {"build_commit", "cpu_info",   "gpu_info",  "backends",      "model_filename",
                               "model_type",   "model_size", "model_n_params", "n_prompt", "n_gen",
                               "test_time",    "avg_ts",     "stddev_ts", "avg_ns",        "stddev_ns",
                               "load_mode",    "use_mmap",
                               "use_direct_io", "f16_kv"};
    for (const auto& [flag, name] : kBackendFlags) s.insert(flag);
    for (const Knob& k : knobs()) {
      if (!k.llama_bench_key.empty()) s.insert(k.llama_bench_key);
    }
    return s;
  }();
  return kMapped;
}

}  // namespace

std::string file_type_from_model_type(const std::string& model_type) {
  // "<arch> <size> <file type>"; the file type may hold spaces and a "(guessed) " prefix.
  std::size_t first = model_type.find(' ');
  std::size_t second = first == std::string::npos ? std::string::npos : model_type.find(' ', first + 1);
  std::string ftype = second == std::string::npos ? "" : model_type.substr(second + 1);
  constexpr std::string_view kGuessed = "(guessed) ";
  if (ftype.starts_with(kGuessed)) ftype = ftype.substr(kGuessed.size());
  constexpr std::string_view kMostly = "mostly ";  // builds before 2024: "mostly Q4_0", "mostly Q4_K - Medium"
  if (ftype.starts_with(kMostly)) ftype = ftype.substr(kMostly.size());
  for (const auto& [description, name] : kFileTypeNames) {
    if (ftype == description) return name;
  }
  return ftype;
}

std::string llama_bench_record_id(const LlamaBenchRow& row) {
  std::string canonical;
  for (const auto& [key, value] : row.fields) {  // std::map: field-name order
    if (key == "avg_ts" || key == "stddev_ts") continue;
    canonical += key;
    canonical += '\x1f';
    canonical += value;
    canonical += '\x1e';
  }
  const XXH128_hash_t h = XXH3_128bits(canonical.data(), canonical.size());
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return hex;
}

std::string llama_bench_machine_name(const MachineInfo& machine) {
  std::vector<std::string> parts;
  if (!trim(machine.cpu).empty()) parts.push_back(trim(machine.cpu));
  for (const DeviceInfo& g : machine.gpus) {
    if (!g.description.empty()) parts.push_back(g.description);
  }
  return parts.empty() ? "unnamed" : join(parts, " + ");
}

Result<MappedRow> map_llama_bench_row(const LlamaBenchRow& row, const std::string& hostname, int repetitions) {
  const Fields f(row);
  auto n_prompt = f.number<int>("n_prompt");
  auto n_gen = f.number<int>("n_gen");
  if (!n_prompt) return std::unexpected(n_prompt.error());
  if (!n_gen) return std::unexpected(n_gen.error());
  if (*n_prompt > 0 && *n_gen > 0)
    return MappedRow{std::nullopt, f.where() + "pp+tg test (-pg) mixes prompt and generation in one rate; skipped"};
  if (*n_prompt <= 0 && *n_gen <= 0)
    return MappedRow{std::nullopt, f.where() + "neither n_prompt nor n_gen is set; skipped"};
  if (!f.has("model_filename")) return fail(ErrorCode::kInvalidInput, f.where() + "no model_filename");

  RunRecord rec;
  rec.record_id = llama_bench_record_id(row);
  rec.test_time = f.text("test_time");
  rec.machine.hostname = hostname;
  rec.machine.cpu = f.text("cpu_info");
  rec.machine.gpus = gpus_of(f.text("gpu_info"));
  rec.machine.backends = backends_of(f);
  rec.build.llama_cpp_commit = f.text("build_commit");

  rec.model.path = f.text("model_filename");
  rec.model.name = model_file_stem(rec.model.path);  // llama-bench names no model: its file (core/model_name.h)
  const std::string model_type = f.text("model_type");
  rec.model.arch = to_lower(model_type.substr(0, model_type.find(' ')));  // 2023 builds: "LLaMA 7B mostly Q4_0"
  rec.model.file_type = file_type_from_model_type(model_type);
  auto size = f.number<uint64_t>("model_size", uint64_t{0});
  auto n_params = f.number<uint64_t>("model_n_params", uint64_t{0});
  if (!size) return std::unexpected(size.error());
  if (!n_params) return std::unexpected(n_params.error());
  rec.model.size_bytes = *size;
  rec.model.n_params = *n_params;

  // Every knob llama-bench records (core/knobs.h), normalized as the CLI normalizes it
  // (flash_attn -1/0/1 or a boolean in older builds -> auto/off/on).
  BenchParams& p = rec.params;
  for (const Knob& k : knobs()) {
    if (k.llama_bench_key.empty() || !f.has(k.llama_bench_key)) continue;
    const std::string value = f.text(k.llama_bench_key);
    if (trim(value).empty()) continue;  // not recorded: the default
    auto canonical = normalize_knob(k, value);
    if (!canonical) {
      // The CLI's message ("-t/--threads: 'four' is not an integer") said of the field instead.
      const std::string& why = canonical.error().message;
      const std::string flag = knob_flag_name(k) + ": ";
      return fail(ErrorCode::kInvalidInput,
                  f.where() + k.llama_bench_key + ": " + (why.rfind(flag, 0) == 0 ? why.substr(flag.size()) : why));
    }
    (void)set_knob(k, p, *canonical);
  }
  // Older builds: use_direct_io / use_mmap; builds before use_mmap (January 2024) always mapped
  // the file (llama.cpp's default then, which llama-bench could not change).
  p.load_mode = load_mode_of(f, "mmap");
  // Builds before a knob existed ran without it, not at today's default: no flash_attn
  // column (before 2024) means no flash attention; no n_ubatch (before March 2024) means
  // one batch size.
  if (!f.has("flash_attn")) p.flash_attn = "off";
  if (!f.has("n_ubatch")) p.n_ubatch = p.n_batch;
  if (f.has("f16_kv") && !f.has("type_k") && !f.has("type_v")) {  // builds before -ctk/-ctv
    p.type_k = p.type_v = is_true(f.text("f16_kv")) ? "f16" : "f32";
  }
  p.n_prompt = *n_prompt;
  p.n_gen = *n_gen;
  p.n_ctx = p.n_depth + p.n_prompt + p.n_gen;

  const int n_tokens = *n_prompt > 0 ? *n_prompt : *n_gen;
  auto& result = *n_prompt > 0 ? rec.results.pp : rec.results.tg;
  if (row.samples_ns) {
    if (row.samples_ns->empty()) return MappedRow{std::nullopt, f.where() + "no samples; skipped"};
    p.repetitions = static_cast<int>(row.samples_ns->size());
    result = make_throughput(n_tokens, *row.samples_ns);
  } else {
    // csv, sql: the statistics only; kept as they are (mean, sd, the repetitions when given).
    auto avg_ts = f.number<double>("avg_ts");
    if (!avg_ts) return std::unexpected(avg_ts.error());
    if (!(*avg_ts > 0) || !std::isfinite(*avg_ts))
      return fail(ErrorCode::kInvalidInput, f.where() + "avg_ts is not positive");
    auto stddev_ts = f.number<double>("stddev_ts", kUnmeasured);
    if (!stddev_ts) return std::unexpected(stddev_ts.error());
    const double sd = *stddev_ts >= 0 && std::isfinite(*stddev_ts) ? *stddev_ts : kUnmeasured;
    p.repetitions = repetitions;
    result = make_summary_throughput(n_tokens, static_cast<std::size_t>(std::max(repetitions, 0)), *avg_ts, sd);
    rec.tags.push_back(kSummaryOnlyTag);
  }
  rec.tags.insert(rec.tags.begin(), kLlamaBenchTag);
  // Every field the row recorded that the record holds nowhere else is kept as it is.
  for (const auto& [key, value] : row.fields) {
    if (!mapped_fields().count(key)) rec.source_fields[key] = value;
  }
  return MappedRow{std::move(rec), ""};
}

}  // namespace rigbench::store
