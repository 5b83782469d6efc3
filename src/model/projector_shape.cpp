#include "model/projector_shape.h"

#include <ggml.h>
#include <gguf.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string_view>

#include "model/gguf_reader.h"

namespace rigbench::model {

namespace {

using GgufPtr = std::unique_ptr<gguf_context, decltype(&gguf_free)>;

GgufPtr open_gguf(const std::string& path) {
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  return GgufPtr(gguf_init_from_file(path.c_str(), params), &gguf_free);
}

// How llama.cpp's clip sizes a projector type's warmup image (clip.cpp load_hparams, pinned
// release): the per-side merge it starts from, the key that may change it, and the token count
// of a capped warmup (0: the warmup image is clip.vision.image_size).
struct WarmupRule {
  std::string_view type;
  uint32_t n_merge;            // llama.cpp's default for the type
  std::string_view merge_key;  // "spatial_merge_size", "projector.scale_factor" (under clip.vision.) or ""
  uint32_t warmup_tokens;      // set_warmup_n_tokens / set_limit_image_tokens' maximum; 0 = image_size
};

constexpr std::string_view kSpatial = "spatial_merge_size";
constexpr std::string_view kScale = "projector.scale_factor";

constexpr WarmupRule kWarmupRules[] = {
    {"phi4", 1, "", 16 * 16},
    {"pixtral", 1, kSpatial, 256},
    {"lightonocr", 1, kSpatial, 256},
    {"dots_ocr", 1, kScale, 46 * 46},
    {"dots3note_v", 1, kSpatial, 46 * 46},
    {"kimivl", 1, kScale, 256},
    {"kimik25", 1, kScale, 4096},  // without clip.vision.image_max_pixels (see below)
    {"deepseek4v", 1, kScale, 256},
    {"gemma3", 4, kScale, 0},
    {"gemma4v", 3, kScale, 256},
    {"gemma4uv", 3, kScale, 256},
    {"lfm2", 1, kScale, 256},
    {"qwen2vl_merger", 2, kSpatial, 46 * 46},
    {"qwen2.5vl_merger", 2, kSpatial, 46 * 46},
    {"qwen3vl_merger", 2, kSpatial, 46 * 46},
    {"minimax_m3", 2, kSpatial, 16 * 16},
    {"muse-glimmer", 2, kSpatial, 32 * 32},
    {"mimovl", 2, kSpatial, 46 * 46},
    {"youtuvl", 2, kSpatial, 16 * 16},
    {"glm4v", 2, kSpatial, 46 * 46},
    {"paddleocr", 2, "", 28 * 28},
    {"hunyuanvl", 2, kSpatial, 32 * 32},
    {"exaone4_5", 2, kSpatial, 46 * 46},
};

// Sets p.n_merge and p.warmup_image_size from the type's rule (p.image_size and p.patch_size read).
void apply_warmup_rule(const GgufReader& vision, ProjectorShape& p) {
  p.warmup_image_size = p.image_size;
  for (const auto& rule : kWarmupRules) {
    if (rule.type != p.projector_type) continue;
    p.n_merge = rule.merge_key.empty() ? rule.n_merge
                                       : static_cast<uint32_t>(vision.u(std::string(rule.merge_key), rule.n_merge));
    if (p.projector_type == "gemma4uv") {  // the merge is done by a larger patch
      p.patch_size *= p.n_merge;
      p.n_merge = 1;
    }
    const uint64_t max_pixels = vision.u("image_max_pixels");
    if (p.projector_type == "kimik25" && vision.u("image_min_pixels") > 0 && max_pixels > 0) {
      p.warmup_image_size = static_cast<uint32_t>(std::sqrt(static_cast<double>(max_pixels)));
    } else if (rule.warmup_tokens > 0) {
      const auto per_side = static_cast<uint32_t>(std::sqrt(static_cast<double>(rule.warmup_tokens)));
      p.warmup_image_size = per_side * p.patch_size * p.n_merge;
    }
    return;
  }
  if (p.projector_type == "deepseekocr" || p.projector_type == "deepseekocr2") {  // fixed 1024 px, 16 px patches
    p.patch_size = 16;
    p.image_size = p.warmup_image_size = 1024;
  }
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
  p.gated_ffn = gguf_find_tensor(ctx.get(), "v.blk.0.ffn_gate.weight") >= 0;
  apply_warmup_rule(GgufReader{ctx.get(), "clip.vision"}, p);
  for (int64_t i = 0; i < gguf_get_n_tensors(ctx.get()); ++i) p.weights_bytes += gguf_get_tensor_size(ctx.get(), i);
  return p;
}

}  // namespace rigbench::model
