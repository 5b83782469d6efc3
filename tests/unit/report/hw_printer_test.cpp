// `rigbench hw`'s output on a machine with long names, many GPUs and long meter reasons and
// fixes: md within 120 columns, one line per meter (its fix on the next), csv and json with
// every value.
#include "report/hw_printer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/golden.h"

namespace rigbench::report {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

HwReport big_machine() {
  HwReport r;
  MachineInfo& m = r.machine;
  m.hostname = "rig-with-a-rather-long-hostname.example.internal";
  m.cpu = "AMD Ryzen Threadripper PRO 7995WX 96-Cores with a very long model string that goes on";
  m.cores = 96;
  m.threads = 192;
  m.ram_bytes = 512ull << 30;
  r.ram_available_bytes = 500ull << 30;
  m.os = "Debian GNU/Linux 12 (bookworm)";
  m.kernel = "Linux 6.1.0-28-amd64";
  m.backends = {"CPU", "CUDA", "Vulkan", "RPC"};
  m.gpus = {{"CUDA0", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition with an even longer name", "gpu", 96ull << 30,
             95ull << 30},
            {"nvml:gpu1", "NVIDIA GeForce RTX 4090", "gpu", 24ull << 30, 23ull << 30}};
  r.meters = {
      {"rapl",
       false,
       {},
       "/sys/class/powercap/intel-rapl:0/energy_uj: permission denied (RAPL energy is readable only by "
       "root since Linux 5.10, after CVE-2020-8694)",
       "run as root, or allow reading until reboot: sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj "
       "/sys/class/powercap/intel-rapl:*:*/energy_uj; to keep it, a udev rule such as ACTION==\"add\", "
       "SUBSYSTEM==\"powercap\", RUN+=\"/bin/chmod o+r /sys%p/energy_uj\""},
      {"nvml",
       true,
       {"nvml:gpu0", "nvml:gpu1"},
       "NVML total-energy counter (mJ, updated about every 100 ms), GPU 0 "
       "(NVIDIA RTX PRO 6000); instantaneous power sampled for checks",
       ""},
      {"amdgpu", false, {}, "no amdgpu hwmon device under /sys/class/hwmon (no AMD GPU, or no amdgpu driver)", ""},
      {"external", false, {}, "no power log given", "--power-log FILE (CSV timestamp,watts from a wall meter)"}};
  hw::BandwidthResult bw;
  bw.read_gbps = 210.5;
  bw.triad_gbps = 180.25;
  bw.method =
      "best of 5 passes over 256 MiB arrays with 96 threads (steady clock); read = XOR over one array, "
      "triad = a = b + s*c counted as 3 arrays (STREAM convention, write-allocate traffic not counted)";
  r.bandwidth = bw;
  return r;
}

TEST(HwPrinter, MarkdownFitsIn120ColumnsWithOneLinePerMeter) {
  std::ostringstream out;
  print_hw(big_machine(), OutputFormat::kMarkdown, out);
  const auto lines = lines_of(out.str());
  for (const auto& l : lines) EXPECT_LE(l.size(), kHwTableWidth) << l;
  for (const char* kind : {"rapl", "nvml", "amdgpu", "external"}) {
    int starts = 0;
    for (const auto& l : lines) starts += l.rfind(std::string("| ") + kind + " ", 0) == 0;
    EXPECT_EQ(starts, 1) << kind << "\n" << out.str();
  }
  // The fix on its own line, right below its meter, and nothing of the udev rule lost.
  std::size_t rapl = 0;
  while (lines[rapl].rfind("| rapl ", 0) != 0) ++rapl;
  std::size_t fix = rapl + 1;
  while (lines[fix].find("fix: ") == std::string::npos) ++fix;
  EXPECT_EQ(lines[fix].find("| rapl"), std::string::npos);
  std::string joined;
  for (const auto& l : lines) joined += l + "\n";
  EXPECT_NE(joined.find("/sys%p/energy_uj"), std::string::npos) << joined;
  // Units in the headers.
  EXPECT_NE(joined.find("memory GiB"), std::string::npos);
  EXPECT_NE(joined.find("free GiB"), std::string::npos);
  EXPECT_NE(joined.find("RAM total GiB"), std::string::npos);
  EXPECT_NE(joined.find("GB/s"), std::string::npos);
  EXPECT_NE(joined.find("| nvml:gpu1 "), std::string::npos);
  EXPECT_NE(joined.find("listed by nvml or amdgpu"), std::string::npos);  // why a listed GPU is not used
}

TEST(HwPrinter, CsvHasOneRowPerValueWithJsonKeys) {
  std::ostringstream out;
  print_hw(big_machine(), OutputFormat::kCsv, out);
  const auto lines = lines_of(out.str());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "section,name,key,value");
  const std::string text = out.str();
  EXPECT_NE(text.find("machine,,ram_bytes,549755813888\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpu,nvml:gpu1,memory_total_bytes,25769803776\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpu,nvml:gpu1,source,nvml\n"), std::string::npos) << text;
  EXPECT_NE(text.find("meter,rapl,available,false\n"), std::string::npos) << text;
  EXPECT_NE(text.find("meter,nvml,domains,nvml:gpu0;nvml:gpu1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("bandwidth,,read_gbps,210.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("meter,external,fix,\"--power-log FILE (CSV timestamp,watts from a wall meter)\"\n"),
            std::string::npos)
      << text;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    // Four fields: three commas outside quotes.
    int commas = 0;
    bool quoted = false;
    for (char c : lines[i]) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) ++commas;
    }
    EXPECT_EQ(commas, 3) << lines[i];
  }
}

TEST(HwPrinter, JsonKeepsEveryField) {
  std::ostringstream out;
  print_hw(big_machine(), OutputFormat::kJson, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["cores"], 96);
  EXPECT_EQ(j["gpus"].size(), 2u);
  EXPECT_EQ(j["gpus"][0]["source"], "ggml");
  EXPECT_EQ(j["meters"][0]["fix"].get<std::string>().find("run as root"), 0u);
  EXPECT_DOUBLE_EQ(j["bandwidth"]["triad_gbps"].get<double>(), 180.25);
}

// A user found plain `hw` silent on the bandwidth fit and bench use (only --bandwidth showed
// one): the cached figure is a row of the machine table and a json key when there is one.
TEST(HwPrinter, TheCachedBandwidthBehindTheTgBoundIsShownWhenKnown) {
  HwReport r = big_machine();
  r.bandwidth.reset();
  r.cached_bandwidth_gbps = 30.24;
  std::ostringstream md, js;
  print_hw(r, OutputFormat::kMarkdown, md);
  EXPECT_NE(md.str().find("| memory bandwidth GB/s | 30.2 read: the best of the last 30 days, behind fit's and bench's tg bound"),
            std::string::npos)
      << md.str();
  print_hw(r, OutputFormat::kJson, js);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(js.str())["bandwidth_cached_gbps"].get<double>(), 30.24);
  r.cached_bandwidth_gbps = 0;  // none cached: nothing said
  std::ostringstream none;
  print_hw(r, OutputFormat::kMarkdown, none);
  EXPECT_EQ(none.str().find("memory bandwidth GB/s"), std::string::npos);
}

// hw's whole outputs for a fixed machine description against golden files
// (tests/data/golden/hw*): a stray column, row or line fails. hw_small: no GPU, no bandwidth.
TEST(HwPrinter, OutputsMatchGoldenFiles) {
  HwReport small;
  small.machine.hostname = "box";
  small.machine.cpu = "Test CPU 9000";
  small.machine.cores = 8;
  small.machine.threads = 16;
  small.machine.ram_bytes = 32ull << 30;
  small.ram_available_bytes = 20ull << 30;
  small.machine.backends = {"CPU"};
  small.meters = {{"rapl", true, {"package-0"}, "RAPL energy counter (uJ)", ""}};
  const std::tuple<const HwReport*, OutputFormat, const char*> cases[] = {
      {nullptr, OutputFormat::kMarkdown, "hw.md"},
      {nullptr, OutputFormat::kCsv, "hw.csv"},
      {nullptr, OutputFormat::kJson, "hw.json"},
      {&small, OutputFormat::kMarkdown, "hw_small.md"}};
  const HwReport big = big_machine();
  for (const auto& [report, format, name] : cases) {
    std::ostringstream out;
    print_hw(report ? *report : big, format, out);
    EXPECT_EQ(rigbench::testing::matches_golden(out.str(), name), "") << name;
  }
}

// hw took md, csv and json while every other subcommand also took jsonl: jsonl is json's
// object on one line (a machine per line when several machines' outputs are appended).
TEST(HwPrinter, JsonlIsTheJsonObjectOnOneLine) {
  std::ostringstream json, jsonl;
  print_hw(big_machine(), OutputFormat::kJson, json);
  print_hw(big_machine(), OutputFormat::kJsonl, jsonl);
  const std::string line = jsonl.str();
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  EXPECT_EQ(nlohmann::json::parse(line), nlohmann::json::parse(json.str()));
}

}  // namespace
}  // namespace rigbench::report
