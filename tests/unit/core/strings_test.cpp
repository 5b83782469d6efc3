#include "core/strings.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

TEST(Split, KeepsEmptyFields) {
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(split("", ','), (std::vector<std::string>{""}));
}

TEST(FormatBytes, UsesBinaryUnits) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1185376), "1.13 MiB");
  EXPECT_EQ(format_bytes(4ull << 30), "4.00 GiB");
}

TEST(FormatCount, UsesDecimalUnits) {
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(292800), "292.80 K");
  EXPECT_EQ(format_count(8030261248ull), "8.03 B");
}

TEST(Trim, RemovesOuterWhitespace) { EXPECT_EQ(trim("  x y \n"), "x y"); }

}  // namespace
}  // namespace rigbench
