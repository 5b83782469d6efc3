#include "model/gguf_inspect.h"

#include <ggml.h>
#include <gguf.h>
#include <xxhash.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <vector>

#include "core/model_name.h"
#include "core/strings.h"
#include "model/file_type.h"
#include "model/gguf_file.h"

namespace rigbench::model {

namespace fs = std::filesystem;

namespace {

std::string quoted(const std::string& path) { return "model '" + path + "'"; }

std::string string_value(const gguf_context* ctx, const char* key) {
  const int64_t id = gguf_find_key(ctx, key);
  if (id < 0 || gguf_get_kv_type(ctx, id) != GGUF_TYPE_STRING) return {};
  return gguf_get_val_str(ctx, id);
}

}  // namespace

Result<std::string> fingerprint(const std::string& path) {
  constexpr uint64_t kWholeLimit = 64ull << 20;
  constexpr uint64_t kHead = 16ull << 20;
  constexpr uint64_t kChunk = 256ull << 10;
  constexpr int kChunks = 32;

  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (!in || ec) return fail(ErrorCode::kNotFound, quoted(path) + ": cannot read the file");

  std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> state(XXH64_createState(), &XXH64_freeState);
  XXH64_reset(state.get(), 0);
  std::vector<char> buf(1 << 20);
  auto hash_range = [&](uint64_t offset, uint64_t length) -> bool {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    while (length > 0) {
      const auto n = static_cast<std::streamsize>(std::min<uint64_t>(length, buf.size()));
      in.read(buf.data(), n);
      if (in.gcount() != n) return false;
      XXH64_update(state.get(), buf.data(), static_cast<size_t>(n));
      length -= static_cast<uint64_t>(n);
    }
    return true;
  };

  bool ok = true;
  if (size <= kWholeLimit) {
    ok = hash_range(0, size);
  } else {
    XXH64_update(state.get(), &size, sizeof size);
    ok = hash_range(0, kHead);
    const uint64_t rest = size - kHead;
    for (int i = 0; ok && i < kChunks; ++i) {
      const uint64_t offset = kHead + (rest - kChunk) * static_cast<uint64_t>(i) / (kChunks - 1);
      ok = hash_range(offset, kChunk);
    }
  }
  if (!ok) return fail(ErrorCode::kInvalidInput, quoted(path) + ": read failed while fingerprinting");

  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH64_digest(state.get())));
  return std::string("xxh64:") + hex;
}

std::string stored_path(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (!ec && !canonical.empty()) return canonical.string();
  const fs::path absolute = fs::absolute(path, ec);
  return ec ? path : absolute.lexically_normal().string();
}

Result<ModelInfo> inspect_header(const std::string& path) {
  auto file = open_gguf(path);
  if (!file) return std::unexpected(file.error());
  return inspect_header(*file);
}

Result<ModelInfo> inspect_header(const GgufFile& file) {
  const std::string& path = file.path;
  const uint64_t size = file.size_bytes;
  const gguf_context* ctx = file.get();

  ModelInfo info;
  info.path = stored_path(path);
  info.size_bytes = size;
  info.arch = string_value(ctx, "general.architecture");
  if (info.arch.empty()) return fail(ErrorCode::kInvalidInput, quoted(path) + ": GGUF has no general.architecture key");

  // Tensor data must lie inside the file; a cut-off download fails here, not mid-load.
  const uint64_t data_offset = gguf_get_data_offset(ctx);
  uint64_t data_end = data_offset;
  std::map<std::string, uint64_t> bytes_by_type;
  for (int64_t i = 0; i < gguf_get_n_tensors(ctx); ++i) {
    const uint64_t nbytes = gguf_get_tensor_size(ctx, i);
    data_end = std::max<uint64_t>(data_end, data_offset + gguf_get_tensor_offset(ctx, i) + nbytes);
    bytes_by_type[ggml_type_name(gguf_get_tensor_type(ctx, i))] += nbytes;
    const int64_t* ne = gguf_get_tensor_ne(ctx, i);
    uint64_t n = 1;
    for (int d = 0; d < GGML_MAX_DIMS; ++d) n *= static_cast<uint64_t>(ne[d]);
    info.n_params += n;
  }
  if (data_end > size) {
    return fail(ErrorCode::kInvalidInput, quoted(path) + ": truncated GGUF (tensor data needs " +
                                              std::to_string(data_end) + " bytes, the file has " +
                                              std::to_string(size) + ")");
  }

  const int64_t ft = gguf_find_key(ctx, "general.file_type");
  if (ft >= 0 && gguf_get_kv_type(ctx, ft) == GGUF_TYPE_UINT32) {
    const uint32_t v = gguf_get_val_u32(ctx, ft);
    info.file_type = file_type_name(v).value_or("ftype " + std::to_string(v));
  } else {
    uint64_t best = 0;
    for (const auto& [type, bytes] : bytes_by_type) {
      if (bytes > best) {
        best = bytes;
        info.file_type = type;
      }
    }
    for (char& c : info.file_type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }

  const int64_t ctx_len = gguf_find_key(ctx, (info.arch + ".context_length").c_str());
  if (ctx_len >= 0 && gguf_get_kv_type(ctx, ctx_len) == GGUF_TYPE_UINT32)
    info.n_ctx_train = gguf_get_val_u32(ctx, ctx_len);

  const int64_t syn = gguf_find_key(ctx, "rigbench.synthetic");
  info.synthetic = syn >= 0 && gguf_get_kv_type(ctx, syn) == GGUF_TYPE_BOOL && gguf_get_val_bool(ctx, syn);
  if (info.synthetic) {
    const int64_t values = gguf_find_key(ctx, "rigbench.values");
    const int64_t seed = gguf_find_key(ctx, "rigbench.seed");
    info.synthetic_values = values >= 0 && gguf_get_kv_type(ctx, values) == GGUF_TYPE_UINT32
                                ? gguf_get_val_u32(ctx, values)
                                : 1;
    info.synthetic_seed =
        seed >= 0 && gguf_get_kv_type(ctx, seed) == GGUF_TYPE_UINT64 ? gguf_get_val_u64(ctx, seed) : 42;
  }
  info.name = model_file_name(path, string_value(ctx, "general.name"), info.synthetic);

  return info;
}

Result<ModelInfo> inspect(const std::string& path) {
  auto info = inspect_header(path);
  if (!info) return info;
  auto fp = fingerprint(path);
  if (!fp) return std::unexpected(fp.error());
  info->fingerprint = *fp;
  return info;
}

}  // namespace rigbench::model
