// rigbench: Engine, the small interface through which the bench use case drives inference.
// The measure layer (the bench use case) times these calls; the engine never reads a clock.
//
// Thread safety: an Engine is used from one thread. The cancel flag given at construction
// may be set from any thread (e.g. a SIGINT handler); a decode in flight then stops and
// returns kInterrupted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::engine {

// One message of a chat (a prompt suite's "messages"): role "system", "user" or "assistant".
struct ChatMessage {
  std::string role;
  std::string content;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Loads the model at `path` with the model-load knobs of `params` (core/knobs.h:
  // n_gpu_layers, load_mode), or keeps the loaded one when the path and those knobs are the
  // last ones'. Frees any context.
  // Errors: kInvalidInput with llama.cpp's own reason (e.g. unknown architecture); kUsage
  // for a load mode llama.cpp does not name.
  virtual Status load(const std::string& path, const BenchParams& params) = 0;

  // Creates a fresh context on the loaded model (the previous one is freed) with the
  // context knobs of `params`: n_ctx, n_batch, n_ubatch, n_threads, poll, flash_attn,
  // type_k, type_v.
  // Errors: kRuntime (e.g. out of memory, a cache type the backend rejects).
  virtual Status open_context(const BenchParams& params) = 0;

  // Empties the KV cache (and recurrent state) of the context.
  virtual void clear() = 0;

  // Prompt processing: decodes n_tokens random token ids (BOS first when the vocab adds one)
  // in calls of n_batch tokens, then synchronizes once, as llama-bench's test_prompt.
  // Errors: kInterrupted when cancelled; kRuntime when llama_decode fails.
  virtual Status prompt(int n_tokens) = 0;

  // Token generation: n_tokens single-token decodes, each synchronized, the next token
  // random (no sampling), as llama-bench's test_gen. Errors as prompt().
  virtual Status generate(int n_tokens) = 0;

  // generate(), with `after_token` called after each token's decode has synchronized, so
  // that the caller can time every token (the engine reads no clock). The default generates
  // one token at a time through generate(1).
  virtual Status generate_each(int n_tokens, const std::function<void()>& after_token) {
    for (int i = 0; i < n_tokens; ++i) {
      if (Status s = generate(1); !s) return s;
      if (after_token) after_token();
    }
    return {};
  }

  // Samples one token greedily from the logits of the last decoded token (for TTFT).
  virtual Status sample() = 0;

  // --- Real text (prompt suites, `bench --prompts`). The defaults say the engine cannot. ---

  // Whether the loaded model carries a chat template (GGUF tokenizer.chat_template).
  virtual bool has_chat_template() const { return false; }

  // The model's chat template applied to `messages`, the assistant's turn opened after them.
  // Errors: kInvalidInput when the model has no template or llama.cpp does not know it.
  virtual Result<std::string> apply_chat_template(const std::vector<ChatMessage>& messages) const {
    (void)messages;
    return fail(ErrorCode::kInvalidInput, "this engine applies no chat template");
  }

  // `text` tokenized with the loaded model's tokenizer: BOS (and what else the vocab adds)
  // first, special tokens written in the text (a template's) parsed as such.
  virtual Result<std::vector<int32_t>> tokenize(const std::string& text) const {
    (void)text;
    return fail(ErrorCode::kRuntime, "this engine does not tokenize");
  }

  // Decodes `tokens` in calls of n_batch tokens, then synchronizes (a prompt's prefill).
  virtual Status decode_tokens(const std::vector<int32_t>& tokens) {
    (void)tokens;
    return fail(ErrorCode::kRuntime, "this engine does not decode text");
  }

  // Samples greedily from the logits of the last decoded token and returns the token.
  virtual Result<int32_t> sample_token() { return fail(ErrorCode::kRuntime, "this engine does not sample text"); }

  // Whether `token` ends generation (end of sequence, end of turn, ...).
  virtual bool is_end_of_generation(int32_t token) const {
    (void)token;
    return false;
  }

  // Saves / restores sequence 0's state (the depth prefill), as llama-bench caches it.
  virtual Status save_state() = 0;
  virtual Status restore_state() = 0;

  // llama.cpp's memory per buffer type for the current context (empty when the build lacks
  // llama_get_memory_breakdown).
  virtual std::vector<BufferMemory> memory() const = 0;

  // Writes into `params` the settings the current context really has where llama.cpp
  // changes what was asked in a way that changes the computation: n_ubatch above n_batch runs
  // as n_batch. (llama.cpp also caps both at n_ctx; a test never holds more tokens than
  // n_ctx, so that cap changes nothing and the asked sizes stay, comparable with
  // llama-bench's records, which keep them as asked.)
  virtual void settings_used(BenchParams& params) const = 0;

  // ggml devices holding the model's layers ("CPU" when none is offloaded).
  virtual std::vector<std::string> devices_used() const = 0;

  // For a model loaded with rpc-servers (BenchParams::rpc): every device that holds layers,
  // the remote ones with what their server reported and the round trip measured before the
  // first run, and the layers each was given. Empty for a local load.
  virtual std::vector<TopologyDevice> topology() const { return {}; }
};

}  // namespace rigbench::engine
