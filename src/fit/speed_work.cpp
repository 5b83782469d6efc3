#include "fit/speed_work.h"

#include <ggml.h>

#include <string>

namespace rigbench::fit {

double expert_share(const model::ModelShape& s, const model::TensorInfo& t) {
  const bool expert = t.name.find("_exps") != std::string::npos;
  return expert && s.n_expert > 0 ? static_cast<double>(s.n_expert_used) / s.n_expert : 1.0;
}

namespace {

// ggml's type named `name` ("q4_K"), or GGML_TYPE_COUNT.
ggml_type type_named(const std::string& name) {
  for (int i = 0; i < GGML_TYPE_COUNT; ++i) {
    const auto t = static_cast<ggml_type>(i);
    if (ggml_type_size(t) == 0) continue;  // removed types
    const char* n = ggml_type_name(t);
    if (n != nullptr && name == n) return t;
  }
  return GGML_TYPE_COUNT;
}

// Every tensor's elements, experts scaled by used / total when `active`; 0 when a type is unknown.
uint64_t params(const model::ModelShape& s, bool active) {
  double n = 0;
  for (const auto& t : s.tensors) {
    const ggml_type type = type_named(t.type);
    if (type == GGML_TYPE_COUNT) return 0;
    const double elements = static_cast<double>(t.bytes) / ggml_type_size(type) * ggml_blck_size(type);
    n += elements * (active ? expert_share(s, t) : 1.0);
  }
  return static_cast<uint64_t>(n);
}

}  // namespace

uint64_t weight_bytes_per_token(const model::ModelShape& s) {
  double bytes = 0;
  for (const auto& t : s.tensors) bytes += static_cast<double>(t.bytes) * expert_share(s, t);
  return static_cast<uint64_t>(bytes);
}

uint64_t active_params(const model::ModelShape& s) { return params(s, true); }

uint64_t total_params(const model::ModelShape& s) { return params(s, false); }

double flops_per_token(const model::ModelShape& s) { return 2.0 * static_cast<double>(active_params(s)); }

}  // namespace rigbench::fit
