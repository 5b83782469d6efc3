// rigbench: what the llama.cpp adapters share: one-time initialization, llama.cpp's log
// captured (its last error explains a failed load), name parsing, the memory breakdown.
// Internal to engine/: only engine/llama* files include it.
#pragma once

#include <ggml.h>
#include <llama.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::engine {

// Initializes llama.cpp once per process (see llama_engine.h).
void init_llama();

// Where llama.cpp put each layer during the last model load, from its load_tensors debug
// lines (captured whatever the log level): repeating layers per device, in the order first
// seen, and the device of the output layer ("" when the log said nothing: a vocab-only load).
struct LayerPlacement {
  std::vector<std::pair<std::string, int>> layers;  // device name -> repeating layers held
  std::string output_device;
};
void clear_layer_placement();
LayerPlacement layer_placement(int n_layer);

// Forgets captured error lines (call before a llama.cpp call whose failure you explain).
void clear_errors();

// llama.cpp's last error line without its function-name prefixes, e.g.
// "error loading model architecture: unknown model architecture: 'nonesuch'"; `fallback`
// when llama.cpp logged no error.
std::string last_error(const std::string& fallback);

// A ggml type from its name ("q8_0", case-insensitive); false when unknown.
bool parse_cache_type(const std::string& name, ggml_type& out);

// "on" / "off" / anything else = auto.
llama_flash_attn_type parse_flash_attn(const std::string& v);

// A load mode from llama.cpp's name ("auto", "none", "mmap", "mlock", "mmap+mlock", "dio"),
// through llama_load_mode_from_str; false when llama.cpp names no such mode.
bool parse_load_mode(const std::string& name, llama_load_mode& out);

// The model parameters a run loads with: -ngl from spec.n_gpu_layers (negative = every layer,
// 999), the load mode from spec.load_mode. kUsage naming `path` on an unknown load mode.
Result<llama_model_params> run_model_params(const std::string& path, const BenchParams& spec);

// The context parameters a run opens with: spec's n_ctx, n_batch, n_ubatch, n_threads (pp and
// tg), flash attention, KV cache types, and the placement's -nkvo and -nopo
// (engine/llama_placement.h apply_context_placement); one sequence, no full SWA cache.
// kUsage on an unknown cache type.
Result<llama_context_params> run_context_params(const BenchParams& spec);

// llama_model_load_from_file(path, mp): the model (free it with llama_model_free), or
// kInvalidInput "model 'PATH': llama.cpp cannot load it: <llama.cpp's last error>".
Result<llama_model*> load_model(const std::string& path, const llama_model_params& mp);

// A llama.cpp model freed with llama_model_free when its handle goes.
struct ModelFree {
  void operator()(llama_model* m) const { llama_model_free(m); }
};
using ModelHandle = std::unique_ptr<llama_model, ModelFree>;

// `path` loaded for its metadata and vocabulary alone (vocab_only: no tensor data read).
// Errors: those of load_model.
Result<ModelHandle> load_vocab_only(const std::string& path);

// The ggml devices `model`'s layers are on, by name ("Vulkan0"): its devices (llama-ext.h)
// when any of its layers is offloaded (`n_gpu_layers` != 0), else {"CPU"}; {"CPU"} without llama-ext.h.
std::vector<std::string> model_devices(const llama_model* model, int n_gpu_layers);

// llama.cpp's abort callback (llama_context_params::abort_callback): whether the
// std::atomic<bool> at `data` (the engine's cancel flag, Ctrl-C) is set; false for nullptr.
bool abort_requested(void* data);

// What llama_decode's return code `rc` means: 0 ok; 2 (aborted) or `cancel` set: kInterrupted
// "interrupted"; else kRuntime "<failure> (code N)" ("llama_decode failed during pp").
Status decode_status(int32_t rc, const std::atomic<bool>* cancel, const std::string& failure);

// A llama.cpp context and the threadpool attached to it, freed together (the context first),
// as llama-bench and llama-embedding hold them: one threadpool of spec.n_threads (with
// spec.poll and spec.cpu_strict) per context; without it ggml creates and joins threads on
// every graph, which slows tg.
class ContextHandle {
 public:
  ContextHandle() = default;
  ContextHandle(const ContextHandle&) = delete;
  ContextHandle& operator=(const ContextHandle&) = delete;
  ~ContextHandle() { reset(); }

  // Frees what it held, then creates the context of `params` on `model` and attaches the
  // threadpool of `spec`. Errors, kRuntime: "<failure>: <llama.cpp's last error>" when llama.cpp
  // cannot create the context (`failure` names it: "model 'm.gguf': cannot create a context
  // (n_ctx 4096)"), "cannot create a threadpool of N threads" when ggml cannot; nothing held then.
  Status open(llama_model* model, const llama_context_params& params, const BenchParams& spec,
              const std::string& failure);
  // Frees the context, then its threadpool (nothing held after).
  void reset();
  llama_context* get() const { return ctx_; }

 private:
  llama_context* ctx_ = nullptr;
  ggml_threadpool* pool_ = nullptr;
};

// llama.cpp's memory per buffer type for `ctx` (empty without llama-ext.h).
std::vector<BufferMemory> memory_breakdown(const llama_context* ctx);

}  // namespace rigbench::engine
