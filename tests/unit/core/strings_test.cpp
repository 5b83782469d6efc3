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

// compare listed "tg8 @ c1", "@ c16", "@ c2", ...: digits compare as numbers.
TEST(NaturalCompare, DigitRunsCompareAsNumbers) {
  EXPECT_LT(natural_compare("tg8 @ c2", "tg8 @ c16"), 0);
  EXPECT_GT(natural_compare("tg8 @ c16", "tg8 @ c2"), 0);
  EXPECT_LT(natural_compare("pp512", "pp4096"), 0);
  EXPECT_LT(natural_compare("pp512", "tg128"), 0);  // the rest byte by byte
  EXPECT_EQ(natural_compare("pp512 @ d16", "pp512 @ d16"), 0);
  EXPECT_LT(natural_compare("c2", "c2x"), 0);
  EXPECT_NE(natural_compare("c07", "c7"), 0);  // equal as numbers, told apart by their bytes
  EXPECT_EQ(natural_compare("c07", "c7"), -natural_compare("c7", "c07"));
}

}  // namespace
}  // namespace rigbench
