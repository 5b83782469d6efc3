#include "model/synth_writer.h"

#include <fcntl.h>
#include <ggml.h>
#include <gguf.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "model/gguf_metadata.h"
#include "model/synth_values.h"

namespace rigbench::model {

namespace fs = std::filesystem;

namespace {

constexpr int kPoolRows = 64;              // distinct random rows per (type, row length, recipe)
constexpr size_t kWriteBuffer = 8u << 20;  // bytes per write() call

// A file descriptor that writes fully or says why not.
class Output {
 public:
  explicit Output(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  ~Output() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  Status write(const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return fail(ErrorCode::kRuntime, "'" + path_ + "': write failed: " + std::strerror(errno));
      p += w;
      n -= static_cast<size_t>(w);
    }
    return {};
  }
  Status close() {
    const int fd = fd_;
    fd_ = -1;
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
      return fail(ErrorCode::kRuntime, "'" + path_ + "': " + std::strerror(errno));
    }
    return {};
  }

 private:
  std::string path_;
  int fd_ = -1;
};

// Pools of quantized rows, one per (type, row length, recipe).
class RowPool {
 public:
  explicit RowPool(uint64_t seed) : rng_(seed) {}

  // kPoolRows consecutive rows of `type`, each `n_per_row` values made by `recipe`.
  Result<const std::vector<uint8_t>*> rows(ggml_type type, int64_t n_per_row, const RowRecipe& recipe) {
    const auto key = std::make_tuple(static_cast<int>(type), n_per_row, recipe.key());
    auto it = pools_.find(key);
    if (it != pools_.end()) return &it->second;
    if (ggml_quantize_requires_imatrix(type)) {
      return fail(ErrorCode::kInvalidInput,
                  std::string("type ") + ggml_type_name(type) + " needs an importance matrix");
    }
    std::vector<float> values(static_cast<size_t>(n_per_row * kPoolRows));
    fill_rows(recipe, n_per_row, kPoolRows, rng_, values.data());
    std::vector<uint8_t> out(ggml_row_size(type, n_per_row) * kPoolRows);
    ggml_quantize_chunk(type, values.data(), out.data(), 0, kPoolRows, n_per_row, nullptr);
    return &pools_.emplace(key, std::move(out)).first->second;
  }

 private:
  std::mt19937_64 rng_;
  std::map<std::tuple<int, int64_t, decltype(RowRecipe{}.key())>, std::vector<uint8_t>> pools_;
};

// Writes one tensor's data: each row picked by a cheap generator from its recipe's pool.
Status write_tensor(Output& out, RowPool& pool, const TensorSpec& t, const ValueShape& shape, ggml_type type,
                    std::vector<uint8_t>& buf, uint64_t& state, const std::atomic<bool>* cancel) {
  const int64_t n_per_row = t.ne[0];
  const uint64_t n_rows = t.n_elements() / static_cast<uint64_t>(n_per_row);
  const size_t row_size = ggml_row_size(type, n_per_row);
  buf.clear();
  // Most rows of a tensor share one recipe: look its pool up only when the recipe changes.
  std::optional<decltype(RowRecipe{}.key())> last_key;
  const std::vector<uint8_t>* pool_rows = nullptr;
  for (uint64_t r = 0; r < n_rows; ++r) {
    const RowRecipe recipe = row_recipe(t, shape, r);
    if (!last_key || *last_key != recipe.key()) {
      auto rows = pool.rows(type, n_per_row, recipe);
      if (!rows) return std::unexpected(rows.error());
      pool_rows = *rows;
      last_key = recipe.key();
    }
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const size_t pick = static_cast<size_t>(state % kPoolRows);
    const uint8_t* src = pool_rows->data() + pick * row_size;
    buf.insert(buf.end(), src, src + row_size);
    if (buf.size() >= kWriteBuffer) {
      if (cancel && cancel->load()) return fail(ErrorCode::kInterrupted, "interrupted");
      if (Status s = out.write(buf.data(), buf.size()); !s) return s;
      buf.clear();
    }
  }
  if (!buf.empty()) return out.write(buf.data(), buf.size());
  return {};
}

}  // namespace

Result<SynthResult> write_synthetic(const SynthSpec& spec) {
  if (spec.tensors.size() != spec.types.size() || spec.tensors.empty()) {
    return fail(ErrorCode::kInvalidInput,
                "preset '" + spec.preset.name + "': no tensor layout for architecture '" + spec.preset.arch + "'");
  }
  SynthResult result;
  std::unique_ptr<gguf_context, decltype(&gguf_free)> ctx(gguf_init_empty(), &gguf_free);
  set_model_metadata(ctx.get(), spec.preset, spec.file_type);
  gguf_set_val_u64(ctx.get(), "rigbench.seed", spec.seed);
  result.tokenizer = set_tokenizer(ctx.get(), spec.preset, spec.vocab_dir);

  // Tensor infos: gguf computes each tensor's offset from its type and shape.
  const ggml_init_params gp{ggml_tensor_overhead() * (spec.tensors.size() + 1), nullptr, /*no_alloc=*/true};
  std::unique_ptr<ggml_context, decltype(&ggml_free)> meta(ggml_init(gp), &ggml_free);
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    const auto type = static_cast<ggml_type>(spec.types[i]);
    if (t.ne[0] % ggml_blck_size(type) != 0) {
      return fail(ErrorCode::kInvalidInput, "tensor '" + t.name + "': row length " + std::to_string(t.ne[0]) +
                                                " is not a multiple of the " + ggml_type_name(type) + " block size");
    }
    ggml_tensor* gt = ggml_new_tensor(meta.get(), type, t.n_dims, t.ne.data());
    ggml_set_name(gt, t.name.c_str());
    gguf_add_tensor(ctx.get(), gt);
    result.tensor_bytes += ggml_nbytes(gt);
  }

  const size_t meta_size = gguf_get_meta_size(ctx.get());
  std::vector<uint8_t> header(meta_size);
  gguf_get_meta_data(ctx.get(), header.data());
  const size_t n = spec.tensors.size();
  const uint64_t last = gguf_get_tensor_offset(ctx.get(), static_cast<int64_t>(n - 1)) +
                        gguf_get_tensor_size(ctx.get(), static_cast<int64_t>(n - 1));
  result.size_bytes = meta_size + last;

  // Written beside the target and renamed at the end, so a failure leaves no partial file.
  const fs::path target(spec.output_path);
  const std::string tmp = spec.output_path + ".partial";
  auto fail_clean = [&](const Error& e) -> Result<SynthResult> {
    std::error_code ec;
    fs::remove(tmp, ec);
    if (e.code == ErrorCode::kInterrupted) {
      return fail(ErrorCode::kInterrupted,
                  "interrupted: '" + spec.output_path + "' not written (partial file removed)");
    }
    return std::unexpected(e);
  };
  Output out(tmp);
  if (!out.ok())
    return fail(ErrorCode::kRuntime, "output '" + spec.output_path + "': cannot create: " + std::strerror(errno));
  if (Status s = out.write(header.data(), header.size()); !s) return fail_clean(s.error());

  if (spec.header_only) {
    // The data section is a hole: full logical size, almost no disk.
    if (::ftruncate(out.fd(), static_cast<off_t>(result.size_bytes)) != 0) {
      return fail_clean(Error{ErrorCode::kRuntime, "output '" + spec.output_path + "': " + std::strerror(errno)});
    }
  } else {
    RowPool pool(spec.seed);
    const ValueShape shape = value_shape(spec.preset);
    std::vector<uint8_t> buf;
    buf.reserve(kWriteBuffer + (1u << 20));
    uint64_t state = spec.seed | 1;
    uint64_t written = meta_size;
    for (size_t i = 0; i < n; ++i) {
      if (spec.cancel && spec.cancel->load()) return fail_clean(Error{ErrorCode::kInterrupted, "interrupted"});
      const uint64_t at = meta_size + gguf_get_tensor_offset(ctx.get(), static_cast<int64_t>(i));
      if (at > written) {  // alignment padding
        const std::vector<uint8_t> zeros(at - written, 0);
        if (Status s = out.write(zeros.data(), zeros.size()); !s) return fail_clean(s.error());
      }
      if (Status s = write_tensor(out, pool, spec.tensors[i], shape, static_cast<ggml_type>(spec.types[i]), buf, state,
                                  spec.cancel);
          !s) {
        return fail_clean(s.error());
      }
      written = at + gguf_get_tensor_size(ctx.get(), static_cast<int64_t>(i));
    }
  }
  if (Status s = out.close(); !s) return fail_clean(s.error());
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) return fail_clean(Error{ErrorCode::kRuntime, "output '" + spec.output_path + "': " + ec.message()});
  return result;
}

}  // namespace rigbench::model
