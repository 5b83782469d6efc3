// The one table builder (report/table.h): every format from one Table, and the golden-file
// matcher the output tests use (tests/support/golden.h).
#include "report/table.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/strings.h"
#include "support/golden.h"

namespace rigbench::report {
namespace {

using rigbench::testing::golden_mismatch;
using rigbench::testing::unwrapped;

Table sample() {
  Table t({{"name", "device"},
           {"size_bytes", "size MiB", Align::kRight},
           {"tps", "tg t/s", Align::kRight},
           {"ok", "ok"},
           {"detail", "detail", Align::kLeft, /*wide_only=*/true}});
  t.add_preamble("two devices");
  t.add_row({TableCell::str("a|b"), TableCell::count(3u << 20, "3.00"), TableCell::number(12.5),
             TableCell::boolean(true), TableCell::str("x, \"y\"")});
  t.add_row({TableCell::str("long name ±"), TableCell::count(1u << 20, "1.00"), TableCell::number(std::nan("")),
             TableCell::boolean(false, "no")});
  t.add_note("a note");
  t.add_note("a note");  // once
  return t;
}

std::string rendered(const Table& t, OutputFormat f, bool wide = false) {
  std::ostringstream out;
  render(t, f, out, RenderOptions{wide});
  return out.str();
}

TEST(Table, MarkdownAlignedWithPreambleAndNotes) {
  EXPECT_EQ(rendered(sample(), OutputFormat::kMarkdown),
            "two devices\n"
            "\n"
            "| device      | size MiB | tg t/s | ok   |\n"
            "| ----------- | -------: | -----: | ---- |\n"
            "| a\\|b        |     3.00 |  12.50 | true |\n"
            "| long name ± |     1.00 |      - | no   |\n"
            "\n"
            "note: a note\n");
}

// A wrap column takes the room the other columns leave within 120 columns and wraps at
// spaces onto continuation rows (a cell's hang indents them); footers follow a blank line
// (a text line right under a markdown table would read as one of its rows).
// The md ranking of a wide table was squeezed to 10 columns ("linux-2080 / ti-cuda 1. / 30 >"):
// a list's entries stay whole, each on its line, however little room the others leave.
TEST(Table, AListColumnIsNeverNarrowerThanItsWidestEntry) {
  TableColumn item{"item", "item"}, ranking{"ranking", "ranking"};
  ranking.wrap = true;
  ranking.wrap_at = " > ";
  Table t({item, ranking});
  const std::string wide(100, 'm');
  t.add_row({TableCell::str(wide), TableCell::str("linux-2080ti-cuda 130.12 > linux-vulkan 88.01 > mac-m2 40.00")});
  const std::string md = rendered(t, OutputFormat::kMarkdown);
  EXPECT_NE(md.find("| linux-2080ti-cuda 130.12 > |"), std::string::npos) << md;
  EXPECT_NE(md.find("| linux-vulkan 88.01 >       |"), std::string::npos) << md;
  EXPECT_NE(md.find("| mac-m2 40.00               |"), std::string::npos) << md;
}

// compare's table has one wrap column per machine (#37: 146 columns for two machines): the
// widest gives way first until the table fits 120 columns; a cell's pieces stay whole (a figure
// keeps its ± half), a header is never cut, and csv keeps the whole text.
TEST(Table, SeveralWrapColumnsShareTheRoomAndKeepEachPieceWhole) {
  std::vector<TableColumn> cols = {{"model", "model"}};
  for (const char* m : {"rig-a (baseline)", "rig-b", "rig-c"}) {
    TableColumn c{m, m, Align::kRight};
    c.wrap = true;
    cols.push_back(c);
  }
  Table t(std::move(cols));
  const auto pieced = [](double v, const std::vector<std::string>& pieces) {
    TableCell c = TableCell::number_text(v, join(pieces, " "));
    c.pieces = pieces;
    return c;
  };
  const std::vector<std::string> a = {"13363.78 ± 373.48", "(±6.9 %)"};
  const std::vector<std::string> b = {"12085.63 ± 751.61", "(±15.4 %)", "×0.90", "[noise: first_repetition,",
                                      "high_cv]"};
  t.add_row({TableCell::str(std::string(40, 'm')), pieced(13363.78, a),
             pieced(12085.63, b), pieced(12085.63, b)});
  const std::string md = rendered(t, OutputFormat::kMarkdown);
  std::istringstream in(md);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line); ++lines) EXPECT_LE(display_width(line), kMarkdownWidth) << line;
  EXPECT_GE(lines, 4u) << md;  // header, rule, the row and its continuations
  for (const std::string& piece : {"13363.78 ± 373.48", "12085.63 ± 751.61", "[noise: first_repetition,",
                                   "rig-a (baseline)"})
    EXPECT_NE(md.find(piece), std::string::npos) << piece << "\n" << md;
  // The unwrapped row reads as the one line it was (tests/support/golden.h).
  EXPECT_NE(rigbench::testing::unpadded(rigbench::testing::unwrapped_rows(md))
                .find("| 13363.78 ± 373.48 (±6.9 %) | 12085.63 ± 751.61 (±15.4 %) ×0.90 [noise: first_repetition, "
                      "high_cv] |"),
            std::string::npos)
      << md;
  // Where the table fits, nothing wraps: one line per row.
  Table narrow({{"model", "model"}, TableColumn{"rig-a", "rig-a", Align::kRight, false, false, true}});
  narrow.add_row({TableCell::str("m"), pieced(1, a)});
  EXPECT_NE(rendered(narrow, OutputFormat::kMarkdown).find("| m     | 13363.78 ± 373.48 (±6.9 %) |\n"),
            std::string::npos)
      << rendered(narrow, OutputFormat::kMarkdown);
  EXPECT_NE(rendered(t, OutputFormat::kCsv).find("12085.63"), std::string::npos);
}

// tune's winner line broke as "+28.4" / "% over the runner-up" and its result column as
// "p =" / "0.013": wrapping keeps a figure with its unit and a relation with both its sides.
TEST(Table, WrappingNeverStartsALineWithAUnitOrARelation) {
  for (std::size_t pad = 90; pad < 114; ++pad) {  // (a note's line holds 114 after "note: ")
    // The capacity line broke "TPOT p95 <= 100" / "ms": a unit stays with its figure.
    const std::string text = std::string(pad, 'w') +
                             " +28.4 % over #2, p = 0.013 and p < 0.001 then x >= 3 at "
                             "TPOT p95 \u2264 100 ms, 4.58 GiB.";
    for (const std::string& out : {paragraph_lines(text), note_lines(text)}) {
      std::istringstream in(out);
      for (std::string line; std::getline(in, line);) {
        EXPECT_LE(display_width(line), kMarkdownWidth) << line;
        const std::string body = line.substr(line.find_first_not_of(' '));
        for (const char* start : {"%", "=", "<", ">=", "0.013", "0.001", "3", "\u2264", "100", "ms", "GiB"})
          EXPECT_FALSE(body.starts_with(start)) << pad << ": " << out;
      }
      EXPECT_NE(unwrapped(out).find("+28.4 % over #2, p = 0.013 and p < 0.001 then x >= 3 at TPOT p95 \u2264 100 ms, "
                                    "4.58 GiB."),
                std::string::npos)
          << out;
    }
  }
}

TEST(Table, WrapColumnKeepsTheTableWithin120ColumnsAndFootersFollowABlankLine) {
  TableColumn key{"key", "key"}, text{"text", "text"};
  text.wrap = true;
  Table t({key, text});
  const std::string words = "word " + std::string(30, 'x') + " " + std::string(200, 'y') + " tail";
  t.add_row({TableCell::str("a"), TableCell::str(words)});
  TableCell hung = TableCell::str("fix: " + words);
  hung.hang = 5;
  t.add_row({TableCell::str("b"), hung});
  std::string method = "method:";
  for (int i = 0; i < 20; ++i) method += " zzzzzzzzzz";
  t.add_footer(method);
  const std::string md = rendered(t, OutputFormat::kMarkdown);
  std::istringstream in(md);
  int continuation = 0, hung_lines = 0;
  for (std::string line; std::getline(in, line);) {
    EXPECT_LE(display_width(line), kMarkdownWidth) << line;
    continuation += line.rfind("|     | ", 0) == 0;
    hung_lines += line.rfind("|     |      ", 0) == 0;
  }
  EXPECT_GE(continuation, 4) << md;
  EXPECT_GE(hung_lines, 2) << md;  // the fix's continuations, under its text
  EXPECT_NE(md.find("| a   | word xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), std::string::npos) << md;
  EXPECT_NE(md.find(" |\n\nmethod: zzzzzzzzzz"), std::string::npos) << md;
  EXPECT_NE(md.find("\n  zzzzzzzzzz zzzzzzzzzz"), std::string::npos) << md;  // the footer wrapped, indented
  // csv and json keep whole values.
  EXPECT_NE(rendered(t, OutputFormat::kCsv).find(words), std::string::npos);
}

// Rows as they come (bench's records): the header and rule, then each row, aligned as
// llama-bench aligns its rows: a column is as wide as its header or its first row's cell, the
// wider; a later cell wider than that widens its own line only. The footer and notes after a
// blank line.
TEST(Table, StreamedLinesAreAlignedToTheHeaderAndTheFirstRow) {
  Table t = sample();
  EXPECT_EQ(markdown_header(t), "| device | size MiB | tg t/s | ok   |\n| ------ | -------: | -----: | ---- |\n");
  EXPECT_EQ(markdown_row(t, 0), "| a\\|b   |     3.00 |  12.50 | true |\n");
  EXPECT_EQ(markdown_row(t, 1), "| long name ± |     1.00 |      - | no   |\n");
  EXPECT_EQ(markdown_row(t, 1, /*wide=*/true), "| long name ± |     1.00 |      - | no   | -      |\n");
  Table empty({{"name", "device"}, {"ok", "ok"}});
  EXPECT_EQ(markdown_header(empty), "| device | ok  |\n| ------ | --- |\n");  // no row yet: the headers
  EXPECT_EQ(markdown_footer(t), "\nnote: a note\n");
  EXPECT_EQ(markdown_footer(Table(std::vector<TableColumn>{{"a", "a"}})), "");
  EXPECT_EQ(csv_header(t) + csv_row(t, 0), "name,size_bytes,tps,ok,detail\na|b,3145728,12.5,true,\"x, \"\"y\"\"\"\n");
}

TEST(Table, WideShowsWideOnlyColumns) {
  const std::string md = rendered(sample(), OutputFormat::kMarkdown, /*wide=*/true);
  EXPECT_NE(md.find("| ok   | detail |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| true | x, \"y\" |\n"), std::string::npos) << md;
}

TEST(Table, CsvHasEveryColumnWithRawValues) {
  EXPECT_EQ(rendered(sample(), OutputFormat::kCsv),
            "name,size_bytes,tps,ok,detail\n"
            "a|b,3145728,12.5,true,\"x, \"\"y\"\"\"\n"
            "long name ±,1048576,,false,\n");
}

TEST(Table, JsonIsAnArrayOfObjectsWithNumbersAsNumbers) {
  const auto j = nlohmann::json::parse(rendered(sample(), OutputFormat::kJson));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["size_bytes"], 3145728);
  EXPECT_DOUBLE_EQ(j[0]["tps"].get<double>(), 12.5);
  EXPECT_EQ(j[0]["ok"], true);
  EXPECT_TRUE(j[1]["tps"].is_null());
  EXPECT_TRUE(j[1]["detail"].is_null());
  EXPECT_EQ(j[0].size(), 5u);
  EXPECT_EQ(rendered(Table(std::vector<TableColumn>{{"a", "a"}}), OutputFormat::kJson), "[]\n");
}

TEST(Table, JsonlIsOneObjectPerLine) {
  const std::string out = rendered(sample(), OutputFormat::kJsonl);
  const auto first = nlohmann::json::parse(out.substr(0, out.find('\n')));
  EXPECT_EQ(first["name"], "a|b");
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2);
}

TEST(Table, SizesNeverReadZeroForARealSize) {
  EXPECT_EQ(size_unit_for({2048, 512}), SizeUnit::kKiB);
  EXPECT_EQ(size_unit_for({5 << 20, 0}), SizeUnit::kMiB);
  EXPECT_EQ(size_unit_for({int64_t{3} << 30, -(int64_t{5} << 30)}), SizeUnit::kGiB);
  EXPECT_EQ(size_in(3 << 20, SizeUnit::kMiB), "3.00");
  EXPECT_EQ(size_in(1 << 20, SizeUnit::kGiB), "<0.01");
  EXPECT_EQ(size_in(0, SizeUnit::kGiB), "0");
  EXPECT_EQ(size_in(-(int64_t{3} << 29), SizeUnit::kGiB), "-1.50");
}

TEST(OutputFormat, ParsesTheFourAndNamesTheValidOnes) {
  EXPECT_EQ(*parse_output_format("md"), OutputFormat::kMarkdown);
  EXPECT_EQ(*parse_output_format("jsonl"), OutputFormat::kJsonl);
  auto bad = parse_output_format("xml");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
  EXPECT_EQ(bad.error().message, "-o/--output 'xml': unknown format (md, csv, json, jsonl)");
  auto file = parse_output_format("out.json", {OutputFormat::kMarkdown, OutputFormat::kJson});
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message,
            "-o/--output 'out.json': unknown format (md, json); -o takes a format: to write a file, redirect (> FILE)");
}

// A bad -o had two shapes ("--output: 'x' is not an output format (md, json)" from synth,
// report and serve-bench; "-o/--output 'x': unknown format (...)" elsewhere): one now, which
// tells a file name the subcommand's way to write a file.
TEST(OutputFormat, OneMessageShapeWithTheSubcommandsWayToWriteAFile) {
  EXPECT_EQ(output_format_message("html", {"html"}, FileAdvice::kOutputFileFlag), "");
  EXPECT_EQ(output_format_message("pdf", {"html"}, FileAdvice::kOutputFileFlag),
            "-o/--output 'pdf': unknown format (html)");
  EXPECT_EQ(output_format_message("-", {"html"}, FileAdvice::kOutputFileFlag),
            "-o/--output '-': unknown format (html); -o takes a format: to write a file use --output-file");
  EXPECT_EQ(output_format_message("out/r", {"md", "json"}, FileAdvice::kRedirect),
            "-o/--output 'out/r': unknown format (md, json); -o takes a format: to write a file, redirect (> FILE)");
  const auto synth = parse_output_format("x.gguf", FileAdvice::kOutputFileFlag);
  ASSERT_FALSE(synth);
  EXPECT_EQ(synth.error().code, ErrorCode::kUsage);
  EXPECT_EQ(synth.error().message,
            "-o/--output 'x.gguf': unknown format (md, csv, json, jsonl); -o takes a format: "
            "to write a file use --output-file");
}

TEST(Golden, PlaceholdersAndPaddingMatchAStrayColumnFails) {
  const std::string expected = "| a | n |\n| x | {{num}} |\n| {{any}} | {{int}} |\n";
  EXPECT_EQ(golden_mismatch("| a   | n    |\n| x   | 1.5e3 |\n| y z | -4 |\n", expected), "");
  EXPECT_EQ(golden_mismatch("| x | <0.01 |\n", "| x | {{num}} |\n"), "");
  EXPECT_NE(golden_mismatch("| a | n | extra |\n| x | 1 |\n| y | 2 |\n", expected), "");
  EXPECT_NE(golden_mismatch("| a | n |\n| x | 1 |\n", expected), "");                   // a row missing
  EXPECT_NE(golden_mismatch("| a | n |\n| x | 1 |\n| y | 2 |\nmore\n", expected), "");  // a line more
  EXPECT_NE(golden_mismatch("| a | n |\n| x | one |\n| y | 2 |\n", expected), "");      // not a number
}

}  // namespace
}  // namespace rigbench::report
