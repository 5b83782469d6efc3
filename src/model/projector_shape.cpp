#include "model/projector_shape.h"

#include <ggml.h>
#include <gguf.h>

#include <filesystem>
#include <memory>

namespace rigbench::model {

namespace {

using GgufPtr = std::unique_ptr<gguf_context, decltype(&gguf_free)>;

GgufPtr open_gguf(const std::string& path) {
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  return GgufPtr(gguf_init_from_file(path.c_str(), params), &gguf_free);
}

std::string str_key(const gguf_context* ctx, const char* key) {
  const int64_t id = gguf_find_key(ctx, key);
  return id >= 0 && gguf_get_kv_type(ctx, id) == GGUF_TYPE_STRING ? gguf_get_val_str(ctx, id) : "";
}

uint32_t u32_key(const gguf_context* ctx, const char* key) {
  const int64_t id = gguf_find_key(ctx, key);
  if (id < 0) return 0;
  switch (gguf_get_kv_type(ctx, id)) {
    case GGUF_TYPE_UINT32: return gguf_get_val_u32(ctx, id);
    case GGUF_TYPE_INT32: return static_cast<uint32_t>(std::max(0, gguf_get_val_i32(ctx, id)));
    case GGUF_TYPE_UINT64: return static_cast<uint32_t>(gguf_get_val_u64(ctx, id));
    case GGUF_TYPE_BOOL: return gguf_get_val_bool(ctx, id) ? 1 : 0;
    default: return 0;
  }
}

}  // namespace

bool is_projector_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  GgufPtr ctx = open_gguf(path);
  return ctx && str_key(ctx.get(), "general.architecture") == "clip";
}

Result<ProjectorShape> read_projector_shape(const std::string& path) {
  const std::string where = "mmproj '" + path + "'";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail(ErrorCode::kNotFound, where + ": no such file");
  GgufPtr ctx = open_gguf(path);
  if (!ctx) return fail(ErrorCode::kInvalidInput, where + ": not a GGUF file, or its metadata cannot be read");
  const std::string arch = str_key(ctx.get(), "general.architecture");
  if (arch != "clip") {
    return fail(ErrorCode::kInvalidInput,
                where + ": architecture '" + arch + "' is not a projector (clip); pass the model as MODEL");
  }
  ProjectorShape p;
  p.projector_type = str_key(ctx.get(), "clip.projector_type");
  if (p.projector_type.empty()) p.projector_type = str_key(ctx.get(), "clip.vision.projector_type");
  p.has_vision = u32_key(ctx.get(), "clip.has_vision_encoder") != 0;
  p.image_size = u32_key(ctx.get(), "clip.vision.image_size");
  p.patch_size = u32_key(ctx.get(), "clip.vision.patch_size");
  p.n_embd = u32_key(ctx.get(), "clip.vision.embedding_length");
  p.n_ff = u32_key(ctx.get(), "clip.vision.feed_forward_length");
  p.n_head = u32_key(ctx.get(), "clip.vision.attention.head_count");
  p.n_layer = u32_key(ctx.get(), "clip.vision.block_count");
  p.projection_dim = u32_key(ctx.get(), "clip.vision.projection_dim");
  for (int64_t i = 0; i < gguf_get_n_tensors(ctx.get()); ++i) p.weights_bytes += gguf_get_tensor_size(ctx.get(), i);
  return p;
}

}  // namespace rigbench::model
