// rigbench: Embedder, the small interface through which the embed use case (measure/embed.h)
// drives an embedding model. Like Engine, it never reads a clock: measure/ times the calls.
//
// Thread safety: used from one thread; the cancel flag given at construction may be set from
// any thread (a SIGINT handler), and a call in flight then returns kInterrupted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::engine {

// What the loaded model is, as llama.cpp sees it.
struct EmbedModel {
  bool causal = true;   // false for an encoder (BERT and its kin): no generation at all
  std::string pooling;  // llama.cpp's pooling from the GGUF: none, mean, cls, last, rank
  int n_embd_out = 0;   // width of one embedding
  int n_ctx_train = 0;  // the longest text the model was trained on, in tokens
};

class Embedder {
 public:
  virtual ~Embedder() = default;

  // Loads the model at `path` with the model-load knobs of `params` (n_gpu_layers,
  // load_mode). Errors: kInvalidInput with llama.cpp's reason.
  virtual Status load(const std::string& path, const BenchParams& params) = 0;

  // The loaded model's kind and pooling (valid after load).
  virtual EmbedModel model() const = 0;

  // The text's tokens as the model's tokenizer makes them (special tokens added: [CLS] ...
  // [SEP] for BERT). Errors: kInvalidInput when the text does not tokenize.
  virtual Result<std::vector<int32_t>> tokenize(const std::string& text) const = 0;

  // A fresh embedding context with the model's own pooling: room for `n_seq_max` texts of
  // `n_tokens_max` tokens in all per call (n_ctx = n_batch = n_ubatch = n_tokens_max), and
  // `params.n_threads` threads; every buffer of the largest call already allocated and touched
  // (the llama embedder makes one untimed call of that size), so that no embed() pays for it.
  // Errors: kRuntime (out of memory, too many sequences); kInterrupted when cancelled.
  virtual Status open_context(const BenchParams& params, int n_tokens_max, int n_seq_max) = 0;

  // Embeds `texts` (token lists, one sequence each) in one llama.cpp call, waits for it, and
  // reads every text's pooled embedding. The context's memory is cleared first.
  // Errors: kInterrupted when cancelled; kRuntime when llama.cpp fails.
  virtual Status embed(const std::vector<const std::vector<int32_t>*>& texts) = 0;

  // llama.cpp's memory per buffer type for the current context; the devices in use.
  virtual std::vector<BufferMemory> memory() const = 0;
  virtual std::vector<std::string> devices_used() const = 0;
};

}  // namespace rigbench::engine
