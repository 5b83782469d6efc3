#include "store/writable.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/strings.h"

namespace rigbench::store {

namespace fs = std::filesystem;

namespace {

// The first prefix of `dir` that exists but is not a folder, or "" (for ENOTDIR).
std::string first_file_component(const fs::path& dir) {
  fs::path at;
  for (const fs::path& part : dir) {
    at /= part;
    struct stat st {};
    if (::stat(at.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) return at.string();
  }
  return dir.string();
}

}  // namespace

std::string unwritable_reason(const std::string& path, WriteMode mode) {
  if (path.empty()) return "empty path";
  struct stat st {};
  if (path.back() == '/' || (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))) return errno_text(EISDIR);
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (::stat(dir.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) {
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec) {
        const int why = ec.value();
        if (why == ENOTDIR) return "not a directory: " + first_file_component(dir);
        // Name the deepest folder that exists, where the creation was refused.
        fs::path existing = dir;
        std::error_code probe;
        while (existing.has_parent_path() && existing != existing.parent_path() && !fs::exists(existing, probe)) {
          existing = existing.parent_path();
        }
        return errno_text(why) + ": cannot create " + dir.string() + " in " + existing.string();
      }
      return unwritable_reason(path, mode);
    }
    if (err == ENOTDIR) return "not a directory: " + first_file_component(dir);
    return errno_text(err) + ": " + dir.string();
  }
  if (!S_ISDIR(st.st_mode)) return "not a directory: " + dir.string();
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    const int err = errno;
    return errno_text(err) + ": cannot create files in " + dir.string();
  }
  if (mode == WriteMode::kInPlace && ::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0) {
    const int err = errno;
    return errno_text(err) + ": " + path + " is not writable";
  }
  return "";
}

Status check_writable(const std::string& subject, const std::string& path, const std::string& hint, WriteMode mode) {
  const std::string reason = unwritable_reason(path, mode);
  if (reason.empty()) return {};
  return fail(ErrorCode::kRuntime, subject + " '" + path + "': " + reason + (hint.empty() ? "" : "; " + hint));
}

Status write_whole(const std::string& subject, const std::string& path, const std::string& text,
                   const std::string& hint) {
  const std::string tmp = path + ".partial-" + std::to_string(getpid());
  auto failed = [&](int err) -> Status {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    const std::string reason = unwritable_reason(path);
    return fail(ErrorCode::kRuntime, subject + " '" + path + "': " + (reason.empty() ? errno_text(err) : reason) +
                                         (hint.empty() ? "" : "; " + hint));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return failed(errno);
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t w = ::write(fd, text.data() + at, text.size() - at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int err = w < 0 ? errno : EIO;
      ::close(fd);
      return failed(err);
    }
    at += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0) return failed(errno);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return failed(ec.value());
  return {};
}

}  // namespace rigbench::store
