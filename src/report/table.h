// rigbench: one table builder for every tabular output (fit, devices, presets, cost, import,
// export, compare, hw, and bench's md and csv records, which stream their rows). A subcommand
// builds a Table once (columns, rows of cells, notes) and render() writes it in the format
// asked:
//   md     an aligned markdown table (columns marked wide_only only with --wide), a preamble
//          above it, footer lines and "note: ..." lines below; default tables stay within 120
//          columns (a `wrap` column wraps its text to keep them there)
//   csv    a header of column keys, then one line per row, every column, raw values
//   json   an array of objects keyed by column key; numbers as numbers, absent values null
//   jsonl  one such object per line
// Each cell carries the value machines read (a number, text, a boolean or nothing) and the
// text people read, so md shows "4.58" under "weights GiB" while csv/json give the bytes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "core/status.h"

namespace rigbench::report {

// The output formats of every subcommand (`-o, --output`). Records (bench, export) also
// print as sql (report/printer.h); tables never do: parse_output_format offers sql only
// where it is allowed explicitly.
enum class OutputFormat { kMarkdown, kCsv, kJson, kJsonl, kSql };

// "md", "csv", "json", "jsonl", "sql".
const char* format_name(OutputFormat f);

// What a `-o` value that looks like a file name is told: the subcommand's --output-file (synth,
// report), or to redirect standard output (every other subcommand: it prints its output).
enum class FileAdvice { kRedirect, kOutputFileFlag };

// The one message of every subcommand for a `-o` value that is not one of `formats` ("" when
// it is): "-o/--output 'VALUE': unknown format (md, csv, json, jsonl)", and when the value
// looks like a file name (has a '.' or a '/', or is "-"), how to write a file: "; -o takes a
// format: to write a file, redirect (> FILE)" (kRedirect) or "; -o takes a format: to write a
// file use --output-file" (kOutputFileFlag).
std::string output_format_message(const std::string& value, const std::vector<std::string>& formats,
                                  FileAdvice advice = FileAdvice::kRedirect);

// Parses `name` against `allowed` (default: md, csv, json, jsonl, which every subcommand that
// prints results takes; records add sql). Errors: kUsage, output_format_message's line.
Result<OutputFormat> parse_output_format(const std::string& name, FileAdvice advice = FileAdvice::kRedirect);
Result<OutputFormat> parse_output_format(const std::string& name, const std::vector<OutputFormat>& allowed,
                                         FileAdvice advice = FileAdvice::kRedirect);

enum class Align { kLeft, kRight };

struct TableColumn {
  std::string key;     // snake_case with the unit (`total_bytes`, `tg_bound_tps`): csv header, json key
  std::string header;  // md header with the unit ("total GiB", "tg bound t/s")
  Align align = Align::kLeft;
  bool wide_only = false;  // md shows it only with --wide; csv and json always have it
  bool data_only = false;  // never in md (csv and json only)
  // md: the table keeps within kMarkdownWidth columns by this column taking the room the
  // others leave; its text wraps at spaces (a longer word is cut) onto continuation rows whose
  // other cells are empty. Where several columns wrap (compare's one column per machine), the
  // widest gives way first, none below its narrowest whole piece. For a value under its key
  // (hw's descriptions, details and fixes), never for the name a row stands for (a model, a
  // machine, a build): that stays whole on its row as in llama-bench's table, and a long one
  // widens the table.
  bool wrap = false;
  // A wrap column whose text is a list ("vm · rigbench 0.1.0 343.73 > vm · llama-bench 182.86"):
  // it breaks only after each `wrap_at` (" > "), so an entry (a machine, a build) stays whole
  // on its line; nullptr breaks at any space.
  const char* wrap_at = nullptr;
  // md, streamed rows (markdown_header, markdown_row): the column is at least this wide, so that
  // a later row wider than the first ("pp512 @ d4096" after "pp512") stays aligned, as
  // llama-bench's fixed field widths keep its streamed rows.
  std::size_t min_width = 0;
};

inline constexpr std::size_t kMarkdownWidth = 120;  // columns of an md table with a wrap column, at most

// One cell: `value` for csv/json, `text` for md.
struct TableCell {
  using Value = std::variant<std::monostate, int64_t, uint64_t, double, bool, std::string>;
  Value value;           // monostate: absent (csv "", json null)
  std::string text;      // md; markdown-escaped when rendered
  std::size_t hang = 0;  // md, in a wrap column: continuation lines start with this many spaces
  // md, in a wrap column: what `text` is, in pieces each kept whole where a cell must wrap
  // ("1018.93 ± 7.17", "(±6.3 %)", "×2.00"; compare's md and embed's texts/s may cut a mean
  // before its "± sd" too: the caller decides); a cell that fits
  // its column shows `text`. Empty: `text` wraps by the column's rule (any space, or its wrap_at).
  std::vector<std::string> pieces{};

  // Text, shown and stored as it is.
  static TableCell str(std::string s);
  // An integer; md shows it in decimal unless `text` is given.
  static TableCell integer(int64_t v, std::string text = {});
  static TableCell count(uint64_t v, std::string text = {});
  // A real number: md shows `text`, or the value with `decimals` decimals. NaN or infinite:
  // absent, md shows `absent_text`.
  static TableCell number(double v, int decimals = 2, std::string absent_text = "-");
  static TableCell number_text(double v, std::string text);
  static TableCell boolean(bool v, std::string text = {});
  // No value; md shows `text`.
  static TableCell absent(std::string text = "-");
};

class Table {
 public:
  Table() = default;
  explicit Table(std::vector<TableColumn> columns) : columns_(std::move(columns)) {}

  const std::vector<TableColumn>& columns() const { return columns_; }
  const std::vector<std::vector<TableCell>>& rows() const { return rows_; }
  const std::vector<std::string>& preamble() const { return preamble_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const std::vector<std::string>& footers() const { return footers_; }

  // A row, one cell per column in order (fewer are padded with absent cells; more are an
  // error of the caller and dropped).
  void add_row(std::vector<TableCell> cells);
  // md only: a line above the table (a title, what the cells mean), wrapped at spaces to 120 columns.
  void add_preamble(std::string line);
  // md only: "note: <text>" below the table, wrapped at 120 columns; a note already present
  // is not repeated.
  void add_note(std::string note);
  // md only: a line below the table, above the notes (a blank line before them), wrapped at
  // 120 columns with continuation lines indented by two spaces.
  void add_footer(std::string line);

 private:
  std::vector<TableColumn> columns_;
  std::vector<std::vector<TableCell>> rows_;
  std::vector<std::string> preamble_;
  std::vector<std::string> notes_;
  std::vector<std::string> footers_;
};

struct RenderOptions {
  bool wide = false;  // md: show wide_only columns too
};

// Writes `table` to `out` in `format` and flushes.
void render(const Table& table, OutputFormat format, std::ostream& out, RenderOptions options = {});

// The md table alone (no preamble, no notes): aligned, header rule with ':' on right-aligned
// columns. Every line ends with '\n'.
std::string markdown_table(const Table& table, bool wide = false);

// Rows written as they come (bench's records, each flushed so that an interrupted run leaves
// well-formed output), aligned as llama-bench aligns its rows: the rows that follow are not
// known yet, so each column is as wide as its header or its cell in the table's first row, the
// wider, and a later cell wider than that widens its own line only. render() writes the same
// lines for csv, and md's footers and notes with markdown_footer().
//
// md: the header and rule lines of the shown columns, padded to the first row's widths (write
// them once the first row is added; before it, to the headers' widths).
std::string markdown_header(const Table& table, bool wide = false);
// md: row `row`, one line, its cells padded to the header's and first row's widths.
std::string markdown_row(const Table& table, std::size_t row, bool wide = false);
// md: what follows the table: a blank line, the footers, the notes ("" when there are none).
std::string markdown_footer(const Table& table);
// csv: the header line (column keys) and the line of row `row`.
std::string csv_header(const Table& table);
std::string csv_row(const Table& table, std::size_t row);

// `text` cut after each `sep`, which ends its piece less its trailing spaces ("a > b > c" by
// " > ": "a >", "b >", "c"): the pieces a wrap keeps whole (a ranking's entries, a cell's
// percentiles "p50 6.16 ·", "p99 6.83"). {text} when `sep` does not occur.
std::vector<std::string> split_after(const std::string& text, const std::string& sep);

// A "mean ± sd" figure as the pieces a wrap may put on two lines: "834355.78", "± 8342.78";
// {text} when it has no " ± " (compare's md cells, embed's texts/s).
std::vector<std::string> mean_sd_pieces(const std::string& text);

// `name` held together for a wrap (notes, footers, paragraphs): its spaces become no-break
// spaces (U+00A0) that the wrap never breaks at and writes as spaces again ("M2 Pro 32GB" in a
// list of devices was cut into "M2" / "Pro 32GB"). For text that goes through those wraps only.
std::string keep_whole(const std::string& name);
// `texts` as written outside a wrap (json, HTML): keep_whole's no-break spaces spaces again.
std::vector<std::string> as_written(std::vector<std::string> texts);

// "note: <text>\n", wrapped at spaces to 120 columns, continuation lines indented under the text.
std::string note_lines(const std::string& note);

// `text` as a paragraph: wrapped at spaces to 120 columns, each line ending with '\n' and the
// lines after the first starting with `indent` (a preamble line, compare's regressions line;
// "  " under a list item's "- ").
std::string paragraph_lines(const std::string& text, const std::string& indent = "");
// The same at `width` columns (every line, the indent included, at most `width` wide).
std::string paragraph_lines(const std::string& text, const std::string& indent, std::size_t width);

// Display width of UTF-8 text (code points; "±" and "×" count one).
std::size_t display_width(std::string_view s);

// The display width of the widest line of `text` (lines end at '\n'); 0 for "".
std::size_t widest_line(std::string_view text);

// Shortest decimal form that reads back as the same double; "" for NaN or infinity.
std::string shortest(double v);

// Sizes for people, with the unit in the column header: the unit a column of byte counts
// is shown in (KiB when every value is under 1 MiB, MiB under 1 GiB, else GiB), and a count
// in that unit with two decimals; a nonzero count that would read 0.00 reads "<0.01".
enum class SizeUnit { kKiB, kMiB, kGiB };
SizeUnit size_unit_for(const std::vector<int64_t>& bytes);
const char* size_unit_name(SizeUnit u);
std::string size_in(int64_t bytes, SizeUnit u);

}  // namespace rigbench::report
