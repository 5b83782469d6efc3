#include "model/projector_shape.h"

#include <ggml.h>
#include <gguf.h>

#include <filesystem>
#include <memory>

#include "model/gguf_reader.h"

namespace rigbench::model {

namespace {

using GgufPtr = std::unique_ptr<gguf_context, decltype(&gguf_free)>;

GgufPtr open_gguf(const std::string& path) {
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  return GgufPtr(gguf_init_from_file(path.c_str(), params), &gguf_free);
}

}  // namespace

Result<ProjectorShape> read_projector_shape(const std::string& path) {
  const std::string where = "mmproj '" + path + "'";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail(ErrorCode::kNotFound, where + ": no such file");
  GgufPtr ctx = open_gguf(path);
  if (!ctx) return fail(ErrorCode::kInvalidInput, where + ": not a GGUF file, or its metadata cannot be read");
  const std::string arch = GgufReader{ctx.get(), "general"}.str("architecture");
  if (arch != "clip") {
    return fail(ErrorCode::kInvalidInput,
                where + ": architecture '" + arch + "' is not a projector (clip); pass the model as MODEL");
  }
  const GgufReader clip{ctx.get(), "clip"};
  ProjectorShape p;
  p.projector_type = clip.str("projector_type");
  if (p.projector_type.empty()) p.projector_type = clip.str("vision.projector_type");
  p.has_vision = clip.u("has_vision_encoder") != 0;
  p.image_size = static_cast<uint32_t>(clip.u("vision.image_size"));
  p.patch_size = static_cast<uint32_t>(clip.u("vision.patch_size"));
  p.n_embd = static_cast<uint32_t>(clip.u("vision.embedding_length"));
  p.n_ff = static_cast<uint32_t>(clip.u("vision.feed_forward_length"));
  p.n_head = static_cast<uint32_t>(clip.u("vision.attention.head_count"));
  p.n_layer = static_cast<uint32_t>(clip.u("vision.block_count"));
  p.projection_dim = static_cast<uint32_t>(clip.u("vision.projection_dim"));
  for (int64_t i = 0; i < gguf_get_n_tensors(ctx.get()); ++i) p.weights_bytes += gguf_get_tensor_size(ctx.get(), i);
  return p;
}

}  // namespace rigbench::model
