#include "engine/llama_engine.h"

#include <ggml-backend.h>
#include <ggml-cpu.h>
#include <ggml.h>
#include <llama.h>
#ifdef RIGBENCH_HAVE_LLAMA_EXT
#include <llama-ext.h>
#endif

#include <algorithm>
#include <memory>
#include <optional>
#include <random>

#include "core/knobs.h"
#include "core/rpc_endpoints.h"
#include "core/strings.h"
#include "engine/llama_placement.h"
#include "engine/llama_rpc.h"
#include "engine/llama_support.h"

namespace rigbench::engine {

namespace {

class LlamaEngine final : public Engine {
 public:
  explicit LlamaEngine(const std::atomic<bool>* cancel) : cancel_(cancel), rng_(1234) {}

  ~LlamaEngine() override {
    free_context();
    if (model_) llama_model_free(model_);
  }

  Status load(const std::string& path, const BenchParams& spec) override {
    free_context();
    if (model_ && path == loaded_path_ && same_model_load(spec, loaded_)) return {};
    if (model_) {
      llama_model_free(model_);
      model_ = nullptr;
    }
    auto mp = run_model_params(path, spec);
    if (!mp) return std::unexpected(mp.error());
    topology_.clear();
    std::vector<RpcDevice> remote;
    if (Status s = choose_devices(spec, *mp, remote); !s) return s;
    fitted_.reset();
    if (fits_itself(spec)) {
      auto cp = context_params(spec);
      if (!cp) return std::unexpected(cp.error());
      auto fitted = fit_placement(path, spec, *cp, *mp, fit_split_, fit_overrides_);
      if (!fitted) return std::unexpected(fitted.error());
      fitted_ = *fitted;
    }
    clear_layer_placement();
    auto loaded = load_model(path, *mp);
    if (!loaded) return std::unexpected(loaded.error());
    model_ = *loaded;
    loaded_ = spec;
    loaded_path_ = path;
    if (!remote.empty()) record_topology(remote);
    return {};
  }

  std::vector<TopologyDevice> topology() const override { return topology_; }

  Status open_context(const BenchParams& spec) override {
    free_context();
    if (!model_) return fail(ErrorCode::kRuntime, "no model loaded");
    auto cp = context_params(spec);
    if (!cp) return std::unexpected(cp.error());
    // (a threadpool with it, as llama-bench attaches one)
    if (Status s = context_.open(model_, *cp, spec,
                                 "model '" + loaded_path_ + "': cannot create a context (n_ctx " +
                                     std::to_string(spec.n_ctx) + ")");
        !s)
      return s;
    n_threads_ = spec.n_threads;
    n_batch_ = spec.n_batch;
    state_.clear();
    return {};
  }

  void settings_used(BenchParams& params) const override {
    if (!context_.get()) return;
    if (fitted_) {  // -fitt/-fitc: what llama.cpp's fitting chose, not what was asked
      params.n_gpu_layers = fitted_->n_gpu_layers;
      params.tensor_split = fitted_->tensor_split;
      params.tensor_buft_overrides = fitted_->tensor_buft_overrides;
    }
    // llama.cpp: n_batch = min(n_ctx, asked n_batch); n_ubatch = min(n_batch, asked n_ubatch).
    if (params.n_ubatch > params.n_batch) params.n_ubatch = params.n_batch;
  }

  void clear() override { llama_memory_clear(llama_get_memory(context_.get()), false); }

  Status prompt(int n_tokens) override {
    llama_set_n_threads(context_.get(), n_threads_, n_threads_);
    const llama_vocab* vocab = llama_model_get_vocab(model_);
    const int32_t n_vocab = llama_vocab_n_tokens(vocab);
    std::vector<llama_token> tokens(static_cast<size_t>(n_batch_));
    int done = 0;
    while (done < n_tokens) {
      const int n = std::min(n_tokens - done, n_batch_);
      tokens[0] = (done == 0 && llama_vocab_get_add_bos(vocab)) ? llama_vocab_bos(vocab) : random_token(n_vocab);
      for (int i = 1; i < n; ++i) tokens[static_cast<size_t>(i)] = random_token(n_vocab);
      if (Status s = decode(tokens.data(), n, "prompt"); !s) return s;
      done += n;
    }
    llama_synchronize(context_.get());
    return {};
  }

  Status generate(int n_tokens) override { return generate_each(n_tokens, nullptr); }

  Status generate_each(int n_tokens, const std::function<void()>& after_token) override {
    llama_set_n_threads(context_.get(), n_threads_, n_threads_);
    const llama_vocab* vocab = llama_model_get_vocab(model_);
    const int32_t n_vocab = llama_vocab_n_tokens(vocab);
    llama_token token = llama_vocab_get_add_bos(vocab) ? llama_vocab_bos(vocab) : random_token(n_vocab);
    for (int i = 0; i < n_tokens; ++i) {
      if (Status s = decode(&token, 1, "generation"); !s) return s;
      llama_synchronize(context_.get());
      if (after_token) after_token();
      token = random_token(n_vocab);
    }
    return {};
  }

  bool has_chat_template() const override { return model_ && llama_model_chat_template(model_, nullptr) != nullptr; }

  Result<std::string> apply_chat_template(const std::vector<ChatMessage>& messages) const override {
    const char* tmpl = model_ ? llama_model_chat_template(model_, nullptr) : nullptr;
    if (!tmpl) return fail(ErrorCode::kInvalidInput, "the model has no chat template");
    std::vector<llama_chat_message> chat;
    std::size_t chars = 0;
    for (const ChatMessage& m : messages) {
      chat.push_back({m.role.c_str(), m.content.c_str()});
      chars += m.role.size() + m.content.size();
    }
    std::vector<char> buf(2 * chars + 256);
    int32_t n = llama_chat_apply_template(tmpl, chat.data(), chat.size(), true, buf.data(),
                                          static_cast<int32_t>(buf.size()));
    if (n > static_cast<int32_t>(buf.size())) {
      buf.resize(static_cast<std::size_t>(n));
      n = llama_chat_apply_template(tmpl, chat.data(), chat.size(), true, buf.data(), n);
    }
    if (n < 0) {
      return fail(ErrorCode::kInvalidInput,
                  "llama.cpp does not know the model's chat template (llama_chat_apply_template supports a fixed list)");
    }
    return std::string(buf.data(), static_cast<std::size_t>(n));
  }

  Result<std::vector<int32_t>> tokenize(const std::string& text) const override {
    if (!model_) return fail(ErrorCode::kRuntime, "no model loaded");
    const llama_vocab* vocab = llama_model_get_vocab(model_);
    const auto len = static_cast<int32_t>(text.size());
    std::vector<llama_token> tokens(text.size() + 8);
    int32_t n = llama_tokenize(vocab, text.c_str(), len, tokens.data(), static_cast<int32_t>(tokens.size()), true, true);
    if (n < 0) {
      tokens.resize(static_cast<std::size_t>(-n));
      n = llama_tokenize(vocab, text.c_str(), len, tokens.data(), -n, true, true);
    }
    if (n < 0) return fail(ErrorCode::kRuntime, "llama_tokenize failed");
    tokens.resize(static_cast<std::size_t>(n));
    return std::vector<int32_t>(tokens.begin(), tokens.end());
  }

  Status decode_tokens(const std::vector<int32_t>& tokens) override {
    llama_set_n_threads(context_.get(), n_threads_, n_threads_);
    std::vector<llama_token> chunk;
    for (std::size_t done = 0; done < tokens.size();) {
      const std::size_t n = std::min(tokens.size() - done, static_cast<std::size_t>(n_batch_));
      chunk.assign(tokens.begin() + static_cast<std::ptrdiff_t>(done),
                   tokens.begin() + static_cast<std::ptrdiff_t>(done + n));
      if (Status s = decode(chunk.data(), static_cast<int>(n), "prompt"); !s) return s;
      done += n;
    }
    llama_synchronize(context_.get());
    return {};
  }

  Result<int32_t> sample_token() override {
    if (!sampler_) sampler_.reset(llama_sampler_init_greedy());
    const llama_token t = llama_sampler_sample(sampler_.get(), context_.get(), -1);
    if (t < 0) return fail(ErrorCode::kRuntime, "sampling a token failed");
    return t;
  }

  bool is_end_of_generation(int32_t token) const override {
    return model_ && llama_vocab_is_eog(llama_model_get_vocab(model_), token);
  }

  Status sample() override {
    if (!sampler_) sampler_.reset(llama_sampler_init_greedy());
    const llama_token t = llama_sampler_sample(sampler_.get(), context_.get(), -1);
    if (t < 0) return fail(ErrorCode::kRuntime, "sampling the first token failed");
    return {};
  }

  Status save_state() override {
    state_.resize(llama_state_seq_get_size(context_.get(), 0));
    if (llama_state_seq_get_data(context_.get(), state_.data(), state_.size(), 0) == 0) {
      return fail(ErrorCode::kRuntime, "saving the depth state failed");
    }
    return {};
  }

  Status restore_state() override {
    if (state_.empty() || llama_state_seq_set_data(context_.get(), state_.data(), state_.size(), 0) == 0) {
      return fail(ErrorCode::kRuntime, "restoring the depth state failed");
    }
    return {};
  }

  std::vector<BufferMemory> memory() const override { return memory_breakdown(context_.get()); }

  std::vector<std::string> devices_used() const override { return model_devices(model_, loaded_.n_gpu_layers); }

 private:
  // The context parameters of `spec` (bench's knobs; the placement's -nkvo, -nopo).
  Result<llama_context_params> context_params(const BenchParams& spec) const {
    auto cp = run_context_params(spec);
    if (!cp) return cp;
    cp->abort_callback = &abort_requested;
    cp->abort_callback_data = const_cast<std::atomic<bool>*>(cancel_);
    return cp;
  }

  // The devices, split and weight overrides of a load (engine/llama_placement.h).
  Status choose_devices(const BenchParams& spec, llama_model_params& mp, std::vector<RpcDevice>& remote) {
    auto placed = model_placement(spec);
    if (!placed) return std::unexpected(placed.error());
    placement_ = std::move(*placed);
    placement_.apply(mp);
    remote = placement_.remote;
    return {};
  }

  // The loaded model's placement (llama.cpp's load_tensors lines) over the devices it used.
  void record_topology(const std::vector<RpcDevice>& remote) {
    const LayerPlacement placed = layer_placement(llama_model_n_layer(model_));
    auto layers_of = [&placed](const std::string& dev) {
      for (const auto& [name, n] : placed.layers)
        if (name == dev) return n;
      return 0;
    };
    for (const RpcDevice& r : remote) {
      TopologyDevice t;
      t.endpoint = r.endpoint;
      t.device = r.name;
      t.memory_total_bytes = r.memory_total_bytes;
      t.memory_free_bytes = r.memory_free_bytes;
      t.n_layers = layers_of(r.name);
      t.output_layer = placed.output_device == r.name;
      t.rtt_ms = r.rtt_ms;
      topology_.push_back(std::move(t));
    }
    for (const auto& [name, n] : placed.layers) {  // this machine's devices that held layers
      if (std::any_of(remote.begin(), remote.end(), [&](const RpcDevice& r) { return r.name == name; })) continue;
      TopologyDevice t;
      t.device = name;
      if (ggml_backend_dev_t dev = ggml_backend_dev_by_name(name.c_str())) {
        size_t free = 0, total = 0;
        ggml_backend_dev_memory(dev, &free, &total);
        t.memory_free_bytes = free;
        t.memory_total_bytes = total;
      }
      t.n_layers = n;
      t.output_layer = placed.output_device == name;
      topology_.push_back(std::move(t));
    }
    if (!placed.output_device.empty() &&
        std::none_of(topology_.begin(), topology_.end(), [&](const TopologyDevice& t) { return t.output_layer; })) {
      TopologyDevice t;  // the output layer alone on a device (e.g. the CPU with -ngl = n_layer)
      t.device = placed.output_device;
      t.output_layer = true;
      topology_.push_back(std::move(t));
    }
  }

  llama_token random_token(int32_t n_vocab) {
    return static_cast<llama_token>(std::uniform_int_distribution<int32_t>(0, n_vocab - 1)(rng_));
  }

  Status decode(llama_token* tokens, int n, const char* what) {
    return decode_status(llama_decode(context_.get(), llama_batch_get_one(tokens, n)), cancel_,
                         std::string("llama_decode failed during ") + what);
  }

  void free_context() {
    sampler_.reset();
    context_.reset();
  }

  struct SamplerFree {
    void operator()(llama_sampler* s) const { llama_sampler_free(s); }
  };

  const std::atomic<bool>* cancel_;
  std::mt19937 rng_;
  llama_model* model_ = nullptr;
  BenchParams loaded_;  // the model-load knobs of the loaded model
  ModelPlacement placement_;  // what llama_model_params of the load points at
  std::optional<FittedPlacement> fitted_;  // -fitt/-fitc: what llama.cpp's fitting chose for the load
  std::vector<float> fit_split_;           // its -ts buffer (llama_max_devices())
  std::vector<llama_model_tensor_buft_override> fit_overrides_;  // its -ot buffer
  std::vector<TopologyDevice> topology_;
  std::string loaded_path_;
  ContextHandle context_;
  std::unique_ptr<llama_sampler, SamplerFree> sampler_;
  int n_threads_ = 1;
  int n_batch_ = BenchParams{}.n_batch;
  std::vector<uint8_t> state_;
};

}  // namespace

std::unique_ptr<Engine> make_llama_engine(const std::atomic<bool>* cancel) {
  init_llama();
  return std::make_unique<LlamaEngine>(cancel);
}

Status check_loadable(const std::string& path) {
  init_llama();
  auto model = load_vocab_only(path);
  if (!model) return std::unexpected(model.error());
  return {};
}

Status check_tensors(const std::string& path) {
  init_llama();
  llama_model_params mp = llama_model_default_params();
  mp.no_alloc = true;
  mp.load_mode = LLAMA_LOAD_MODE_NONE;  // with mmap, no_alloc asserts (docs/fit.md)
  mp.n_gpu_layers = 0;
  auto loaded = load_model(path, mp);
  if (!loaded) return std::unexpected(loaded.error());
  llama_model_free(*loaded);
  return {};
}

const std::vector<std::string>& kv_cache_types() { return kv_cache_type_names(); }

const std::vector<std::string>& load_modes() {
  static const std::vector<std::string> kModes = [] {
    std::vector<std::string> names;
    for (llama_load_mode m : {LLAMA_LOAD_MODE_AUTO, LLAMA_LOAD_MODE_NONE, LLAMA_LOAD_MODE_MMAP, LLAMA_LOAD_MODE_MLOCK,
                              LLAMA_LOAD_MODE_MMAP_MLOCK, LLAMA_LOAD_MODE_DIRECT_IO}) {
      names.emplace_back(llama_load_mode_name(m));
    }
    return names;
  }();
  return kModes;
}

}  // namespace rigbench::engine
