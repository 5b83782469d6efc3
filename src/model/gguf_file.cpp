#include "model/gguf_file.h"

#include <fcntl.h>
#include <gguf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/strings.h"

namespace rigbench::model {

namespace fs = std::filesystem;

namespace {

std::string quoted(const std::string& path) { return "model '" + path + "'"; }

// A read-only mapping of a whole file, unmapped at scope exit.
struct Mapping {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  Mapping(int fd, uint64_t n) {
    if (n == 0) return;
    void* p = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) return;
    data = static_cast<const uint8_t*>(p);
    size = n;
  }
  ~Mapping() {
    if (data) ::munmap(const_cast<uint8_t*>(data), size);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
};

// gguf_init_from_callback's reader over the mapping: one memcpy per key, length and string.
size_t read_mapped(void* userdata, void* out, uint64_t offset, size_t len) {
  const auto& m = *static_cast<const Mapping*>(userdata);
  if (offset >= m.size) return 0;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(len, m.size - offset));
  std::memcpy(out, m.data + offset, n);
  return n;
}

}  // namespace

Result<GgufFile> open_gguf(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return fail(ErrorCode::kNotFound,
                quoted(path) + (ec ? ": cannot reach it: " + errno_text(ec.value()) : ": no such file"));
  }
  if (fs::is_directory(path, ec))
    return fail(ErrorCode::kInvalidInput, quoted(path) + ": is a directory, not a GGUF file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(ErrorCode::kNotFound, quoted(path) + ": cannot open the file: " + errno_text(errno));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st{};
  if (::fstat(fd, &st) != 0) return fail(ErrorCode::kNotFound, quoted(path) + ": cannot stat: " + errno_text(errno));
  const auto size = static_cast<uint64_t>(st.st_size);

  char magic[4] = {};
  if (::pread(fd, magic, sizeof magic, 0) != static_cast<ssize_t>(sizeof magic) ||
      std::memcmp(magic, GGUF_MAGIC, sizeof magic) != 0) {
    return fail(ErrorCode::kInvalidInput, quoted(path) + ": not a GGUF file (no GGUF magic at the start)");
  }

  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};  // tensor infos only: no ggml context
  gguf_context* ctx = nullptr;
  {
    const Mapping map(fd, size);
    if (map.data) {
      ctx = gguf_init_from_callback(&read_mapped, const_cast<Mapping*>(&map), /*max_chunk_read=*/0, size, params);
    } else {
      ctx = gguf_init_from_file(path.c_str(), params);
    }
  }
  if (!ctx) {
    return fail(ErrorCode::kInvalidInput,
                quoted(path) + ": corrupt or truncated GGUF (its metadata or tensor infos cannot be read)");
  }
  return GgufFile{path, size, std::shared_ptr<const gguf_context>(ctx, [](const gguf_context* c) {
                    gguf_free(const_cast<gguf_context*>(c));
                  })};
}

}  // namespace rigbench::model
