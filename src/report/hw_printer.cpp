#include "report/hw_printer.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/strings.h"
#include "hw/describe.h"

namespace rigbench::report {

namespace {

using json = nlohmann::ordered_json;

// Columns a string takes on a terminal: UTF-8 code points (no wide characters expected here).
std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The first `n` columns of `s` (whole code points).
std::string prefix_columns(const std::string& s, std::size_t n) {
  std::size_t seen = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && seen++ == n) break;
  }
  return s.substr(0, i);
}

// `text` in lines of at most `width` columns, broken at spaces (a word longer than a line is
// cut); lines after the first start with `indent`.
std::vector<std::string> wrap(const std::string& text, std::size_t width, const std::string& indent = "") {
  std::vector<std::string> lines;
  std::string line;
  bool blank = true;  // nothing but the indent on `line` yet
  auto flush = [&] {
    lines.push_back(line);
    line = indent;
    blank = true;
  };
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    if (!blank) {
      if (columns(line) + 1 + columns(word) <= width) {
        line += ' ' + word;
        continue;
      }
      flush();
    }
    while (!word.empty() && columns(line) + columns(word) > width) {
      const std::string head = prefix_columns(word, width > columns(line) ? width - columns(line) : 1);
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

// A markdown table no wider than kHwTableWidth: the `flex` column takes the room the others
// leave and wraps onto continuation rows (the other cells empty there).
struct MdTable {
  std::vector<std::string> headers;
  std::vector<bool> right;  // right-aligned (numbers)
  std::size_t flex = 0;
  std::vector<std::vector<std::string>> rows;
};

void print_md_table(const MdTable& t, std::ostream& out) {
  const std::size_t n = t.headers.size();
  std::vector<std::size_t> w(n, 3);
  for (std::size_t c = 0; c < n; ++c) {
    w[c] = std::max(w[c], columns(t.headers[c]));
    for (const auto& row : t.rows) w[c] = std::max(w[c], columns(row[c]));
  }
  std::size_t others = 0;
  for (std::size_t c = 0; c < n; ++c) others += c == t.flex ? 0 : w[c];
  const std::size_t frame = 4 + 3 * (n - 1);  // "| " ... " | " ... " |"
  const std::size_t room = kHwTableWidth > frame + others + 10 ? kHwTableWidth - frame - others : 10;
  w[t.flex] = std::min(w[t.flex], room);

  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = "|";
    for (std::size_t c = 0; c < n; ++c) {
      // A cell wider than its column (only possible outside the flex column, beyond the frame's
      // room) is cut rather than widen the table.
      std::string cell = columns(cells[c]) > w[c] ? prefix_columns(cells[c], w[c]) : cells[c];
      const std::string pad(w[c] - columns(cell), ' ');
      s += " " + (t.right[c] ? pad + cell : cell + pad) + " |";
    }
    out << s << "\n";
  };
  line(t.headers);
  std::string sep = "|";
  for (std::size_t c = 0; c < n; ++c) sep += std::string(w[c] + 1, '-') + (t.right[c] ? ":|" : "-|");
  out << sep << "\n";
  for (const auto& row : t.rows) {
    // A continuation of a fix keeps its text aligned after "fix: ".
    const std::string indent = row[t.flex].rfind("fix: ", 0) == 0 ? "     " : "";
    const auto parts = wrap(row[t.flex], w[t.flex], indent);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::vector<std::string> cells = i == 0 ? row : std::vector<std::string>(n);
      cells[t.flex] = parts[i];
      line(cells);
    }
  }
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string gib(uint64_t bytes) { return fixed(static_cast<double>(bytes) / (1ull << 30), 2); }

json to_json(const HwReport& r) {
  const MachineInfo& m = r.machine;
  json gpus = json::array();
  for (const auto& g : m.gpus) {
    gpus.push_back({{"name", g.name}, {"description", g.description}, {"type", g.type}, {"source", hw::gpu_source(g)},
                    {"memory_total_bytes", g.memory_total_bytes}, {"memory_free_bytes", g.memory_free_bytes}});
  }
  json meters = json::array();
  for (const auto& mt : r.meters) {
    meters.push_back({{"kind", mt.kind}, {"available", mt.available}, {"asked", mt.asked}, {"domains", mt.domains}, {"detail", mt.detail}, {"fix", mt.fix}});
  }
  json j = {{"hostname", m.hostname}, {"cpu", m.cpu}, {"cores", m.cores}, {"threads", m.threads},
            {"ram_bytes", m.ram_bytes}, {"ram_available_bytes", r.ram_available_bytes}, {"os", m.os},
            {"kernel", m.kernel}, {"backends", m.backends}, {"gpus", gpus}, {"meters", meters}};
  if (r.bandwidth) {
    const auto& bw = *r.bandwidth;
    j["bandwidth"] = {{"read_gbps", bw.read_gbps}, {"triad_gbps", bw.triad_gbps}, {"threads", bw.threads},
                      {"array_bytes", bw.array_bytes}, {"method", bw.method}};
  }
  return j;
}

std::string csv_value(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::vector<std::string> parts;
    for (const auto& e : v) parts.push_back(csv_value(e));
    return join(parts, ";");
  }
  return v.dump();
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void print_csv(const json& j, std::ostream& out) {
  auto row = [&](const std::string& section, const std::string& name, const std::string& key, const json& v) {
    out << csv_cell(section) << "," << csv_cell(name) << "," << csv_cell(key) << "," << csv_cell(csv_value(v)) << "\n";
  };
  out << "section,name,key,value\n";
  for (const auto& [key, v] : j.items()) {
    if (key == "gpus" || key == "meters") {
      const std::string section = key == "gpus" ? "gpu" : "meter", id = key == "gpus" ? "name" : "kind";
      for (const auto& e : v) {
        for (const auto& [k, ev] : e.items()) {
          if (k != id) row(section, e[id].get<std::string>(), k, ev);
        }
      }
    } else if (key == "bandwidth") {
      for (const auto& [k, bv] : v.items()) row("bandwidth", "", k, bv);
    } else {
      row("machine", "", key, v);
    }
  }
}

void print_md(const HwReport& r, std::ostream& out) {
  const MachineInfo& m = r.machine;
  auto or_dash = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  MdTable machine{{"machine", "value"}, {false, false}, 1, {}};
  machine.rows = {{"host", or_dash(m.hostname)},
                  {"cpu", or_dash(m.cpu)},
                  {"cores", std::to_string(m.cores)},
                  {"threads", std::to_string(m.threads)},
                  {"RAM total GiB", gib(m.ram_bytes)},
                  {"RAM available GiB", gib(r.ram_available_bytes)},
                  {"os", or_dash(m.os)},
                  {"kernel", or_dash(m.kernel)},
                  {"ggml backends", or_dash(join(m.backends, ", "))}};
  print_md_table(machine, out);

  out << "\n";
  if (m.gpus.empty()) {
    out << "gpus: none (ggml's backends, NVML and the amdgpu driver list none)\n";
  } else {
    MdTable gpus{{"gpu", "description", "type", "listed by", "memory GiB", "free GiB"},
                 {false, false, false, false, true, true}, 1, {}};
    bool driver_only = false;
    for (const auto& g : m.gpus) {
      driver_only = driver_only || !hw::offloadable(g);
      gpus.rows.push_back({g.name, or_dash(g.description), or_dash(g.type), hw::gpu_source(g), gib(g.memory_total_bytes),
                           gib(g.memory_free_bytes)});
    }
    print_md_table(gpus, out);
    if (driver_only) {
      for (const auto& l : wrap("listed by nvml or amdgpu: the driver sees the GPU, this build's ggml does not "
                                "(fit and bench plan without it)",
                                kHwTableWidth, "  ")) {
        out << l << "\n";
      }
    }
  }

  out << "\n";
  MdTable meters{{"meter", "available", "detail"}, {false, false, false}, 2, {}};
  for (const auto& mt : r.meters) {
    meters.rows.push_back({mt.kind, mt.available ? "yes" : mt.asked ? "no" : "not asked", or_dash(mt.detail)});
    if (!mt.fix.empty()) meters.rows.push_back({"", "", "fix: " + mt.fix});
  }
  print_md_table(meters, out);

  if (r.bandwidth) {
    out << "\n";
    MdTable bw{{"memory bandwidth", "GB/s"}, {false, true}, 0, {}};
    bw.rows = {{"read", fixed(r.bandwidth->read_gbps, 1)}, {"triad", fixed(r.bandwidth->triad_gbps, 1)}};
    print_md_table(bw, out);
    for (const auto& l : wrap("method: " + r.bandwidth->method, kHwTableWidth, "  ")) out << l << "\n";
  }
}

}  // namespace

const std::vector<OutputFormat>& hw_formats() {
  static const std::vector<OutputFormat> kFormats = {OutputFormat::kMarkdown, OutputFormat::kCsv, OutputFormat::kJson};
  return kFormats;
}

void print_hw(const HwReport& r, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kJson: out << to_json(r).dump(2) << "\n"; return;
    case OutputFormat::kCsv: print_csv(to_json(r), out); return;
    case OutputFormat::kMarkdown:
    default: print_md(r, out); return;  // md; jsonl and sql are not hw formats (hw_formats)
  }
}

}  // namespace rigbench::report
