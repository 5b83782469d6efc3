#include "core/knobs.h"

#include <algorithm>
#include <charconv>

#include "core/rpc_endpoints.h"
#include "core/strings.h"
#include "core/tensor_overrides.h"

namespace rigbench {

namespace {

// What every knob has: its names, header and help; llama-bench records it under its key.
Knob named_knob(std::string key, std::string flags, std::string alias, std::string header, std::string help) {
  Knob k;
  k.key = std::move(key);
  k.flags = std::move(flags);
  k.llama_alias = std::move(alias);
  k.header = std::move(header);
  k.help = std::move(help);
  k.llama_bench_key = k.key;
  return k;
}

Knob int_knob(std::string key, std::string flags, std::string alias, std::string header, std::string help,
              int BenchParams::*field, long min, long max) {
  Knob k = named_knob(std::move(key), std::move(flags), std::move(alias), std::move(header), std::move(help));
  k.type = Knob::Type::kInt;
  k.int_field = field;
  k.min = min;
  k.max = max;
  return k;
}

Knob text_knob(std::string key, std::string flags, std::string alias, std::string header, std::string help,
               std::string BenchParams::*field, std::vector<std::string> choices,
               std::vector<std::pair<std::string, std::string>> synonyms = {}) {
  Knob k = named_knob(std::move(key), std::move(flags), std::move(alias), std::move(header), std::move(help));
  k.type = Knob::Type::kText;
  k.text_field = field;
  k.choices = std::move(choices);
  k.synonyms = std::move(synonyms);
  return k;
}

constexpr long kMaxTokens = 1L << 24;

Result<std::string> check_rpc(const std::string& value) {
  auto endpoints = parse_rpc_endpoints(value);
  if (!endpoints) return std::unexpected(endpoints.error());
  return rpc_endpoints_text(*endpoints);
}

// -ot: overrides separated by ';' (or ',' in fit's one value), canonical as llama-bench records them.
Result<std::string> check_tensor_overrides(const std::string& value) {
  auto parsed = parse_tensor_overrides(value);
  if (!parsed) return std::unexpected(parsed.error());
  return tensor_overrides_text(*parsed);
}

// -dev: "auto", "none" or ggml device names separated by '/' (llama-bench's parse_devices_arg);
// whether this build has them is the engine's to say.
Result<std::string> check_devices(const std::string& value) {
  const std::string v = trim(value);
  if (v.empty()) return fail(ErrorCode::kUsage, "-dev/--device: empty value (auto, none or NAME[/NAME...])");
  if (to_lower(v) == "auto" || to_lower(v) == "none") return to_lower(v);
  std::vector<std::string> names;
  for (const std::string& part : split(v, '/')) {
    const std::string name = trim(part);
    if (name.empty() || to_lower(name) == "none" || to_lower(name) == "auto") {
      return fail(ErrorCode::kUsage, "-dev/--device '" + v + "': expected auto, none or NAME[/NAME...], e.g. Vulkan0/Vulkan1");
    }
    names.push_back(name);
  }
  return join(names, "/");
}

// llama-bench's -ts value: shares per device separated by '/', e.g. "3/1" ("0.00" = by free memory).
Result<std::string> check_tensor_split(const std::string& value) {
  if (auto shares = parse_tensor_split(value); !shares) return std::unexpected(shares.error());
  return trim(value);
}

std::vector<Knob> make_knobs() {
  std::vector<Knob> all;
  Knob ngl = int_knob("n_gpu_layers", "--n-gpu-layers", "-ngl", "ngl", "layers offloaded to GPUs; -1 = all",
                      &BenchParams::n_gpu_layers, -1, 100000);
  ngl.reloads_model = true;
  all.push_back(ngl);
  Knob lm = text_knob("load_mode", "--load-mode", "-lm", "lm",
                      "how llama.cpp loads the weights (none: read into fresh memory)", &BenchParams::load_mode,
                      load_mode_names());
  lm.reloads_model = true;
  all.push_back(lm);
  Knob nb =
      int_knob("n_batch", "-b,--batch-size", "", "n_batch", "logical batch size", &BenchParams::n_batch, 1, kMaxTokens);
  nb.fit_shared = true;
  all.push_back(nb);
  Knob nub = int_knob("n_ubatch", "--ubatch-size", "-ub", "n_ubatch", "physical batch size", &BenchParams::n_ubatch, 1,
                      kMaxTokens);
  nub.fit_shared = true;
  all.push_back(nub);
  Knob tk = text_knob("type_k", "--cache-type-k", "-ctk", "type_k", "KV cache K type", &BenchParams::type_k,
                      kv_cache_type_names());
  tk.fit_shared = true;
  tk.generation_only = true;
  all.push_back(tk);
  Knob tv = text_knob("type_v", "--cache-type-v", "-ctv", "type_v", "KV cache V type (a quantized V needs -fa on)",
                      &BenchParams::type_v, kv_cache_type_names());
  tv.fit_shared = true;
  tv.generation_only = true;
  all.push_back(tv);
  Knob fa = text_knob("flash_attn", "--flash-attn", "-fa", "fa", "flash attention: auto, on (1) or off (0)",
                      &BenchParams::flash_attn, {"auto", "on", "off"},
                      {{"1", "on"}, {"true", "on"}, {"0", "off"}, {"false", "off"}, {"-1", "auto"}});
  fa.fit_shared = true;
  all.push_back(fa);
  all.push_back(int_knob("poll", "--poll", "", "poll", "how busily threads wait for work, 0-100 (ggml threadpool)",
                         &BenchParams::poll, 0, 100));
  all.push_back(int_knob("cpu_strict", "--cpu-strict", "", "cpu_strict",
                         "1 = pin each thread to its own CPU, 0 = let the OS place them", &BenchParams::cpu_strict, 0,
                         1));
  Knob nt = int_knob("n_threads", "-t,--threads", "", "threads", "threads (default: physical cores)",
                     &BenchParams::n_threads, 1, 1024);
  nt.always_shown = true;
  all.push_back(nt);
  Knob depth = int_knob("n_depth", "-d,--n-depth", "", "n_depth", "tokens already in the KV cache before each test",
                        &BenchParams::n_depth, 0, kMaxTokens);
  depth.generation_only = true;
  all.push_back(depth);
  Knob ctx = int_knob("n_ctx", "-c,--ctx-size", "", "n_ctx",
                      "context size; 0 = what each test needs (n_depth + n_prompt + n_gen)", &BenchParams::n_ctx, 0,
                      kMaxTokens);
  ctx.compare_key = false;  // memory, not speed: the KV cells a test reads are n_depth + its tokens
  ctx.llama_bench_key = "";
  ctx.generation_only = true;
  all.push_back(ctx);

  // Where llama.cpp puts weights, KV cache and ops: llama-bench's -ncmoe, -sm, -mg, -nkvo,
  // -dev, -ts, -ot, -nopo and llama-server's -cmoe. Named in compare's label only away from
  // their defaults (quiet_default), as before bench took them.
  auto placement = [&all](Knob k, bool reloads) {
    k.reloads_model = reloads;
    k.quiet_default = true;
    all.push_back(std::move(k));
  };
  Knob ncmoe = int_knob("n_cpu_moe", "--n-cpu-moe", "-ncmoe", "n_cpu_moe",
                        "MoE blocks 0..N-1 whose expert weights stay in host RAM", &BenchParams::n_cpu_moe, 0, 100000);
  ncmoe.fit_shared = true;
  placement(ncmoe, true);
  Knob cmoe = int_knob("cpu_moe", "--cpu-moe", "-cmoe", "cmoe",
                       "1 = every MoE expert weight in host RAM (llama-server's -cmoe; alone = 1)", &BenchParams::cpu_moe,
                       0, 1);
  cmoe.bare_value = "1";
  cmoe.fit_shared = true;
  cmoe.llama_bench_key = "";  // llama-bench has -ncmoe only
  placement(cmoe, true);
  Knob sm = text_knob("split_mode", "--split-mode", "-sm", "sm",
                      "how layers go over several GPUs: none (one GPU, -mg), layer, row or tensor",
                      &BenchParams::split_mode, {"none", "layer", "row", "tensor"});
  sm.fit_shared = true;  // fit plans none and layer (fit/device_split.h unplanned_split_mode)
  placement(sm, true);
  Knob mg = int_knob("main_gpu", "--main-gpu", "-mg", "mg", "the GPU of -sm none (an index into -dev's devices)",
                     &BenchParams::main_gpu, 0, 1024);
  mg.fit_shared = true;
  placement(mg, true);
  Knob nkvo = int_knob("no_kv_offload", "--no-kv-offload", "-nkvo", "nkvo",
                       "1 = the KV cache stays in host RAM (alone = 1)", &BenchParams::no_kv_offload, 0, 1);
  nkvo.bare_value = "1";
  nkvo.fit_shared = true;
  placement(nkvo, false);
  Knob dev = text_knob("devices", "--device", "-dev", "dev",
                       "ggml devices of a run, '/' between them (Vulkan0/Vulkan1); none = CPU only, auto = every one "
                       "(`rigbench hw` lists them)",
                       &BenchParams::devices, {});
  dev.check = &check_devices;
  placement(dev, true);
  Knob ts = text_knob("tensor_split", "--tensor-split", "-ts", "ts",
                      "share per device, '/' between devices (e.g. 3/1); 0.00 = by free memory", &BenchParams::tensor_split, {});
  ts.check = &check_tensor_split;
  placement(ts, true);
  Knob rpc = text_knob("rpc", "--rpc", "-rpc", "rpc",
                       "rpc-servers whose devices take part, HOST:PORT[,HOST:PORT...] (llama.cpp's ggml-rpc-server); "
                       "none = local devices only; one value per --rpc",
                       &BenchParams::rpc, {});
  rpc.check = &check_rpc;
  rpc.whole_value = true;
  rpc.llama_bench_key = "";  // llama-bench records only "RPC" among its backends
  placement(rpc, true);
  Knob ot = text_knob("tensor_buft_overrides", "--override-tensor", "-ot", "ot",
                      "PATTERN=BUFT;... weights whose name matches the regex go to that buffer type (CPU = host RAM; "
                      "Vulkan0, CUDA0, ... = that device), e.g. exps=CPU; none",
                      &BenchParams::tensor_buft_overrides, {});
  ot.check = &check_tensor_overrides;
  ot.fit_shared = true;
  placement(ot, true);

  // Knobs that llama-bench records and rigbench bench does not set (no flag): rigbench runs
  // at their defaults; an imported row keeps its own, so compare keeps runs apart by them.
  auto recorded = [&all](Knob k) {
    k.flags.clear();
    all.push_back(std::move(k));
  };
  recorded(text_knob("cpu_mask", "", "", "cpu_mask", "CPU affinity mask (llama-bench -C)", &BenchParams::cpu_mask, {}));
  recorded(text_knob("lazy_mode", "", "", "lzm", "lazy weight loading (llama-bench -lzm)", &BenchParams::lazy_mode,
                     {"off", "auto", "on"}));
  recorded(int_knob("embeddings", "", "", "embd", "1 = embeddings computed (llama-bench -embd)",
                    &BenchParams::embeddings, 0, 1));
  Knob nopo = int_knob("no_op_offload", "--no-op-offload", "-nopo", "nopo",
                       "1 = ops on weights in host RAM run there, not copied to the GPU (alone = 1)",
                       &BenchParams::no_op_offload, 0, 1);
  nopo.bare_value = "1";
  placement(nopo, false);
  recorded(
      int_knob("no_host", "", "", "noh", "1 = no host buffer (llama-bench --no-host)", &BenchParams::no_host, 0, 1));
  // llama.cpp's own fitting of -ngl, -ts and -ot (llama-bench's -fitt, -fitc): the record keeps
  // what it chose (engine/llama_placement.h fit_placement).
  placement(int_knob("fit_target", "--fit-target", "-fitt", "fitt",
                     "llama.cpp fits -ngl/-ts/-ot itself (as llama-bench), keeping this many MiB free per device; "
                     "0 = off; not with -ot/-cmoe/-ncmoe/-ts",
                     &BenchParams::fit_target, 0, 1 << 30),
            true);
  placement(int_knob("fit_min_ctx", "--fit-ctx", "-fitc", "fitc",
                     "llama.cpp's fitting plans for at least this context; 0 = off (given without -fitt, "
                     "fitting keeps 0 MiB free, as llama-bench)",
                     &BenchParams::fit_min_ctx, 0, kMaxTokens),
            true);
  recorded(int_knob("mul_mat_q", "", "", "mmq", "quantized matrix kernels (2023 llama-bench -mmq)",
                    &BenchParams::mul_mat_q, 0, 1));
  return all;
}

}  // namespace

Result<std::vector<double>> parse_tensor_split(const std::string& ts) {
  std::string v = trim(ts);
  std::replace(v.begin(), v.end(), ',', '/');
  std::vector<double> shares;
  for (const std::string& part : split(v, '/')) {
    double x = 0;
    const std::string t = trim(part);
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !(x >= 0)) {
      return fail(ErrorCode::kUsage, "-ts/--tensor-split: '" + trim(ts) +
                                         "' is not shares per device separated by '/' or ',' (e.g. 3/1), each >= 0");
    }
    shares.push_back(x);
  }
  return shares;
}

std::vector<double> tensor_split_shares(const std::string& ts) {
  const std::string v = trim(ts);
  if (v.empty() || v == "0.00") return {};
  auto shares = parse_tensor_split(v);
  if (!shares || std::none_of(shares->begin(), shares->end(), [](double x) { return x > 0; })) return {};
  return *shares;
}

const std::vector<std::string>& kv_cache_type_names() {
  static const std::vector<std::string> kTypes = {"f32",  "f16",    "bf16", "q8_0", "q4_0",
                                                  "q4_1", "iq4_nl", "q5_0", "q5_1"};
  return kTypes;
}

bool quantized_kv_type(const std::string& type) { return type != "f16" && type != "f32" && type != "bf16"; }

const std::vector<std::string>& load_mode_names() {
  static const std::vector<std::string> kModes = {"auto", "none", "mmap", "mlock", "mmap+mlock", "dio"};
  return kModes;
}

const std::vector<Knob>& knobs() {
  static const std::vector<Knob> kKnobs = make_knobs();
  return kKnobs;
}

bool is_source_knob(const std::string& field) {
  // What llama-bench (every version) writes about the build, the machine, the model and the
  // results, rather than about how the test ran.
  static const char* const kNotKnobs[] = {
      "build_commit", "build_number", "cpu_info", "gpu_info",  "backends",  "model_filename", "model_type",
      "model_size",   "model_n_params", "n_prompt", "n_gen",   "test_time", "avg_ns",         "stddev_ns",
      "avg_ts",       "stddev_ts",    "samples_ns", "samples_ts", "gpu_blas", "cuda",         "vulkan",
      "kompute",      "metal",        "sycl",     "opencl",    "rpc",       "blas",
  };
  for (const char* name : kNotKnobs) {
    if (field == name) return false;
  }
  return true;
}

bool knob_applies(const Knob& k, const RunRecord& rec) {
  if (rec.server) return false;
  return !(k.generation_only && rec.results.embedding);
}

const Knob* find_knob(const std::string& key) {
  for (const Knob& k : knobs()) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

std::string knob_text(const Knob& k, const BenchParams& p) {
  return k.type == Knob::Type::kInt ? std::to_string(p.*k.int_field) : p.*k.text_field;
}

std::string knob_default(const Knob& k) {
  static const BenchParams kDefaults{};
  return knob_text(k, kDefaults);
}

std::string knob_flag_name(const Knob& k) {
  std::string names = k.flags;
  std::replace(names.begin(), names.end(), ',', '/');
  return k.llama_alias.empty() ? names : k.llama_alias + "/" + names;
}

Result<std::string> normalize_knob(const Knob& k, const std::string& value) {
  // Free text (a tensor pattern, a device list) keeps its case; a choice is lower-cased.
  const std::string v = k.type == Knob::Type::kText && k.choices.empty() ? trim(value) : to_lower(trim(value));
  if (k.type == Knob::Type::kInt) {
    long n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size()) {
      return fail(ErrorCode::kUsage, knob_flag_name(k) + ": '" + value + "' is not an integer");
    }
    if (n < k.min || n > k.max) {
      return fail(ErrorCode::kUsage, knob_flag_name(k) + ": '" + value + "' is out of range [" + std::to_string(k.min) +
                                         ", " + std::to_string(k.max) + "]");
    }
    return std::to_string(n);
  }
  if (k.check) return k.check(v);
  std::string canonical = v;
  for (const auto& [from, to] : k.synonyms) {
    if (v == from) canonical = to;
  }
  if (!k.choices.empty() && std::find(k.choices.begin(), k.choices.end(), canonical) == k.choices.end()) {
    return fail(ErrorCode::kUsage, knob_flag_name(k) + ": '" + value + "' is not one of " + join(k.choices, ", "));
  }
  if (canonical.empty()) return fail(ErrorCode::kUsage, knob_flag_name(k) + ": empty value");
  return canonical;
}

Status set_knob(const Knob& k, BenchParams& p, const std::string& value) {
  auto v = normalize_knob(k, value);
  if (!v) return std::unexpected(v.error());
  if (k.type == Knob::Type::kInt) p.*k.int_field = std::stoi(*v);
  else p.*k.text_field = *v;
  return {};
}

bool same_model_load(const BenchParams& a, const BenchParams& b) {
  for (const Knob& k : knobs()) {
    if (k.reloads_model && knob_text(k, a) != knob_text(k, b)) return false;
  }
  return true;
}

}  // namespace rigbench
