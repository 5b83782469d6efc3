// rigbench: Engine, the small interface through which the bench use case drives inference.
// The bench layer times these calls; the engine never reads a clock.
//
// Thread safety: an Engine is used from one thread. The cancel flag given at construction
// may be set from any thread (e.g. a SIGINT handler); a decode in flight then stops and
// returns kInterrupted.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::engine {

// What the model is loaded with; a change reloads it.
struct ModelSpec {
  std::string path;
  int n_gpu_layers = -1;  // layers offloaded to GPUs; -1 = all
  std::string load_mode = "auto";  // llama.cpp's load mode name (see load_modes()): auto, none, mmap, ...
  bool operator==(const ModelSpec&) const = default;
};

// What a context is created with.
struct ContextSpec {
  int n_ctx = 0;      // KV cache size in tokens
  int n_batch = 2048;
  int n_ubatch = 512;
  int n_threads = 1;  // threads for pp and tg (one ggml threadpool, as llama-bench)
  std::string flash_attn = "auto";  // "auto", "on", "off"
  std::string type_k = "f16";       // ggml type name of the K cache
  std::string type_v = "f16";       // ggml type name of the V cache
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Loads the model, or keeps the loaded one when `spec` equals the last. Frees any context.
  // Errors: kInvalidInput with llama.cpp's own reason (e.g. unknown architecture); kUsage
  // for a load mode llama.cpp does not name.
  virtual Status load(const ModelSpec& spec) = 0;

  // Creates a fresh context on the loaded model (the previous one is freed).
  // Errors: kRuntime (e.g. out of memory, a cache type the backend rejects).
  virtual Status open_context(const ContextSpec& spec) = 0;

  // Empties the KV cache (and recurrent state) of the context.
  virtual void clear() = 0;

  // Prompt processing: decodes n_tokens random token ids (BOS first when the vocab adds one)
  // in calls of n_batch tokens, then synchronizes once, as llama-bench's test_prompt.
  // Errors: kInterrupted when cancelled; kRuntime when llama_decode fails.
  virtual Status prompt(int n_tokens) = 0;

  // Token generation: n_tokens single-token decodes, each synchronized, the next token
  // random (no sampling), as llama-bench's test_gen. Errors as prompt().
  virtual Status generate(int n_tokens) = 0;

  // Samples one token greedily from the logits of the last decoded token (for TTFT).
  virtual Status sample() = 0;

  // Saves / restores sequence 0's state (the depth prefill), as llama-bench caches it.
  virtual Status save_state() = 0;
  virtual Status restore_state() = 0;

  // llama.cpp's memory per buffer type for the current context (empty when the build lacks
  // llama_get_memory_breakdown).
  virtual std::vector<BufferMemory> memory() const = 0;

  // ggml devices holding the model's layers ("CPU" when none is offloaded).
  virtual std::vector<std::string> devices_used() const = 0;
};

}  // namespace rigbench::engine
