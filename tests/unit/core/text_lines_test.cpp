// The non-blank lines of a line-per-record file, numbered as an editor numbers them.
#include "core/text_lines.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

TEST(TextLines, BlankLinesAreSkippedButCountedAndCrIsDropped) {
  const auto lines = nonblank_lines("{\"a\": 1}\r\n\n  \t\r\n{\"b\": 2}\nlast");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].number, 1);
  EXPECT_EQ(lines[0].text, "{\"a\": 1}");
  EXPECT_EQ(lines[1].number, 4);
  EXPECT_EQ(lines[1].text, "{\"b\": 2}");
  EXPECT_EQ(lines[2].number, 5);  // no newline at the end
  EXPECT_EQ(lines[2].text, "last");
  EXPECT_TRUE(nonblank_lines("").empty());
  EXPECT_TRUE(nonblank_lines("\n\r\n \n").empty());
}

TEST(TextLines, ABlankLineBetweenTwoIsCountedAndATrailingNewlineIsNoLine) {
  const auto lines = nonblank_lines("one\n\ntwo\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].number, 3);
  EXPECT_EQ(lines[1].text, "two");
}

}  // namespace
}  // namespace rigbench
