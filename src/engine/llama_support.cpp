#include "engine/llama_support.h"

#include <ggml-backend.h>
#include <ggml.h>
#ifdef RIGBENCH_HAVE_LLAMA_EXT
#include <llama-ext.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>

#include "core/strings.h"
#include "engine/llama_placement.h"

namespace rigbench::engine {

namespace {

// llama.cpp's log, captured: the last error lines explain a failed load.
struct LogCapture {
  std::mutex mu;
  std::deque<std::string> errors;
  std::string partial;
  bool echo = false;
  std::vector<std::pair<int, std::string>> layers;  // (layer, device) from load_tensors' debug lines
};

LogCapture& log_capture() {
  static LogCapture capture;
  return capture;
}

void on_llama_log(ggml_log_level level, const char* text, void*) {
  LogCapture& c = log_capture();
  if (c.echo) std::fputs(text, stderr);
  // llama.cpp's load_tensors says where each layer goes: "load_tensors: layer  12 assigned to
  // device RPC0, is_swa = 0" (the layer n_layer is the output layer).
  static constexpr char kLayer[] = "load_tensors: layer ";
  if (text && std::strncmp(text, kLayer, sizeof kLayer - 1) == 0) {
    const char* p = text + sizeof kLayer - 1;
    char* end = nullptr;
    const long il = std::strtol(p, &end, 10);
    const char* dev = end ? std::strstr(end, "device ") : nullptr;
    if (dev) {
      dev += 7;
      const char* stop = std::strchr(dev, ',');
      std::lock_guard<std::mutex> lock(c.mu);
      c.layers.emplace_back(static_cast<int>(il), stop ? std::string(dev, stop) : trim(dev));
    }
    return;
  }
  if (level != GGML_LOG_LEVEL_ERROR && level != GGML_LOG_LEVEL_CONT) return;
  std::lock_guard<std::mutex> lock(c.mu);
  if (level == GGML_LOG_LEVEL_CONT && c.partial.empty()) return;
  c.partial += text;
  if (!c.partial.empty() && c.partial.back() == '\n') {
    c.errors.push_back(trim(c.partial));
    c.partial.clear();
    if (c.errors.size() > 8) c.errors.pop_front();
  }
}

}  // namespace

void clear_layer_placement() {
  std::lock_guard<std::mutex> lock(log_capture().mu);
  log_capture().layers.clear();
}

LayerPlacement layer_placement(int n_layer) {
  LayerPlacement out;
  std::lock_guard<std::mutex> lock(log_capture().mu);
  for (const auto& [il, dev] : log_capture().layers) {
    if (il >= n_layer) {
      out.output_device = dev;
      continue;
    }
    auto it = std::find_if(out.layers.begin(), out.layers.end(), [&](const auto& e) { return e.first == dev; });
    if (it == out.layers.end()) out.layers.emplace_back(dev, 1);
    else ++it->second;
  }
  return out;
}

void clear_errors() {
  std::lock_guard<std::mutex> lock(log_capture().mu);
  log_capture().errors.clear();
}

// llama.cpp's last error line without its function-name prefixes, e.g.
// "error loading model architecture: unknown model architecture: 'nonesuch'".
std::string last_error(const std::string& fallback) {
  std::lock_guard<std::mutex> lock(log_capture().mu);
  const auto& errors = log_capture().errors;
  static const std::string kMarker = "error loading model: ";
  for (auto it = errors.rbegin(); it != errors.rend(); ++it) {
    const auto pos = it->find(kMarker);
    if (pos != std::string::npos) return it->substr(pos + kMarker.size());
  }
  return errors.empty() ? fallback : errors.back();
}

bool parse_cache_type(const std::string& name, ggml_type& out) {
  for (int t = 0; t < GGML_TYPE_COUNT; ++t) {
    const char* n = ggml_type_name(static_cast<ggml_type>(t));
    if (n && to_lower(n) == to_lower(name)) {
      out = static_cast<ggml_type>(t);
      return true;
    }
  }
  return false;
}

llama_flash_attn_type parse_flash_attn(const std::string& v) {
  if (v == "on") return LLAMA_FLASH_ATTN_TYPE_ENABLED;
  if (v == "off") return LLAMA_FLASH_ATTN_TYPE_DISABLED;
  return LLAMA_FLASH_ATTN_TYPE_AUTO;
}

bool parse_load_mode(const std::string& name, llama_load_mode& out) {
  try {
    out = llama_load_mode_from_str(name.c_str());  // throws std::invalid_argument when unknown
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

Result<llama_model_params> run_model_params(const std::string& path, const BenchParams& spec) {
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = spec.n_gpu_layers < 0 ? 999 : spec.n_gpu_layers;
  if (!parse_load_mode(spec.load_mode, mp.load_mode)) {
    return fail(ErrorCode::kUsage, "model '" + path + "': unknown load mode '" + spec.load_mode + "'");
  }
  return mp;
}

Result<llama_context_params> run_context_params(const BenchParams& spec) {
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = static_cast<uint32_t>(spec.n_ctx);
  cp.n_batch = static_cast<uint32_t>(spec.n_batch);
  cp.n_ubatch = static_cast<uint32_t>(spec.n_ubatch);
  cp.n_threads = spec.n_threads;
  cp.n_threads_batch = spec.n_threads;
  cp.flash_attn_type = parse_flash_attn(spec.flash_attn);
  cp.swa_full = false;
  apply_context_placement(spec, cp);
  if (!parse_cache_type(spec.type_k, cp.type_k) || !parse_cache_type(spec.type_v, cp.type_v)) {
    return fail(ErrorCode::kUsage, "unknown KV cache type '" + spec.type_k + "'/'" + spec.type_v + "'");
  }
  return cp;
}

Result<llama_model*> load_model(const std::string& path, const llama_model_params& mp) {
  clear_errors();
  llama_model* m = llama_model_load_from_file(path.c_str(), mp);
  if (!m)
    return fail(ErrorCode::kInvalidInput,
                "model '" + path + "': llama.cpp cannot load it: " + last_error("load failed"));
  return m;
}

Result<ModelHandle> load_vocab_only(const std::string& path) {
  llama_model_params mp = llama_model_default_params();
  mp.vocab_only = true;
  auto loaded = load_model(path, mp);
  if (!loaded) return std::unexpected(loaded.error());
  return ModelHandle(*loaded);
}

std::vector<std::string> model_devices(const llama_model* model, int n_gpu_layers) {
  std::vector<std::string> out;
#ifdef RIGBENCH_HAVE_LLAMA_EXT
  if (model && n_gpu_layers != 0) {
    for (int i = 0; i < llama_model_n_devices(model); ++i) {
      out.emplace_back(ggml_backend_dev_name(llama_model_get_device(model, i)));
    }
  }
#else
  (void)model;
  (void)n_gpu_layers;
#endif
  if (out.empty()) out.emplace_back("CPU");
  return out;
}

Status decode_status(int32_t rc, const std::atomic<bool>* cancel, const std::string& failure) {
  if (rc == 0) return {};
  if (rc == 2 || abort_requested(const_cast<std::atomic<bool>*>(cancel))) return fail(ErrorCode::kInterrupted, "interrupted");
  return fail(ErrorCode::kRuntime, failure + " (code " + std::to_string(rc) + ")");
}

bool abort_requested(void* data) {
  return data != nullptr && static_cast<const std::atomic<bool>*>(data)->load(std::memory_order_relaxed);
}

Status ContextHandle::open(llama_model* model, const llama_context_params& params, const BenchParams& spec,
                           const std::string& failure) {
  reset();
  clear_errors();
  ctx_ = llama_init_from_model(model, params);
  if (!ctx_) return fail(ErrorCode::kRuntime, failure + ": " + last_error("llama_init_from_model failed"));
  ggml_threadpool_params tpp = ggml_threadpool_params_default(spec.n_threads);
  tpp.poll = spec.poll;
  tpp.strict_cpu = spec.cpu_strict != 0;
  pool_ = ggml_threadpool_new(&tpp);
  if (!pool_) {
    reset();
    return fail(ErrorCode::kRuntime, "cannot create a threadpool of " + std::to_string(spec.n_threads) + " threads");
  }
  llama_attach_threadpool(ctx_, pool_, nullptr);
  return {};
}

void ContextHandle::reset() {
  if (ctx_) {
    llama_free(ctx_);
    ctx_ = nullptr;
  }
  if (pool_) {
    ggml_threadpool_free(pool_);
    pool_ = nullptr;
  }
}

void init_llama_log() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* env = std::getenv("RIGBENCH_LLAMA_LOG");
    log_capture().echo = env != nullptr && std::string(env) == "1";
    llama_log_set(&on_llama_log, nullptr);
  });
}

void init_llama() {
  static std::once_flag once;
  std::call_once(once, [] {
    init_llama_log();
#ifdef RIGBENCH_GGML_STATIC_BACKENDS
    // The backends are linked in (GGML_BACKEND_DL off): ggml_backend_load_all would only scan the
    // executable's folder and the working directory for 15 backend libraries that cannot be
    // there (a few ms, more in a large working directory). An out-of-tree backend still loads.
    if (const char* extra = std::getenv("GGML_BACKEND_PATH")) ggml_backend_load(extra);
#else
    ggml_backend_load_all();
#endif
    llama_backend_init();
  });
}

std::vector<BufferMemory> memory_breakdown(const llama_context* ctx) {
  std::vector<BufferMemory> out;
#ifdef RIGBENCH_HAVE_LLAMA_EXT
  if (!ctx) return out;
  for (const auto& [buft, mb] : llama_get_memory_breakdown(ctx)) {
    BufferMemory m;
    m.buffer_type = ggml_backend_buft_name(buft);
    ggml_backend_dev_t dev = ggml_backend_buft_get_device(buft);
    // Host buffers (e.g. CPU_Mapped) have no device; a device's pinned host buffer type
    // (CUDA_Host, Vulkan_Host: the CPU's compute buffer and its weights beside a GPU) names
    // the GPU as its device but lives in host RAM.
    const bool pinned_host = dev && ggml_backend_dev_host_buffer_type(dev) == buft;
    m.device = dev && !pinned_host ? ggml_backend_dev_name(dev) : "CPU";
    m.model_bytes = mb.model;
    m.context_bytes = mb.context;
    m.compute_bytes = mb.compute;
    out.push_back(m);
  }
#else
  (void)ctx;
#endif
  return out;
}

}  // namespace rigbench::engine
