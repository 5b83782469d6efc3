// The pipe-table tokenizer under llama-bench's markdown import.
#include "core/pipe_table.h"

#include <gtest/gtest.h>

namespace rigbench {
namespace {

using Cells = std::vector<std::string>;

TEST(PipeTable, CellsWithAndWithoutOuterPipesAndEscapes) {
  EXPECT_EQ(pipe_table_cells("| a | b |"), (Cells{"a", "b"}));
  EXPECT_EQ(pipe_table_cells("a | b"), (Cells{"a", "b"}));
  EXPECT_EQ(pipe_table_cells("| a | b"), (Cells{"a", "b"}));
  EXPECT_EQ(pipe_table_cells("|  a\\|b  |  |  c |"), (Cells{"a|b", "", "c"}));
  EXPECT_EQ(pipe_table_cells("> | x | y |"), (Cells{"x", "y"}));  // quoted in a reply
  EXPECT_EQ(pipe_table_cells("| 4970.31 ± 12.84 |"), (Cells{"4970.31 ± 12.84"}));
}

TEST(PipeTable, TablesAmongTextWithLinesAndEnds) {
  const std::string text =
      "some text | with a pipe\n"
      "| a | b |\n"
      "| --- | --: |\r\n"
      "| 1 | 2 |\n"
      "| 3 | 4 | 5 |\n"
      "\n"
      "build: x\n"
      "  c | d\n"
      "  :-: | --\n"
      "  e | f\n"
      "text right under\n";
  const auto tables = find_pipe_tables(text);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].header.cells, (Cells{"a", "b"}));
  EXPECT_EQ(tables[0].header.line, 2);
  ASSERT_EQ(tables[0].rows.size(), 2u);
  EXPECT_EQ(tables[0].rows[0].cells, (Cells{"1", "2"}));
  EXPECT_EQ(tables[0].rows[0].line, 4);
  EXPECT_EQ(tables[0].rows[1].cells, (Cells{"3", "4", "5"}));  // more cells than the header: kept for the reader
  EXPECT_EQ(tables[0].rows[1].text, "| 3 | 4 | 5 |");
  EXPECT_EQ(tables[1].header.cells, (Cells{"c", "d"}));
  ASSERT_EQ(tables[1].rows.size(), 1u);  // "text right under" has no pipe: the body ends
  EXPECT_EQ(tables[1].rows[0].line, 10);
}

TEST(PipeTable, NoTableWithoutAMatchingDelimiterLine) {
  EXPECT_TRUE(find_pipe_tables("| a | b |\n| 1 | 2 |\n").empty());           // no delimiter line
  EXPECT_TRUE(find_pipe_tables("| a | b |\n| --- |\n| 1 | 2 |\n").empty());  // one cell under two
  EXPECT_TRUE(find_pipe_tables("| a | b |\n| -x- | --- |\n").empty());      // not dashes
  EXPECT_TRUE(find_pipe_tables("").empty());
  const auto header_only = find_pipe_tables("| a |\n|---|\n");
  ASSERT_EQ(header_only.size(), 1u);
  EXPECT_TRUE(header_only[0].rows.empty());
}

}  // namespace
}  // namespace rigbench
