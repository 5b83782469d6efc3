// rigbench: writes a synthetic GGUF (vLLM's "dummy weights"): the tensors, types and
// metadata of a real model, filled with random values, so that llama.cpp loads and runs it at
// the real model's speed and memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/preset.h"
#include "model/tensor_layout.h"

namespace rigbench::model {

struct SynthSpec {
  Preset preset;
  std::vector<TensorSpec> tensors;
  std::vector<int> types;  // ggml_type per tensor (same order as `tensors`)
  uint32_t file_type = 0;  // GGUF general.file_type (llama.cpp ftype)
  std::string output_path;
  bool header_only = false;  // metadata and tensor infos; tensor data left as a sparse hole
  std::string vocab_dir;     // folder holding llama.cpp's ggml-vocab-*.gguf ("" = generate)
  uint64_t seed = 42;
  const std::atomic<bool>* cancel = nullptr;  // set (by SIGINT) = stop, remove the partial file
};

struct SynthResult {
  uint64_t size_bytes = 0;    // logical file size
  uint64_t tensor_bytes = 0;  // bytes of tensor data
  std::string tokenizer;      // "copied from <file>" or "generated (<n> tokens)"
};

// Writes spec.output_path through a temporary file in the same folder, renamed at the end:
// on any error no partial file is left. Values follow synth_values.h (random weights shaped
// so that attention behaves as a trained model's), quantized with ggml_quantize_chunk into a
// small pool of rows per (type, row length, recipe) that fills the tensors row by row.
// The file is marked with rigbench.synthetic = true, rigbench.values = kValuesVersion and
// rigbench.seed = spec.seed.
// `spec.cancel`, when set, is checked before each write (every 8 MiB at most): the partial
// file is removed and the call returns kInterrupted.
// Errors: kInvalidInput (a type that needs an importance matrix, sizes that do not match);
// kRuntime naming the path (cannot create, no space left on the device); kInterrupted.
Result<SynthResult> write_synthetic(const SynthSpec& spec);

}  // namespace rigbench::model
