#include "support/gguf_fixtures.h"

#include <ggml.h>
#include <gguf.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

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

}  // namespace rigbench::testing
