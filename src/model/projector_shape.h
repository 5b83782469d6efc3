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
  uint32_t image_size = 0;      // clip.vision.image_size: pixels per side of the warmup image
  uint32_t patch_size = 0;      // clip.vision.patch_size
  uint32_t n_embd = 0;          // clip.vision.embedding_length
  uint32_t n_ff = 0;            // clip.vision.feed_forward_length
  uint32_t n_head = 0;          // clip.vision.attention.head_count
  uint32_t n_layer = 0;         // clip.vision.block_count
  uint32_t projection_dim = 0;  // clip.vision.projection_dim: the language model's n_embd

  // Patches of the warmup image (image_size / patch_size, squared; 0 without a vision encoder).
  uint64_t n_patches() const {
    return has_vision && patch_size > 0 ? static_cast<uint64_t>(image_size / patch_size) * (image_size / patch_size)
                                        : 0;
  }
};

// Reads the projector at `path`. Errors (one line naming the file as "mmproj 'PATH': ..."):
// kNotFound no such file; kInvalidInput not GGUF, or its architecture is not "clip".
Result<ProjectorShape> read_projector_shape(const std::string& path);

}  // namespace rigbench::model
