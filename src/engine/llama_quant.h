// rigbench: the tensor types that llama.cpp's quantizer gives a model for a file type,
// asked of llama.cpp itself (llama_quant_compute_types on a mock model), so that a synthetic
// Q4_K_M file has exactly the mix of Q4_K/Q6_K/... that llama-quantize would write.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "model/preset.h"
#include "model/tensor_layout.h"

namespace rigbench::engine {

// ggml_type per tensor (same order as `tensors`) for GGUF general.file_type `file_type`.
// Tensors the quantizer leaves alone keep the type a converter writes: F32 for 1-D tensors,
// routers (ffn_gate_inp), position and token-type embeddings, recurrent convolutions and
// names without ".weight" (ssm_a); F16 otherwise (F32 for an all-F32 file). Errors: kUsage for a file type with no
// default tensor type.
Result<std::vector<int>> quant_types(const model::Preset& p, const std::vector<model::TensorSpec>& tensors,
                                     uint32_t file_type);

}  // namespace rigbench::engine
