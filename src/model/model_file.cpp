#include "model/model_file.h"

#include <gguf.h>

#include <filesystem>
#include <memory>

#include "core/strings.h"
#include "model/gguf_file.h"
#include "model/gguf_inspect.h"

namespace rigbench::model {

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
  auto file = open_gguf(path);  // one parse of the header, read by inspect_header and read_shape
  if (!file) return std::unexpected(file.error());
  auto info = inspect_header(*file);
  if (!info) return std::unexpected(info.error());
  if (info->arch == "clip") {  // a multimodal projector: llama.cpp's tools take it with --mmproj
    return fail(ErrorCode::kInvalidInput, path + " is a vision projector (clip); pass it with --mmproj");
  }
  auto shape = read_shape(*file);
  if (!shape) {
    if (gguf_find_key(file->get(), (info->arch + ".block_count").c_str()) < 0) {
      return fail(ErrorCode::kInvalidInput,
                  where + ": unknown model architecture: '" + info->arch + "' (no " + info->arch + ".block_count key)");
    }
    return std::unexpected(shape.error());
  }
  if (with_fingerprint) {
    auto fp = fingerprint(path);
    if (!fp) return std::unexpected(fp.error());
    info->fingerprint = *fp;
  }
  return ModelFile{std::move(*info), std::move(*shape)};
}

}  // namespace rigbench::model
