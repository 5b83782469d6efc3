#include "report/hw_printer.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "hw/describe.h"

namespace rigbench::report {

namespace {

using json = nlohmann::ordered_json;

std::string gib(uint64_t bytes) { return format_fixed(static_cast<double>(bytes) / (1ull << 30), 2); }

json to_json(const HwReport& r) {
  const MachineInfo& m = r.machine;
  json gpus = json::array();
  for (const auto& g : m.gpus) {
    gpus.push_back({{"name", g.name},
                    {"description", g.description},
                    {"type", g.type},
                    {"source", hw::gpu_source(g)},
                    {"memory_total_bytes", g.memory_total_bytes},
                    {"memory_free_bytes", g.memory_free_bytes}});
  }
  json meters = json::array();
  for (const auto& mt : r.meters) {
    meters.push_back({{"kind", mt.kind},
                      {"available", mt.available},
                      {"asked", mt.asked},
                      {"domains", mt.domains},
                      {"detail", mt.detail},
                      {"fix", mt.fix}});
  }
  json j = {{"hostname", m.hostname},
            {"cpu", m.cpu},
            {"cores", m.cores},
            {"threads", m.threads},
            {"ram_bytes", m.ram_bytes},
            {"ram_available_bytes", r.ram_available_bytes},
            {"os", m.os},
            {"kernel", m.kernel},
            {"backends", m.backends},
            {"gpus", gpus},
            {"meters", meters}};
  // Only on a build with a GPU backend that lists no device (the CPU build's output is unchanged).
  if (const auto idle = hw::backends_without_devices(m); !idle.empty()) {
    j["backends_without_devices"] = idle;
    json notes = json::array();
    for (const auto& b : idle) notes.push_back(hw::no_device_note(b));
    j["backend_notes"] = notes;
  }
  if (r.cached_bandwidth_gbps > 0) j["bandwidth_cached_gbps"] = r.cached_bandwidth_gbps;
  if (r.bandwidth) {
    const auto& bw = *r.bandwidth;
    j["bandwidth"] = {{"read_gbps", bw.read_gbps},
                      {"triad_gbps", bw.triad_gbps},
                      {"threads", bw.threads},
                      {"array_bytes", bw.array_bytes},
                      {"method", bw.method}};
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

// One row per value: section,name,key,value (keys as in json), through the table builder.
Table csv_table(const json& j) {
  Table t({{"section", "section"}, {"name", "name"}, {"key", "key"}, {"value", "value"}});
  auto row = [&](const std::string& section, const std::string& name, const std::string& key, const json& v) {
    t.add_row({TableCell::str(section), TableCell::str(name), TableCell::str(key), TableCell::str(csv_value(v))});
  };
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
  return t;
}

// A column of the md view: `wrap` takes the room the others leave (report/table.h).
TableColumn md_column(const char* header, Align align = Align::kLeft, bool wrap = false) {
  TableColumn c;
  c.key = header;
  c.header = header;
  c.align = align;
  c.wrap = wrap;
  return c;
}

void print_md(const HwReport& r, std::ostream& out) {
  const MachineInfo& m = r.machine;
  auto or_dash = [](const std::string& s) { return TableCell::str(s.empty() ? std::string("-") : s); };
  Table machine({md_column("machine"), md_column("value", Align::kLeft, /*wrap=*/true)});
  machine.add_row({TableCell::str("host"), or_dash(m.hostname)});
  machine.add_row({TableCell::str("cpu"), or_dash(m.cpu)});
  machine.add_row({TableCell::str("cores"), TableCell::integer(m.cores)});
  machine.add_row({TableCell::str("threads"), TableCell::integer(m.threads)});
  machine.add_row({TableCell::str("RAM total GiB"), TableCell::str(gib(m.ram_bytes))});
  machine.add_row({TableCell::str("RAM available GiB"), TableCell::str(gib(r.ram_available_bytes))});
  machine.add_row({TableCell::str("os"), or_dash(m.os)});
  machine.add_row({TableCell::str("kernel"), or_dash(m.kernel)});
  machine.add_row({TableCell::str("ggml backends"), or_dash(join(m.backends, ", "))});
  if (r.cached_bandwidth_gbps > 0) {
    machine.add_row({TableCell::str("memory bandwidth GB/s"),
                     TableCell::str(format_fixed(r.cached_bandwidth_gbps, 1) +
                                    " read: the best of the last 30 days, behind fit's and bench's tg bound")});
  }
  for (const auto& b : hw::backends_without_devices(m)) machine.add_note(hw::no_device_note(b));
  render(machine, OutputFormat::kMarkdown, out);

  out << "\n";
  if (m.gpus.empty()) {
    out << "gpus: none (ggml's backends, NVML and the amdgpu driver list none)\n";
  } else {
    Table gpus({md_column("gpu"), md_column("description", Align::kLeft, /*wrap=*/true), md_column("type"),
                md_column("listed by"), md_column("memory GiB", Align::kRight), md_column("free GiB", Align::kRight)});
    bool driver_only = false;
    for (const auto& g : m.gpus) {
      driver_only = driver_only || !hw::offloadable(g);
      gpus.add_row({TableCell::str(g.name), or_dash(g.description), or_dash(g.type), TableCell::str(hw::gpu_source(g)),
                    TableCell::str(gib(g.memory_total_bytes)), TableCell::str(gib(g.memory_free_bytes))});
    }
    if (driver_only) {
      gpus.add_footer(
          "listed by nvml or amdgpu: the driver sees the GPU, this build's ggml does not "
          "(fit and bench plan without it)");
    }
    render(gpus, OutputFormat::kMarkdown, out);
  }

  out << "\n";
  Table meters({md_column("meter"), md_column("available"), md_column("detail", Align::kLeft, /*wrap=*/true)});
  for (const auto& mt : r.meters) {
    meters.add_row({TableCell::str(mt.kind),
                    TableCell::str(mt.available ? "yes"
                                   : mt.asked   ? "no"
                                                : "not asked"),
                    or_dash(mt.detail)});
    if (!mt.fix.empty()) {
      TableCell fix = TableCell::str("fix: " + mt.fix);
      fix.hang = 5;  // continuation lines under the text after "fix: "
      meters.add_row({TableCell::str(""), TableCell::str(""), std::move(fix)});
    }
  }
  render(meters, OutputFormat::kMarkdown, out);

  if (r.bandwidth) {
    out << "\n";
    Table bw({md_column("memory bandwidth", Align::kLeft, /*wrap=*/true), md_column("GB/s", Align::kRight)});
    bw.add_row({TableCell::str("read"), TableCell::number(r.bandwidth->read_gbps, 1)});
    bw.add_row({TableCell::str("triad"), TableCell::number(r.bandwidth->triad_gbps, 1)});
    bw.add_footer("method: " + r.bandwidth->method);
    render(bw, OutputFormat::kMarkdown, out);
  }
}

}  // namespace

void print_hw(const HwReport& r, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kJson: out << to_json(r).dump(2) << "\n"; return;
    case OutputFormat::kJsonl: out << to_json(r).dump() << "\n"; return;  // the same object, one line
    case OutputFormat::kCsv: render(csv_table(to_json(r)), OutputFormat::kCsv, out); return;
    case OutputFormat::kMarkdown:
    default: print_md(r, out); return;  // md; sql is not a format of hw (parse_output_format's default list)
  }
}

}  // namespace rigbench::report
