#include "engine/llama_quant.h"

#include <ggml.h>
#include <llama.h>
#ifdef RIGBENCH_HAVE_LLAMA_EXT
#include <llama-ext.h>
#endif

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/llama_engine.h"
#include "engine/llama_support.h"

namespace rigbench::engine {

namespace {

// The converter's F32 rule (conversion/base.py): 1-D tensors, routers, position and
// token-type embeddings, recurrent convolutions, and names without ".weight" (ssm_a).
bool keeps_f32(const model::TensorSpec& t) {
  const bool weight = t.name.size() >= 7 && t.name.compare(t.name.size() - 7, 7, ".weight") == 0;
  return t.n_dims == 1 || !weight || t.name.find("ffn_gate_inp") != std::string::npos ||
         t.name == "position_embd.weight" || t.name == "token_types.weight" ||
         t.name.find("ssm_conv1d") != std::string::npos;
}

int layer_of(const char* name) {
  int layer = -1;
  std::sscanf(name, "blk.%d.", &layer);
  return layer;
}

}  // namespace

Result<std::vector<int>> quant_types(const model::Preset& p, const std::vector<model::TensorSpec>& tensors,
                                     uint32_t file_type) {
  init_llama();
#ifndef RIGBENCH_HAVE_LLAMA_EXT
  (void)p;
  (void)tensors;
  (void)file_type;
  return fail(ErrorCode::kRuntime, "synthetic models need llama.cpp's llama-ext.h (the bundled llama.cpp build)");
#else
  const auto ftype = static_cast<llama_ftype>(file_type);
  const ggml_type default_type = llama_ftype_get_default_type(ftype);
  if (default_type == GGML_TYPE_COUNT) {
    return fail(ErrorCode::kUsage,
                "--quant: file type " + std::to_string(file_type) + " has no tensor type in llama.cpp");
  }
  const ggml_type source_type = ftype == LLAMA_FTYPE_ALL_F32 ? GGML_TYPE_F32 : GGML_TYPE_F16;

  llama_quant_model_desc desc{};
  desc.architecture = p.arch.c_str();
  desc.n_embd = p.n_embd;
  desc.n_ff = p.n_ff;
  desc.n_layer = p.n_layer;
  desc.n_head = p.n_head;
  desc.n_head_kv = p.is_mla() ? 1 : p.n_head_kv;
  desc.n_expert = p.n_expert;
  desc.n_embd_head_k = p.is_mla() ? p.kv_lora_rank + p.qk_rope_dim : p.head_k();
  desc.n_embd_head_v = p.is_mla() ? p.kv_lora_rank : p.head_k();
  ModelHandle model(llama_quant_model_from_metadata(&desc));

  llama_model_quantize_params params = llama_model_quantize_default_params();
  params.ftype = ftype;
  std::unique_ptr<quantize_state_impl, decltype(&llama_quant_free)> qs(llama_quant_init(model.get(), &params),
                                                                       &llama_quant_free);

  const ggml_init_params gp{ggml_tensor_overhead() * (tensors.size() + 1), nullptr, /*no_alloc=*/true};
  std::unique_ptr<ggml_context, decltype(&ggml_free)> ctx(ggml_init(gp), &ggml_free);
  std::vector<int> types(tensors.size());
  std::vector<ggml_tensor*> quantizable;
  std::vector<size_t> index;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    const ggml_type src = keeps_f32(t) ? GGML_TYPE_F32 : source_type;
    ggml_tensor* gt = ggml_new_tensor(ctx.get(), src, t.n_dims, t.ne.data());
    ggml_set_name(gt, t.name.c_str());
    types[i] = src;
    if (ftype != LLAMA_FTYPE_ALL_F32 && !keeps_f32(t) && llama_quant_tensor_allows_quantization(qs.get(), gt)) {
      quantizable.push_back(gt);
      index.push_back(i);
    }
  }
  // The quantizer counts layers as it goes: give it the loader's order (layer, then name).
  std::vector<size_t> order(quantizable.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const int la = layer_of(quantizable[a]->name), lb = layer_of(quantizable[b]->name);
    if (la != lb) return la < lb;
    return std::string(quantizable[a]->name) < std::string(quantizable[b]->name);
  });
  std::vector<ggml_tensor*> sorted;
  for (size_t k : order) sorted.push_back(quantizable[k]);
  std::vector<ggml_type> result(sorted.size());
  llama_quant_compute_types(qs.get(), ftype, sorted.data(), result.data(), sorted.size());
  for (size_t k = 0; k < order.size(); ++k) types[index[order[k]]] = result[k];
  return types;
#endif
}

}  // namespace rigbench::engine
