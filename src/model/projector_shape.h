// rigbench: a multimodal projector (llama.cpp's mtmd/clip GGUF, "mmproj") as fit needs it,
// read from GGUF metadata and tensor infos alone.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"

namespace rigbench::model {

struct ProjectorShape {
  std::string projector_type;   // clip.projector_type (or clip.vision.projector_type)
  uint64_t weights_bytes = 0;   // every tensor's bytes (the vision and audio encoders and the projector)
  bool has_vision = false;      // clip.has_vision_encoder
  uint32_t image_size = 0;      // clip.vision.image_size: pixels per side of the largest image
  uint32_t patch_size = 0;      // clip.vision.patch_size (as llama.cpp uses it: gemma4uv's times its merge)
  uint32_t n_merge = 1;         // patches merged per side after the encoder (clip.vision.spatial_merge_size
                                // or clip.vision.projector.scale_factor, else the type's default)
  // Pixels per side of the image llama.cpp's clip reserves its compute buffer with (its warmup
  // image, clip_model_loader::load_hparams of the pinned release): image_size for most types; a
  // fixed token count for those llama.cpp caps "to avoid OOM on warmup" (LightOnOCR, Pixtral,
  // Qwen2/2.5/3-VL, GLM-4V, Gemma 4, ...: sqrt(tokens) x patch_size x n_merge).
  uint32_t warmup_image_size = 0;
  uint32_t n_embd = 0;          // clip.vision.embedding_length
  uint32_t n_ff = 0;            // clip.vision.feed_forward_length
  uint32_t n_head = 0;          // clip.vision.attention.head_count
  uint32_t n_layer = 0;         // clip.vision.block_count
  uint32_t projection_dim = 0;  // clip.vision.projection_dim: the language model's n_embd
  bool gated_ffn = false;       // the encoder's FFN has a gate (tensor v.blk.0.ffn_gate.weight: SwiGLU, Pixtral)

  // Patches of the warmup image (warmup_image_size / patch_size, squared; 0 without a vision encoder).
  uint64_t n_patches() const {
    const uint64_t side = patch_size > 0 ? warmup_image_size / patch_size : 0;
    return has_vision ? side * side : 0;
  }
};

// Reads the projector at `path`. Errors (one line naming the file as "mmproj 'PATH': ..."):
// kNotFound no such file; kInvalidInput not GGUF, or its architecture is not "clip".
Result<ProjectorShape> read_projector_shape(const std::string& path);

}  // namespace rigbench::model
