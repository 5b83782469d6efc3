#include "engine/llama_embed.h"

#include <ggml-backend.h>
#include <ggml-cpu.h>
#include <ggml.h>
#include <llama.h>
#ifdef RIGBENCH_HAVE_LLAMA_EXT
#include <llama-ext.h>
#endif

#include <cstdlib>
#include <memory>

#include "engine/llama_support.h"

namespace rigbench::engine {

namespace {

// A GGUF key's value as llama.cpp keeps it ("" when absent).
std::string meta(const llama_model* m, const std::string& key) {
  char buf[256];
  const int32_t n = llama_model_meta_val_str(m, key.c_str(), buf, sizeof buf);
  return n < 0 ? std::string() : std::string(buf);
}

EmbedModel describe(const llama_model* m) {
  EmbedModel out;
  const std::string arch = meta(m, "general.architecture");
  const std::string causal = meta(m, arch + ".attention.causal");
  out.causal = !(causal == "false" || causal == "0");
  const std::string pooling = meta(m, arch + ".pooling_type");
  out.pooling = pooling.empty() ? "none" : pooling_name(std::atoi(pooling.c_str()));
  out.n_ctx_train = llama_model_n_ctx_train(m);
  return out;
}

class LlamaEmbedder final : public Embedder {
 public:
  explicit LlamaEmbedder(const std::atomic<bool>* cancel) : cancel_(cancel) {}

  ~LlamaEmbedder() override {
    free_context();
    if (model_) llama_model_free(model_);
  }

  Status load(const std::string& path, const BenchParams& spec) override {
    free_context();
    if (model_) {
      llama_model_free(model_);
      model_ = nullptr;
    }
    auto mp = run_model_params(path, spec);
    if (!mp) return std::unexpected(mp.error());
    auto loaded = load_model(path, *mp);
    if (!loaded) return std::unexpected(loaded.error());
    model_ = *loaded;
    path_ = path;
    n_gpu_layers_ = spec.n_gpu_layers;
    return {};
  }

  EmbedModel model() const override {
    EmbedModel m = describe(model_);
    m.n_embd_out = llama_model_n_embd_out(model_);
    if (context_.get()) m.pooling = pooling_name(llama_pooling_type(context_.get()));  // as the context resolved it
    return m;
  }

  Result<std::vector<int32_t>> tokenize(const std::string& text) const override {
    const llama_vocab* vocab = llama_model_get_vocab(model_);
    const auto len = static_cast<int32_t>(text.size());
    std::vector<llama_token> out(text.size() + 8);
    int32_t n = llama_tokenize(vocab, text.data(), len, out.data(), static_cast<int32_t>(out.size()), true, true);
    if (n < 0) {
      out.resize(static_cast<size_t>(-n));
      n = llama_tokenize(vocab, text.data(), len, out.data(), static_cast<int32_t>(out.size()), true, true);
    }
    if (n <= 0) return fail(ErrorCode::kInvalidInput, "the text gives no tokens");
    out.resize(static_cast<size_t>(n));
    return std::vector<int32_t>(out.begin(), out.end());
  }

  Status open_context(const BenchParams& spec, int n_tokens_max, int n_seq_max) override {
    free_context();
    if (!model_) return fail(ErrorCode::kRuntime, "no model loaded");
    llama_context_params cp = llama_context_default_params();
    // Encoders take a whole batch in one ubatch (llama-embedding sets n_ubatch = n_batch too).
    cp.n_ctx = static_cast<uint32_t>(n_tokens_max);
    cp.n_batch = cp.n_ubatch = static_cast<uint32_t>(n_tokens_max);
    cp.n_seq_max = static_cast<uint32_t>(n_seq_max);
    cp.kv_unified = true;  // as llama-embedding: any number of texts share the context
    cp.n_threads = cp.n_threads_batch = spec.n_threads;
    cp.embeddings = true;
    cp.pooling_type = LLAMA_POOLING_TYPE_UNSPECIFIED;  // the model's own
    cp.flash_attn_type = parse_flash_attn(spec.flash_attn);
    cp.abort_callback = &abort_requested;
    cp.abort_callback_data = const_cast<std::atomic<bool>*>(cancel_);
    // (a threadpool with it, as llama-embedding's common_init_from_params attaches one)
    if (Status s = context_.open(model_, cp, spec,
                                 "model '" + path_ + "': cannot create an embedding context (" +
                                     std::to_string(n_seq_max) + " texts, " + std::to_string(n_tokens_max) + " tokens)");
        !s)
      return s;
    batch_ = BatchHandle(new llama_batch(llama_batch_init(n_tokens_max, 0, 1)));
    n_tokens_max_ = n_tokens_max;
    return size_outputs(n_seq_max);
  }

  // Whether llama.cpp's output buffer is still the one open_context sized (no embed() grew it).
  bool output_buffer_kept() const {
    return context_.get() != nullptr && sized_output_ != nullptr && output_base() == sized_output_;
  }

  Status embed(const std::vector<const std::vector<int32_t>*>& texts) override {
    if (!context_.get()) return fail(ErrorCode::kRuntime, "no embedding context");
    llama_memory_clear(llama_get_memory(context_.get()), true);
    batch_->n_tokens = 0;
    for (size_t s = 0; s < texts.size(); ++s) {
      const auto& toks = *texts[s];
      if (batch_->n_tokens + static_cast<int>(toks.size()) > n_tokens_max_) {
        return fail(ErrorCode::kRuntime, "embedding batch of " + std::to_string(texts.size()) +
                                             " texts exceeds the context's " + std::to_string(n_tokens_max_) +
                                             " tokens");
      }
      for (size_t i = 0; i < toks.size(); ++i) push(toks[i], static_cast<llama_pos>(i), static_cast<llama_seq_id>(s));
    }
    if (Status s =
            decode_status(llama_decode(context_.get(), *batch_), cancel_, "llama_decode failed on an embedding batch");
        !s)
      return s;
    // Read each text's pooled embedding, as a user of the embeddings would.
    const bool pooled = llama_pooling_type(context_.get()) != LLAMA_POOLING_TYPE_NONE;
    for (size_t s = 0; s < texts.size(); ++s) {
      const float* e =
          pooled ? llama_get_embeddings_seq(context_.get(), static_cast<llama_seq_id>(s)) : llama_get_embeddings_ith(context_.get(), -1);
      if (e == nullptr) return fail(ErrorCode::kRuntime, "llama.cpp returned no embedding for a text");
      sink_ = sink_ + e[0];
    }
    return {};
  }

  std::vector<BufferMemory> memory() const override { return memory_breakdown(context_.get()); }

 private:
  // One untimed call of the context's full size: n_tokens_max tokens in n_seq_max sequences of
  // at most ceil(n_tokens_max / n_seq_max) tokens (no longer than the longest text, so within
  // the model's positions). llama.cpp sizes its output buffer for the outputs of a call only
  // when a call needs more (a new buffer, its pages cleared: inside that call, about 0.6 ms
  // for one 12-token text of bge-small) and touches compute memory for a larger graph the first
  // time one runs. llama-embedding never pays this in its timed call (its context reserves 256
  // outputs); here it is paid now, so that no timed call pays it.
  Status size_outputs(int n_seq_max) {
    const llama_vocab* vocab = llama_model_get_vocab(model_);
    const llama_token bos = llama_vocab_bos(vocab);
    const llama_token token = bos == LLAMA_TOKEN_NULL ? 0 : bos;
    const int per_seq = (n_tokens_max_ + n_seq_max - 1) / n_seq_max;
    batch_->n_tokens = 0;
    for (int i = 0; i < n_tokens_max_; ++i)
      push(token, static_cast<llama_pos>(i % per_seq), static_cast<llama_seq_id>(i / per_seq));
    const int32_t rc = llama_decode(context_.get(), *batch_);
    llama_memory_clear(llama_get_memory(context_.get()), true);
    if (Status s = decode_status(rc, cancel_, "model '" + path_ + "': llama_decode failed sizing the embedding context");
        !s)
      return s;
    sized_output_ = output_base();
    return {};
  }

  // The start of llama.cpp's output buffer: its logits view comes first (llama.cpp keeps one
  // for every context; the embeddings view follows at an offset that changes with each call's
  // outputs, so it cannot tell a new buffer from the same one).
  const float* output_base() const { return llama_get_logits(context_.get()); }

 public:
  std::vector<std::string> devices_used() const override { return model_devices(model_, n_gpu_layers_); }

 private:
  // Appends one token of sequence `seq` at `pos` to the batch, its output asked for (every
  // token's, as llama-embedding asks).
  void push(llama_token token, llama_pos pos, llama_seq_id seq) {
    const int k = batch_->n_tokens++;
    batch_->token[k] = token;
    batch_->pos[k] = pos;
    batch_->n_seq_id[k] = 1;
    batch_->seq_id[k][0] = seq;
    batch_->logits[k] = 1;
  }

  void free_context() {
    batch_.reset();
    context_.reset();
  }

  // A batch of llama_batch_init, freed with llama_batch_free.
  struct BatchFree {
    void operator()(llama_batch* b) const {
      llama_batch_free(*b);
      delete b;
    }
  };
  using BatchHandle = std::unique_ptr<llama_batch, BatchFree>;

  const std::atomic<bool>* cancel_;
  llama_model* model_ = nullptr;
  std::string path_;
  int n_gpu_layers_ = -1;
  ContextHandle context_;
  BatchHandle batch_;
  int n_tokens_max_ = 0;
  const float* sized_output_ = nullptr;  // llama.cpp's output buffer as open_context sized it
  volatile float sink_ = 0;              // the embeddings are read, not optimized away
};

}  // namespace

std::string pooling_name(int t) {
  switch (t) {
    case LLAMA_POOLING_TYPE_NONE: return "none";
    case LLAMA_POOLING_TYPE_MEAN: return "mean";
    case LLAMA_POOLING_TYPE_CLS: return "cls";
    case LLAMA_POOLING_TYPE_LAST: return "last";
    case LLAMA_POOLING_TYPE_RANK: return "rank";
    default: return "unspecified";
  }
}

Result<EmbedModel> read_embed_model(const std::string& path) {
  init_llama();
  auto model = load_vocab_only(path);
  if (!model) return std::unexpected(model.error());
  return describe(model->get());
}

bool llama_output_buffer_kept(const Embedder& embedder) {
  const auto* e = dynamic_cast<const LlamaEmbedder*>(&embedder);
  return e != nullptr && e->output_buffer_kept();
}

std::unique_ptr<Embedder> make_llama_embedder(const std::atomic<bool>* cancel) {
  init_llama();
  return std::make_unique<LlamaEmbedder>(cancel);
}

}  // namespace rigbench::engine
