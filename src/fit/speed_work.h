// rigbench: the work one token costs a model, as the speed prediction (fit/speed_prediction.h)
// divides it into a device's bandwidth and compute. Pure functions of the model's shape.
#pragma once

#include <cstdint>

#include "model/model_shape.h"

namespace rigbench::fit {

// The share of tensor `t`'s bytes one token reads: used / total experts for an MoE expert
// tensor (a name with "_exps"), 1 for the rest.
double expert_share(const model::ModelShape& shape, const model::TensorInfo& t);

// Weight bytes read per generated token: every tensor's bytes (GGUF tensor infos), MoE expert
// tensors (names with "_exps") scaled by used / total experts. The input embeddings count, as
// llama-bench's model size (the dataset's work per token) counts them.
uint64_t weight_bytes_per_token(const model::ModelShape& shape);

// Parameters a token multiplies: every tensor's elements (bytes / the ggml type's bytes per
// block x its elements per block), experts scaled as above. 0 when a tensor's type is unknown.
uint64_t active_params(const model::ModelShape& shape);

// Every tensor's elements, experts unscaled: what llama.cpp's model_n_params (and a stored
// run's model.n_params) counts. 0 when a tensor's type is unknown.
uint64_t total_params(const model::ModelShape& shape);

// FLOPs per prompt token: 2 x active_params (one multiply-add per weight; attention over a
// short prompt is left out).
double flops_per_token(const model::ModelShape& shape);

}  // namespace rigbench::fit
