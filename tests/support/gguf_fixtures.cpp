#include "support/gguf_fixtures.h"

#include <ggml.h>
#include <gguf.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/temp_dir.h"

namespace rigbench::testing {

void write_gguf_with_key(const std::string& src, const std::string& dst, const std::string& key,
                         const std::string& value) {
  // New metadata, then the original tensor data section (tensor offsets are relative to it).
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  gguf_context* ctx = gguf_init_from_file(src.c_str(), params);
  if (!ctx) throw std::runtime_error("cannot read " + src);
  const std::size_t data_offset = gguf_get_data_offset(ctx);
  gguf_set_val_str(ctx, key.c_str(), value.c_str());
  const bool ok = gguf_write_to_file(ctx, dst.c_str(), /*only_meta=*/true);
  gguf_free(ctx);
  if (!ok) throw std::runtime_error("cannot write " + dst);
  std::ofstream out(dst, std::ios::binary | std::ios::app);
  out << read_file(src).substr(data_offset);
}

void write_truncated(const std::string& src, const std::string& dst, std::size_t n_bytes) {
  write_file(dst, read_file(src).substr(0, n_bytes));
}

std::size_t write_projector(const std::string& path) {
  gguf_context* ctx = gguf_init_empty();
  gguf_set_val_str(ctx, "general.architecture", "clip");
  gguf_set_val_bool(ctx, "clip.has_vision_encoder", true);
  gguf_set_val_str(ctx, "clip.projector_type", "gemma3");
  const std::pair<const char*, uint32_t> keys[] = {
      {"clip.vision.image_size", 896},          {"clip.vision.patch_size", 14},
      {"clip.vision.embedding_length", 1152},   {"clip.vision.feed_forward_length", 4304},
      {"clip.vision.attention.head_count", 16}, {"clip.vision.block_count", 27},
      {"clip.vision.projection_dim", 2560}};
  for (const auto& [k, v] : keys) gguf_set_val_u32(ctx, k, v);
  ggml_init_params ip{/*mem_size=*/4 * ggml_tensor_overhead(), /*mem_buffer=*/nullptr, /*no_alloc=*/true};
  ggml_context* meta = ggml_init(ip);
  ggml_tensor* patch = ggml_new_tensor_4d(meta, GGML_TYPE_F16, 14, 14, 3, 1152);
  ggml_set_name(patch, "v.patch_embd.weight");
  ggml_tensor* proj = ggml_new_tensor_2d(meta, GGML_TYPE_F16, 1152, 2560);
  ggml_set_name(proj, "mm.input_projection.weight");
  gguf_add_tensor(ctx, patch);
  gguf_add_tensor(ctx, proj);
  const std::size_t bytes = ggml_nbytes(patch) + ggml_nbytes(proj);
  const bool ok = gguf_write_to_file(ctx, path.c_str(), /*only_meta=*/true);
  const std::size_t meta_size = gguf_get_meta_size(ctx);
  gguf_free(ctx);
  ggml_free(meta);
  if (!ok) throw std::runtime_error("cannot write " + path);
  std::filesystem::resize_file(path, meta_size + bytes + 64);
  return bytes;
}

std::size_t write_lightonocr_projector(const std::string& path, int n_layer) {
  constexpr int64_t kEmbd = 1024, kFf = 4096, kPatch = 14, kMerge = 2, kProj = 1024;
  gguf_context* ctx = gguf_init_empty();
  gguf_set_val_str(ctx, "general.architecture", "clip");
  gguf_set_val_bool(ctx, "clip.has_vision_encoder", true);
  gguf_set_val_str(ctx, "clip.projector_type", "lightonocr");
  gguf_set_val_bool(ctx, "clip.use_silu", true);
  const std::pair<const char*, uint32_t> keys[] = {
      {"clip.vision.image_size", 1540},         {"clip.vision.patch_size", kPatch},
      {"clip.vision.embedding_length", kEmbd},  {"clip.vision.feed_forward_length", kFf},
      {"clip.vision.attention.head_count", 16}, {"clip.vision.block_count", static_cast<uint32_t>(n_layer)},
      {"clip.vision.projection_dim", kProj},    {"clip.vision.spatial_merge_size", kMerge}};
  for (const auto& [k, v] : keys) gguf_set_val_u32(ctx, k, v);
  gguf_set_val_f32(ctx, "clip.vision.attention.layer_norm_epsilon", 1e-5f);
  const float mean[3] = {0.481f, 0.458f, 0.408f}, std_dev[3] = {0.269f, 0.261f, 0.276f};
  gguf_set_arr_data(ctx, "clip.vision.image_mean", GGUF_TYPE_FLOAT32, mean, 3);
  gguf_set_arr_data(ctx, "clip.vision.image_std", GGUF_TYPE_FLOAT32, std_dev, 3);
  const int n_tensors = 6 + 9 * n_layer;
  ggml_init_params ip{/*mem_size=*/static_cast<std::size_t>(n_tensors) * ggml_tensor_overhead(), /*mem_buffer=*/nullptr,
                      /*no_alloc=*/true};
  ggml_context* meta = ggml_init(ip);
  std::size_t bytes = 0;
  auto add = [&](const std::string& name, ggml_type type, std::vector<int64_t> ne) {
    ggml_tensor* t = ggml_new_tensor(meta, type, static_cast<int>(ne.size()), ne.data());
    ggml_set_name(t, name.c_str());
    gguf_add_tensor(ctx, t);
    bytes += ggml_nbytes(t);
  };
  add("v.patch_embd.weight", GGML_TYPE_F16, {kPatch, kPatch, 3, kEmbd});
  add("v.pre_ln.weight", GGML_TYPE_F32, {kEmbd});
  for (int il = 0; il < n_layer; ++il) {
    const std::string blk = "v.blk." + std::to_string(il) + ".";
    for (const char* m : {"attn_q", "attn_k", "attn_v", "attn_out"})
      add(blk + m + ".weight", GGML_TYPE_F16, {kEmbd, kEmbd});
    add(blk + "ln1.weight", GGML_TYPE_F32, {kEmbd});
    add(blk + "ln2.weight", GGML_TYPE_F32, {kEmbd});
    add(blk + "ffn_gate.weight", GGML_TYPE_F16, {kEmbd, kFf});
    add(blk + "ffn_up.weight", GGML_TYPE_F16, {kEmbd, kFf});
    add(blk + "ffn_down.weight", GGML_TYPE_F16, {kFf, kEmbd});
  }
  add("mm.input_norm.weight", GGML_TYPE_F32, {kEmbd});
  add("mm.patch_merger.weight", GGML_TYPE_F16, {kEmbd * kMerge * kMerge, kEmbd});
  add("mm.1.weight", GGML_TYPE_F16, {kEmbd, kProj});
  add("mm.2.weight", GGML_TYPE_F16, {kProj, kProj});
  const bool ok = gguf_write_to_file(ctx, path.c_str(), /*only_meta=*/true);
  const std::size_t data_end = gguf_get_meta_size(ctx) + gguf_get_tensor_offset(ctx, gguf_get_n_tensors(ctx) - 1) +
                               gguf_get_tensor_size(ctx, gguf_get_n_tensors(ctx) - 1);
  gguf_free(ctx);
  ggml_free(meta);
  if (!ok) throw std::runtime_error("cannot write " + path);
  std::filesystem::resize_file(path, data_end + 64);
  return bytes;
}

}  // namespace rigbench::testing
