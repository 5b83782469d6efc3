#include "report/table.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/strings.h"
#include "report/escape.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {
// keep_whole's stand-in for a space inside a name (U+00A0), spaces again once wrapped (with_spaces).
constexpr const char* kKeepWholeSpace = "\u00a0";
}  // namespace

namespace {

using Json = nlohmann::ordered_json;

constexpr OutputFormat kAllFormats[] = {OutputFormat::kMarkdown, OutputFormat::kCsv, OutputFormat::kJson,
                                        OutputFormat::kJsonl};

// The value as csv writes it.
std::string csv_value(const TableCell::Value& v) {
  struct Visitor {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(uint64_t u) const { return std::to_string(u); }
    std::string operator()(double d) const { return shortest(d); }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(const std::string& s) const { return csv_escape(s); }
  };
  return std::visit(Visitor{}, v);
}

Json json_value(const TableCell::Value& v) {
  struct Visitor {
    Json operator()(std::monostate) const { return nullptr; }
    Json operator()(int64_t i) const { return i; }
    Json operator()(uint64_t u) const { return u; }
    Json operator()(double d) const { return std::isfinite(d) ? Json(d) : Json(nullptr); }
    Json operator()(bool b) const { return b; }
    Json operator()(const std::string& s) const { return s; }
  };
  return std::visit(Visitor{}, v);
}

// The first `n` display columns of `s` (whole code points).
std::string prefix_columns(const std::string& s, std::size_t n) {
  std::size_t seen = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && seen++ == n) break;
  }
  return s.substr(0, i);
}

// A unit a figure carries ("ms", "t/s", "GiB"), less trailing punctuation ("ms," "ms)").
bool is_unit(std::string_view w) {
  while (!w.empty() && std::string_view(",.;:)]").find(w.back()) != std::string_view::npos) w.remove_suffix(1);
  static const std::set<std::string_view> kUnits = {"ms",  "s",   "t/s",  "tok/s", "W",   "J",  "Wh",
                                                    "kWh", "KiB", "MiB",  "GiB",   "TiB", "KB", "MB",
                                                    "GB",  "TB",  "GB/s", "Hz",    "MHz", "GHz"};
  return kUnits.count(w) > 0;
}

// `text`'s words as a wrap keeps them: a figure whole, so that no line starts with a unit or
// a relation ("+27.7" / "% over", "p =" / "0.013", "100" / "ms"): a word "=", "<", ">", "<=",
// ">=", "≤", "≥" joins both neighbours, a word that starts with '%', and a unit after a word
// ending in a digit, the one before it.
std::vector<std::string> unbreakable_words(const std::string& text) {
  std::vector<std::string> words;
  bool join_next = false;
  for (const std::string& w : split(text, ' ')) {
    const bool relation = w == "=" || w == "<" || w == ">" || w == "<=" || w == ">=" || w == "\u2264" || w == "\u2265";
    const bool unit = !words.empty() && !words.back().empty() &&
                      std::isdigit(static_cast<unsigned char>(words.back().back())) && is_unit(w);
    if (!words.empty() && !w.empty() && !words.back().empty() &&
        (join_next || relation || unit || w.starts_with('%'))) {
      words.back() += " " + w;
    } else {
      words.push_back(w);
    }
    join_next = relation;
  }
  return words;
}

// The pieces a wrap keeps whole: `text`'s words, or with `wrap_at` the entries between its
// separators, each but the last ending in the separator (less its trailing spaces), so that a
// name in a ranking is never cut.
std::vector<std::string> wrap_pieces(const std::string& text, const char* wrap_at) {
  return wrap_at && *wrap_at ? split_after(text, wrap_at) : unbreakable_words(text);
}

// `words` in lines of at most `width` columns joined by spaces (a word longer than a line is
// cut); lines after the first start with `indent`.
std::vector<std::string> wrap_words(const std::vector<std::string>& words, std::size_t width,
                                    const std::string& indent) {
  std::vector<std::string> lines;
  std::string line;
  bool blank = true;  // nothing but the indent on `line` yet
  auto flush = [&] {
    lines.push_back(line);
    line = indent;
    blank = true;
  };
  for (std::string word : words) {
    if (word.empty()) continue;
    if (!blank) {
      if (display_width(line) + 1 + display_width(word) <= width) {
        line += ' ' + word;
        continue;
      }
      flush();
    }
    while (!word.empty() && display_width(line) + display_width(word) > width) {
      const std::size_t used = display_width(line);
      const std::string head = prefix_columns(word, width > used ? width - used : 1);
      line += head;
      word.erase(0, head.size());
      flush();
    }
    if (!word.empty()) {
      line += word;
      blank = false;
    }
  }
  if (!blank) lines.push_back(line);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

// `text` in lines of at most `width` columns, broken at spaces, or only after each `wrap_at`
// when one is given (its trailing spaces end the line); lines after the first start with `indent`.
// `line` with keep_whole's no-break spaces spaces again: they hold a name together while it is
// wrapped, and are written as the spaces they were (a name is found by grep as it is typed).
std::string with_spaces(std::string line) {
  for (std::size_t at = line.find(kKeepWholeSpace); at != std::string::npos; at = line.find(kKeepWholeSpace, at + 1))
    line.replace(at, std::string_view(kKeepWholeSpace).size(), " ");
  return line;
}

std::vector<std::string> wrap_text(const std::string& text, std::size_t width, const std::string& indent,
                                   const char* wrap_at = nullptr) {
  std::vector<std::string> lines = wrap_words(wrap_pieces(text, wrap_at), width, indent);
  for (std::string& l : lines) l = with_spaces(std::move(l));
  return lines;
}

// The columns md shows, by index.
std::vector<std::size_t> shown_columns(const Table& table, bool wide) {
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < table.columns().size(); ++i) {
    const TableColumn& c = table.columns()[i];
    if (!c.data_only && (wide || !c.wide_only)) shown.push_back(i);
  }
  return shown;
}

// md's rule cell for a column `width` wide: dashes, ':' last when right-aligned.
std::string rule_cell(std::size_t width, Align align) {
  const bool right = align == Align::kRight;
  return " " + std::string(width - (right ? 1 : 0), '-') + (right ? ":" : "") + " |";
}

std::string pad(const std::string& s, std::size_t width, Align align) {
  const std::size_t w = display_width(s);
  if (w >= width) return s;
  const std::string fill(width - w, ' ');
  return align == Align::kRight ? fill + s : s + fill;
}

}  // namespace

const char* format_name(OutputFormat f) {
  switch (f) {
    case OutputFormat::kCsv: return "csv";
    case OutputFormat::kJson: return "json";
    case OutputFormat::kJsonl: return "jsonl";
    case OutputFormat::kSql: return "sql";
    case OutputFormat::kMarkdown: break;
  }
  return "md";
}

std::string output_format_message(const std::string& value, const std::vector<std::string>& formats,
                                  FileAdvice advice) {
  if (std::find(formats.begin(), formats.end(), value) != formats.end()) return "";
  std::string message = "-o/--output '" + value + "': unknown format (" + join(formats, ", ") + ")";
  if (value == "-" || value.find_first_of("./") != std::string::npos) {
    message += advice == FileAdvice::kOutputFileFlag ? "; -o takes a format: to write a file use --output-file"
                                                     : "; -o takes a format: to write a file, redirect (> FILE)";
  }
  return message;
}

Result<OutputFormat> parse_output_format(const std::string& name, FileAdvice advice) {
  return parse_output_format(name, std::vector<OutputFormat>(std::begin(kAllFormats), std::end(kAllFormats)), advice);
}

Result<OutputFormat> parse_output_format(const std::string& name, const std::vector<OutputFormat>& allowed,
                                         FileAdvice advice) {
  std::vector<std::string> names;
  for (OutputFormat f : allowed) {
    if (name == format_name(f)) return f;
    names.push_back(format_name(f));
  }
  return fail(ErrorCode::kUsage, output_format_message(name, names, advice));
}

TableCell TableCell::str(std::string s) {
  TableCell c;
  c.text = s;
  c.value = std::move(s);
  return c;
}

TableCell TableCell::integer(int64_t v, std::string text) {
  return TableCell{v, text.empty() ? std::to_string(v) : std::move(text)};
}

TableCell TableCell::count(uint64_t v, std::string text) {
  return TableCell{v, text.empty() ? std::to_string(v) : std::move(text)};
}

TableCell TableCell::number(double v, int decimals, std::string absent_text) {
  if (!std::isfinite(v)) return absent(std::move(absent_text));
  return TableCell{v, format_fixed(v, decimals)};
}

TableCell TableCell::number_text(double v, std::string text) {
  if (!std::isfinite(v)) return absent(std::move(text));
  return TableCell{v, std::move(text)};
}

TableCell TableCell::boolean(bool v, std::string text) {
  return TableCell{v, text.empty() ? std::string(v ? "true" : "false") : std::move(text)};
}

TableCell TableCell::absent(std::string text) { return TableCell{std::monostate{}, std::move(text)}; }

void Table::add_row(std::vector<TableCell> cells) {
  cells.resize(columns_.size(), TableCell::absent());
  rows_.push_back(std::move(cells));
}

void Table::add_preamble(std::string line) { preamble_.push_back(std::move(line)); }

void Table::add_footer(std::string line) { footers_.push_back(std::move(line)); }

void Table::add_note(std::string note) {
  if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(std::move(note));
}

std::vector<std::string> split_after(const std::string& text, const std::string& sep) {
  const std::string stem = sep.substr(0, sep.find_last_not_of(' ') + 1);
  std::vector<std::string> pieces;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(sep, from)) != std::string::npos; from = at + sep.size())
    pieces.push_back(text.substr(from, at - from) + stem);
  pieces.push_back(text.substr(from));
  return pieces;
}

std::vector<std::string> mean_sd_pieces(const std::string& text) {
  const std::size_t at = text.find(" ± ");
  if (at == std::string::npos) return {text};
  return {text.substr(0, at), text.substr(at + 1)};
}

std::string note_lines(const std::string& note) {
  constexpr std::size_t kWidth = 120;
  const std::string indent(6, ' ');
  std::string out = "note: ", line;
  std::size_t used = 6;
  for (const std::string& word : unbreakable_words(note)) {
    const std::size_t w = display_width(word);
    if (used > 6 && used + 1 + w > kWidth) {
      out += "\n" + indent;
      used = 6;
    } else if (used > 6) {
      out += ' ';
      ++used;
    }
    out += word;
    used += w;
  }
  return with_spaces(std::move(out)) + "\n";
}

std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string keep_whole(const std::string& name) {
  std::string out;
  for (char c : name) out += c == ' ' ? std::string(kKeepWholeSpace) : std::string(1, c);
  return out;
}

std::vector<std::string> as_written(std::vector<std::string> texts) {
  for (std::string& t : texts) t = with_spaces(std::move(t));
  return texts;
}

std::size_t widest_line(std::string_view text) {
  std::size_t widest = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    widest = std::max(widest, display_width(text.substr(0, end)));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return widest;
}

std::string shortest(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string markdown_table(const Table& table, bool wide) {
  const std::vector<std::size_t> shown = shown_columns(table, wide);
  std::vector<std::vector<std::string>> text(table.rows().size());
  std::vector<std::size_t> width;
  for (std::size_t i : shown)
    width.push_back(std::max<std::size_t>(display_width(md_escape(table.columns()[i].header)), 3));
  for (std::size_t r = 0; r < table.rows().size(); ++r) {
    for (std::size_t k = 0; k < shown.size(); ++k) {
      text[r].push_back(md_escape(table.rows()[r][shown[k]].text));
      width[k] = std::max(width[k], display_width(text[r].back()));
    }
  }
  // The pieces a wrap keeps whole, per row and shown column (wrap columns only).
  std::vector<std::vector<std::vector<std::string>>> pieces(text.size(),
                                                            std::vector<std::vector<std::string>>(shown.size()));
  // A wrap column takes the room the others leave within kMarkdownWidth, the widest giving way
  // first; never less than 10 columns nor its header, nor its widest piece where it breaks between pieces
  // (a list's entries, a cell's pieces): "linux-2080 / ti-cuda 1. / 30 >" was a ranking squeezed
  // to 10 columns beside wide ones; a piece that does not fit widens the table instead.
  std::vector<std::size_t> least(shown.size(), 0);
  bool any_wrap = false;
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const TableColumn& c = table.columns()[shown[k]];
    if (!c.wrap) continue;
    any_wrap = true;
    std::size_t piece = c.wrap_at ? 3 : 0;
    for (std::size_t r = 0; r < text.size(); ++r) {
      const TableCell& cell = table.rows()[r][shown[k]];
      if (cell.pieces.empty()) {
        pieces[r][k] = wrap_pieces(text[r][k], c.wrap_at);
      } else {
        for (const std::string& p : cell.pieces) pieces[r][k].push_back(md_escape(p));
      }
      if (c.wrap_at || !cell.pieces.empty())
        for (const std::string& p : pieces[r][k]) piece = std::max(piece, display_width(p));
    }
    // (the header is not wrapped: never narrower than it)
    const std::size_t header = display_width(md_escape(c.header));
    least[k] = std::min(width[k], std::max<std::size_t>({10, piece, header}));
  }
  std::size_t total = 4 + 3 * (shown.size() - 1);  // "| " ... " | " ... " |"
  for (std::size_t w : width) total += w;
  while (any_wrap && total > kMarkdownWidth) {
    std::size_t widest = shown.size();
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const bool gives = table.columns()[shown[k]].wrap && width[k] > least[k];
      if (gives && (widest == shown.size() || width[k] > width[widest])) widest = k;
    }
    if (widest == shown.size()) break;
    --width[widest];
    --total;
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (std::size_t k = 0; k < shown.size(); ++k)
      out += " " + pad(cells[k], width[k], table.columns()[shown[k]].align) + " |";
    return out + "\n";
  };
  std::vector<std::string> headers;
  for (std::size_t i : shown) headers.push_back(md_escape(table.columns()[i].header));
  std::string out = line(headers) + "|";
  for (std::size_t k = 0; k < shown.size(); ++k) out += rule_cell(width[k], table.columns()[shown[k]].align);
  out += "\n";
  for (std::size_t r = 0; r < text.size(); ++r) {
    // Each wrap column's lines; the row's other cells on its first line alone.
    std::vector<std::vector<std::string>> parts(shown.size());
    std::size_t lines = 1;
    for (std::size_t k = 0; k < shown.size(); ++k) {
      if (!table.columns()[shown[k]].wrap) continue;
      parts[k] = display_width(text[r][k]) <= width[k]
                     ? std::vector<std::string>{text[r][k]}
                     : wrap_words(pieces[r][k], width[k], std::string(table.rows()[r][shown[k]].hang, ' '));
      lines = std::max(lines, parts[k].size());
    }
    for (std::size_t i = 0; i < lines; ++i) {
      std::vector<std::string> cells = i == 0 ? text[r] : std::vector<std::string>(shown.size());
      for (std::size_t k = 0; k < shown.size(); ++k) {
        if (table.columns()[shown[k]].wrap) cells[k] = i < parts[k].size() ? parts[k][i] : "";
      }
      out += line(cells);
    }
  }
  return out;
}

namespace {

// The streamed lines' widths: each shown column's header (3 at least, min_width at least) or its
// cell in the first row, the wider; the rows that follow are padded to them (a wider cell widens
// its own line).
std::vector<std::size_t> stream_widths(const Table& table, const std::vector<std::size_t>& shown) {
  std::vector<std::size_t> width;
  for (std::size_t i : shown) {
    std::size_t w = std::max<std::size_t>({display_width(md_escape(table.columns()[i].header)), 3,
                                           table.columns()[i].min_width});
    if (!table.rows().empty()) w = std::max(w, display_width(md_escape(table.rows()[0][i].text)));
    width.push_back(w);
  }
  return width;
}

}  // namespace

std::string markdown_header(const Table& table, bool wide) {
  const std::vector<std::size_t> shown = shown_columns(table, wide);
  const std::vector<std::size_t> width = stream_widths(table, shown);
  std::string head = "|", rule = "|";
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const TableColumn& c = table.columns()[shown[k]];
    head += " " + pad(md_escape(c.header), width[k], c.align) + " |";
    rule += rule_cell(width[k], c.align);
  }
  return head + "\n" + rule + "\n";
}

std::string markdown_row(const Table& table, std::size_t row, bool wide) {
  const std::vector<std::size_t> shown = shown_columns(table, wide);
  const std::vector<std::size_t> width = stream_widths(table, shown);
  std::string out = "|";
  for (std::size_t k = 0; k < shown.size(); ++k)
    out += " " + pad(md_escape(table.rows()[row][shown[k]].text), width[k], table.columns()[shown[k]].align) + " |";
  return out + "\n";
}

std::string markdown_footer(const Table& table) {
  if (table.footers().empty() && table.notes().empty()) return "";
  std::string out = "\n";
  for (const auto& footer : table.footers()) {
    for (const auto& l : wrap_text(footer, kMarkdownWidth, "  ")) out += l + "\n";
  }
  for (const auto& note : table.notes()) out += note_lines(note);
  return out;
}

std::string csv_header(const Table& table) {
  std::vector<std::string> keys;
  for (const auto& c : table.columns()) keys.push_back(c.key);
  return join(keys, ",") + "\n";
}

std::string csv_row(const Table& table, std::size_t row) {
  std::vector<std::string> fields;
  for (const auto& cell : table.rows()[row]) fields.push_back(csv_value(cell.value));
  return join(fields, ",") + "\n";
}

Json row_json(const Table& table, std::size_t row) {
  Json j = Json::object();
  for (std::size_t i = 0; i < table.columns().size(); ++i)
    j[table.columns()[i].key] = json_value(table.rows()[row][i].value);
  return j;
}

Json table_rows_json(const Table& table) {
  Json rows = Json::array();
  for (std::size_t r = 0; r < table.rows().size(); ++r) rows.push_back(row_json(table, r));
  return rows;
}

std::string paragraph_lines(const std::string& text, const std::string& indent) {
  return paragraph_lines(text, indent, kMarkdownWidth);
}

std::string paragraph_lines(const std::string& text, const std::string& indent, std::size_t width) {
  std::string out;
  for (const auto& l : wrap_text(text, width, indent)) out += l + "\n";
  return out;
}

void render(const Table& table, OutputFormat format, std::ostream& out, RenderOptions options) {
  switch (format) {
    case OutputFormat::kMarkdown: {
      for (const auto& line : table.preamble()) out << paragraph_lines(line);
      if (!table.preamble().empty()) out << "\n";
      out << markdown_table(table, options.wide) << markdown_footer(table);
      break;
    }
    case OutputFormat::kSql:  // not offered for tables (parse_output_format's default list); as csv
    case OutputFormat::kCsv: {
      out << csv_header(table);
      for (std::size_t r = 0; r < table.rows().size(); ++r) out << csv_row(table, r);
      break;
    }
    case OutputFormat::kJson:
      out << table_rows_json(table).dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
      break;
    case OutputFormat::kJsonl:
      for (std::size_t r = 0; r < table.rows().size(); ++r) {
        out << row_json(table, r).dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
      }
      break;
  }
  out << std::flush;
}

SizeUnit size_unit_for(const std::vector<int64_t>& bytes) {
  int64_t largest = 0;
  for (int64_t b : bytes) largest = std::max<int64_t>(largest, b < 0 ? -b : b);
  if (largest < (int64_t{1} << 20)) return SizeUnit::kKiB;
  if (largest < (int64_t{1} << 30)) return SizeUnit::kMiB;
  return SizeUnit::kGiB;
}

const char* size_unit_name(SizeUnit u) {
  switch (u) {
    case SizeUnit::kKiB: return "KiB";
    case SizeUnit::kMiB: return "MiB";
    case SizeUnit::kGiB: break;
  }
  return "GiB";
}

std::string size_in(int64_t bytes, SizeUnit u) {
  if (bytes == 0) return "0";
  const double scale = u == SizeUnit::kKiB ? 1024.0 : u == SizeUnit::kMiB ? 1048576.0 : 1073741824.0;
  const double v = static_cast<double>(bytes) / scale;
  if (std::fabs(v) < 0.005) return bytes < 0 ? "-<0.01" : "<0.01";
  return format_fixed(v, 2);
}

}  // namespace rigbench::report
