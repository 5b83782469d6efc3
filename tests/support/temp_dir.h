// Test support: a temporary directory removed with everything in it at scope exit.
#pragma once

#include <filesystem>
#include <string>

namespace rigbench::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Whole file contents ("" when unreadable).
std::string read_file(const std::string& path);

// Writes `contents` to `path`.
void write_file(const std::string& path, const std::string& contents);

}  // namespace rigbench::testing
