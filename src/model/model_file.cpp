#include "model/model_file.h"

#include <ggml.h>
#include <gguf.h>

#include <filesystem>
#include <memory>

#include "core/strings.h"
#include "model/gguf_inspect.h"

namespace rigbench::model {

namespace {

// Whether the GGUF at `path` has the key `key` (false when it cannot be read).
bool has_key(const std::string& path, const std::string& key) {
  ggml_context* meta = nullptr;
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/&meta};
  gguf_context* ctx = gguf_init_from_file(path.c_str(), params);
  if (!ctx) return false;
  const bool found = gguf_find_key(ctx, key.c_str()) >= 0;
  gguf_free(ctx);
  if (meta) ggml_free(meta);
  return found;
}

}  // namespace

Result<ModelFile> check_model_file(const std::string& path, bool with_fingerprint) {
  const std::string where = "model '" + path + "'";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    // exists() sets ec for anything but "not found": a folder on the way closed to this user.
    return fail(ErrorCode::kNotFound, where + (ec ? ": cannot reach it: " + errno_text(ec.value()) : ": no such file"));
  }
  if (std::filesystem::is_directory(path, ec))
    return fail(ErrorCode::kInvalidInput, where + ": is a directory, not a GGUF file");
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec) {
    return fail(ErrorCode::kInvalidInput, where + ": empty file (0 bytes), not a GGUF file");
  }
  auto info = with_fingerprint ? inspect(path) : inspect_header(path);
  if (!info) return std::unexpected(info.error());
  if (info->arch == "clip") {  // a multimodal projector: llama.cpp's tools take it with --mmproj
    return fail(ErrorCode::kInvalidInput, path + " is a vision projector (clip); pass it with --mmproj");
  }
  auto shape = read_shape(path);
  if (!shape) {
    if (!has_key(path, info->arch + ".block_count")) {
      return fail(ErrorCode::kInvalidInput,
                  where + ": unknown model architecture: '" + info->arch + "' (no " + info->arch + ".block_count key)");
    }
    return std::unexpected(shape.error());
  }
  return ModelFile{std::move(*info), std::move(*shape)};
}

}  // namespace rigbench::model
