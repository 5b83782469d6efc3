#include "store/llama_bench_markdown.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "core/pipe_table.h"
#include "core/strings.h"
#include "store/llama_bench_record.h"
#include "store/llama_bench_rows.h"

namespace rigbench::store {

namespace {

// llama-bench's markdown headers (markdown_printer::get_field_display_name, v0.4.0 and older
// builds: "mmap", "mmq", "main_gpu") -> its field names (json, csv). The rest are the same.
const std::map<std::string, std::string>& field_of_header() {
  static const std::map<std::string, std::string> kFields = {
      {"model", "model_type"},      {"ngl", "n_gpu_layers"},         {"sm", "split_mode"},
      {"threads", "n_threads"},     {"nkvo", "no_kv_offload"},       {"fa", "flash_attn"},
      {"lm", "load_mode"},          {"embd", "embeddings"},          {"nopo", "no_op_offload"},
      {"noh", "no_host"},           {"dev", "devices"},              {"ts", "tensor_split"},
      {"ot", "tensor_buft_overrides"}, {"fitt", "fit_target"},       {"fitc", "fit_min_ctx"},
      {"mmap", "use_mmap"},         {"mmq", "mul_mat_q"},            {"mg", "main_gpu"},
      {"backend", "backends"},      {"dio", "use_direct_io"},
  };
  return kFields;
}

std::optional<double> to_double(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// "3.56 GiB" -> bytes; "6.74 B" -> count: the number times the unit named after it.
std::optional<uint64_t> scaled(const std::string& cell, const std::map<std::string, double>& units) {
  const auto space = cell.find(' ');
  if (space == std::string::npos) return std::nullopt;
  const auto v = to_double(cell.substr(0, space));
  const auto unit = units.find(trim(cell.substr(space + 1)));
  if (!v || *v < 0 || unit == units.end()) return std::nullopt;
  return static_cast<uint64_t>(std::llround(*v * unit->second));
}

struct Test {
  int n_prompt = 0, n_gen = 0, n_depth = 0;
};

// "pp512", "tg128", "pp 512", "pp512 @ d4096", "pp4096+tg128".
std::optional<Test> parse_test(const std::string& cell) {
  std::string s;
  for (char c : cell) {
    if (c != ' ') s += c;
  }
  Test t;
  if (const auto at = s.find("@d"); at != std::string::npos) {
    const auto depth = to_int(s.substr(at + 2));
    if (!depth || *depth < 0) return std::nullopt;
    t.n_depth = *depth;
    s = s.substr(0, at);
  }
  for (const std::string& part : split(s, '+')) {
    const auto n = part.size() > 2 ? to_int(std::string_view(part).substr(2)) : std::nullopt;
    if (!n || *n <= 0) return std::nullopt;
    if (part.starts_with("pp") && t.n_prompt == 0) t.n_prompt = *n;
    else if (part.starts_with("tg") && t.n_gen == 0) t.n_gen = *n;
    else return std::nullopt;
  }
  return t;
}

// "4970.31 ± 12.84", "4970.31 +- 12.84", "4970.31" -> (mean, sd or "" when not given).
std::optional<std::pair<double, std::optional<double>>> parse_rate(const std::string& cell) {
  std::string mean = cell, sd;
  for (const char* sep : {"±", "+-"}) {
    if (const auto p = cell.find(sep); p != std::string::npos) {
      mean = trim(cell.substr(0, p));
      sd = trim(cell.substr(p + std::string_view(sep).size()));
      break;
    }
  }
  const auto m = to_double(trim(mean));
  if (!m || *m <= 0) return std::nullopt;
  if (sd.empty()) return std::pair{*m, std::optional<double>{}};
  const auto s = to_double(sd);
  if (!s || *s < 0) return std::nullopt;
  return std::pair{*m, std::optional<double>{*s}};
}

// The text after `prefix` in `line` up to the first of `ends` (trimmed), or "".
std::string between(const std::string& line, std::string_view prefix, std::string_view ends) {
  const auto p = line.find(prefix);
  if (p == std::string::npos) return "";
  const std::string rest = line.substr(p + prefix.size());
  return trim(rest.substr(0, rest.find_first_of(ends)));
}

// A GPU named by a backend's start-up line, or "".
std::string device_of(const std::string& line) {
  if (line.find("ggml_vulkan: ") != std::string::npos && line.find(" = ") != std::string::npos)
    return between(line, " = ", "|");
  if (line.find("GPU name:") != std::string::npos) return between(line, "GPU name:", "\n");
  if (line.find("found device:") != std::string::npos) return between(line, "found device:", "\n");
  const std::string t = trim(line);
  if (t.starts_with("Device ") && t.find(':') != std::string::npos && t.find(',') != std::string::npos)
    return between(t, ": ", ",");
  return "";
}

struct Around {
  std::string build_commit, build_number, gpu_info;
};

// The build line and device lines that belong to the table spanning lines [first, last]
// (1-based), between the previous table's end (`prev_end`) and the next's start (`next_start`).
Around around(const std::vector<std::string>& lines, int prev_end, int first, int last, int next_start) {
  Around a;
  auto take_build = [&a](const std::string& line) {
    const std::string t = trim(line);
    if (!t.starts_with("build: ")) return false;
    const std::string rest = trim(t.substr(7));
    a.build_commit = rest.substr(0, rest.find(' '));
    a.build_number = between(rest, "(", ")");
    return true;
  };
  for (int i = last; i < next_start - 1 && i < static_cast<int>(lines.size()); ++i) {
    if (take_build(lines[i])) break;
  }
  std::vector<std::string> gpus;
  const bool build_after = !a.build_commit.empty();
  for (int i = prev_end; i < first - 1; ++i) {
    if (!build_after) take_build(lines[i]);  // none after the table: the last one before it
    if (std::string gpu = device_of(lines[i]); !gpu.empty()) {
      if (gpus.empty() || gpus.back() != gpu) gpus.push_back(gpu);
    }
  }
  a.gpu_info = join(gpus, ", ");
  return a;
}

bool is_llama_bench_header(const std::vector<std::string>& header) {
  bool model = false, test = false, rate = false;
  for (const std::string& h : header) {
    if (h == "TTFT ms" || h == "tg bound" || h == "TTFT p50 ms") return false;  // rigbench's own
    model |= h == "model";
    test |= h == "test";
    rate |= h == "t/s";
  }
  return model && test && rate;
}

std::string where(int line) { return "line " + std::to_string(line) + ": "; }

// One body row as a llama-bench row (field names as its csv's).
Result<LlamaBenchRow> row_of(const PipeTable& table, const PipeTableRow& body, const Around& around,
                             const MarkdownImport& options) {
  const std::vector<std::string>& header = table.header.cells;
  if (body.cells.size() != header.size()) {
    return fail(ErrorCode::kInvalidInput, where(body.line) + std::to_string(body.cells.size()) + " cells under a header of " +
                                              std::to_string(header.size()));
  }
  LlamaBenchRow row;
  row.line = body.line;
  auto& f = row.fields;
  for (std::size_t c = 0; c < header.size(); ++c) {
    const std::string& h = header[c];
    const std::string& v = body.cells[c];
    if (h == "size") {
      const auto bytes = scaled(v, {{"GiB", 1073741824.0}, {"MiB", 1048576.0}});
      if (!bytes) return fail(ErrorCode::kInvalidInput, where(body.line) + "size '" + v + "' is not N GiB or N MiB");
      f["model_size"] = std::to_string(*bytes);
    } else if (h == "params") {
      const auto n = scaled(v, {{"B", 1e9}, {"M", 1e6}, {"K", 1e3}});
      if (!n) return fail(ErrorCode::kInvalidInput, where(body.line) + "params '" + v + "' is not N B or N M");
      f["model_n_params"] = std::to_string(*n);
    } else if (h == "test") {
      const auto t = parse_test(v);
      if (!t) {
        return fail(ErrorCode::kInvalidInput,
                    where(body.line) + "test '" + v + "' is not ppN, tgN, ppN+tgM or one of them @ dN");
      }
      f["n_prompt"] = std::to_string(t->n_prompt);
      f["n_gen"] = std::to_string(t->n_gen);
      f["n_depth"] = std::to_string(t->n_depth);
    } else if (h == "t/s") {
      const auto rate = parse_rate(v);
      if (!rate) return fail(ErrorCode::kInvalidInput, where(body.line) + "t/s '" + v + "' is not a positive mean ± sd");
      f["avg_ts"] = format_fixed(rate->first, 2);
      if (rate->second) f["stddev_ts"] = format_fixed(*rate->second, 2);
    } else {
      const auto it = field_of_header().find(h);
      f[it == field_of_header().end() ? h : it->second] = v;
    }
  }
  f["model_filename"] = f["model_type"];  // the table names no file: the model goes by its description
  f["gpu_info"] = options.gpu.empty() ? around.gpu_info : options.gpu;
  if (!around.build_commit.empty()) f["build_commit"] = around.build_commit;
  if (!around.build_number.empty()) f["build_number"] = around.build_number;
  if (!options.source_url.empty()) f["source_url"] = options.source_url;
  f["source_line"] = trim(body.text);
  return row;
}

}  // namespace

bool holds_llama_bench_markdown(std::string_view text) {
  for (const PipeTable& t : find_pipe_tables(text)) {
    if (is_llama_bench_header(t.header.cells)) return true;
  }
  return false;
}

Result<MarkdownRecords> read_llama_bench_markdown(std::string_view text, const MarkdownImport& options) {
  std::vector<PipeTable> tables = find_pipe_tables(text);
  std::erase_if(tables, [](const PipeTable& t) { return !is_llama_bench_header(t.header.cells); });
  if (tables.empty()) return fail(ErrorCode::kInvalidInput, "no llama-bench markdown table (model, test, t/s columns)");
  std::vector<std::string> lines = split(text, '\n');
  MarkdownRecords out;
  int prev_end = 0;
  for (std::size_t k = 0; k < tables.size(); ++k) {
    const PipeTable& t = tables[k];
    const int last = t.rows.empty() ? t.header.line + 1 : t.rows.back().line;
    const int next_start = k + 1 < tables.size() ? tables[k + 1].header.line : static_cast<int>(lines.size()) + 1;
    const Around a = around(lines, prev_end, t.header.line, last, next_start);
    prev_end = last;
    for (const PipeTableRow& body : t.rows) {
      auto row = row_of(t, body, a, options);
      if (!row) return std::unexpected(row.error());
      auto mapped = map_llama_bench_row(*row, options.machine, options.repetitions);
      if (!mapped) return std::unexpected(mapped.error());
      if (!mapped->record) {
        out.skipped.push_back(mapped->skipped_because);
        continue;
      }
      LlamaBenchRow identity = *row;
      identity.fields["machine"] = options.machine;  // hashed only: two machines' equal lines differ
      mapped->record->record_id = llama_bench_record_id(identity);
      mapped->record->tags.push_back(kMarkdownTag);
      out.records.push_back(std::move(*mapped->record));
    }
  }
  return out;
}

}  // namespace rigbench::store
