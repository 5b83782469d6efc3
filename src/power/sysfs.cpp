#include "power/sysfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace rigbench::power {

std::expected<std::string, int> read_attribute(const std::string& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(errno);
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return std::unexpected(err);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) break;
  }
  ::close(fd);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

std::expected<uint64_t, int> read_u64_attribute(const std::string& path) {
  auto text = read_attribute(path);
  if (!text) return std::unexpected(text.error());
  if (text->empty() || !std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::unexpected(EINVAL);
  }
  errno = 0;
  const unsigned long long v = std::strtoull(text->c_str(), nullptr, 10);
  if (errno == ERANGE) return std::unexpected(ERANGE);
  return static_cast<uint64_t>(v);
}

std::expected<std::vector<std::string>, int> list_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return std::unexpected(errno);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace rigbench::power
