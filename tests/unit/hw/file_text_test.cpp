// A file's whole content, byte for byte, or nothing when it cannot be read.
#include "hw/file_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rigbench::hw {
namespace {

TEST(FileText, ReadsEveryByteAndNothingForAMissingFileOrADirectory) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "file_text_test";
  std::filesystem::create_directories(dir);
  const std::string bytes = std::string("\xEF\xBB\xBFline one\r\n", 13) + std::string(1, '\0') + "tail";
  std::ofstream((dir / "a.txt").string(), std::ios::binary) << bytes;
  const auto text = read_file_text((dir / "a.txt").string());
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, bytes);  // the byte order mark, the CR and the NUL kept
  std::ofstream((dir / "empty.txt").string(), std::ios::binary);
  ASSERT_TRUE(read_file_text((dir / "empty.txt").string()).has_value());
  EXPECT_EQ(read_file_text((dir / "empty.txt").string())->size(), 0u);
  EXPECT_FALSE(read_file_text((dir / "missing.txt").string()).has_value());
  EXPECT_FALSE(read_file_text(dir.string()).has_value());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rigbench::hw
