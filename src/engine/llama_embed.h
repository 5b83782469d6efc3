// rigbench: the llama.cpp embedder (engine/embedder.h) and the check, from the GGUF alone,
// whether a model is an embedding model. Only engine/llama* files include llama.h.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "core/status.h"
#include "engine/embedder.h"

namespace rigbench::engine {

// What the GGUF says the model is, read by a vocab-only load (no weights): `causal` from
// <arch>.attention.causal (llama.cpp's default true when absent), `pooling` from
// <arch>.pooling_type as llama.cpp names it ("none" when absent). n_embd_out is 0 here.
// Errors: kInvalidInput with llama.cpp's reason, naming the file.
Result<EmbedModel> read_embed_model(const std::string& path);

// An embedder on llama.cpp. `cancel` (may be null) aborts a call in flight when it becomes true.
std::unique_ptr<Embedder> make_llama_embedder(const std::atomic<bool>* cancel);

// For tests: whether the llama embedder's output buffer in llama.cpp is still the one that
// open_context sized, i.e. no embed() since paid for growing it inside its timed call (false
// for another Embedder or without a context).
bool llama_output_buffer_kept(const Embedder& embedder);

// llama.cpp's name of a pooling type: none, mean, cls, last, rank ("unspecified" otherwise).
std::string pooling_name(int llama_pooling_type);

}  // namespace rigbench::engine
