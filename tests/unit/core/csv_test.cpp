// The one CSV reader (RFC 4180) under llama-bench's csv import and the power log.
#include "core/csv.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

std::vector<std::vector<std::string>> fields_of(const std::vector<CsvRecord>& records) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : records) out.push_back(r.fields);
  return out;
}

TEST(Csv, QuotesCommasLineBreaksAndEscapedQuotes) {
  auto r = parse_csv("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n\n1,,3\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(fields_of(*r), (std::vector<std::vector<std::string>>{
                               {"a", "b", "c"}, {"x, y", "say \"hi\"", "two\nlines"}, {"1", "", "3"}}));
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[1].line, 2);
  EXPECT_EQ((*r)[2].line, 5);  // after the quoted line break and the blank line
}

TEST(Csv, CommentLinesOnlyWhenAsked) {
  const std::string text = "# note, with a comma\n  # indented\n1,2\n";
  auto plain = parse_csv(text);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->size(), 3u);
  auto commented = parse_csv(text, {.comment = '#'});
  ASSERT_TRUE(commented);
  ASSERT_EQ(commented->size(), 1u);
  EXPECT_EQ((*commented)[0].fields, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ((*commented)[0].line, 3);
  // A '#' inside a field, or after the first field, is data.
  auto data = parse_csv("1,#2\n\"#3\",4\n", {.comment = '#'});
  ASSERT_TRUE(data);
  EXPECT_EQ(fields_of(*data), (std::vector<std::vector<std::string>>{{"1", "#2"}, {"#3", "4"}}));
}

TEST(Csv, UnterminatedQuoteNamesTheLineItStarts) {
  auto r = parse_csv("a,b\n1,\"2\n3\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().message, "line 2: unterminated quote");
}

TEST(Csv, EmptyTextHasNoRecords) {
  auto r = parse_csv("");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->empty());
}

}  // namespace
}  // namespace rigbench
