// End-to-end tests of `rigbench hw` on this VM (no GPU, no meter), and of the one machine
// description that bench and hw share, with a fake NVML library and a fake /sys/class/drm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fakes/fake_nvml_state.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Columns on a terminal: UTF-8 code points.
std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

TEST(HwE2E, TableFitsIn120ColumnsWithOneLinePerMeterAndNoAppleMeterOnLinux) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "hw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  for (const auto& l : lines) EXPECT_LE(columns(l), 120u) << l;
  for (const char* kind : {"rapl", "nvml", "amdgpu", "external", "constant", "estimate"}) {
    const auto n = std::count_if(lines.begin(), lines.end(),
                                 [&](const std::string& l) { return l.rfind(std::string("| ") + kind + " ", 0) == 0; });
    EXPECT_EQ(n, 1) << kind << "\n" << r.out;
  }
#ifdef __linux__
  EXPECT_EQ(r.out.find("apple"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("powermetrics"), std::string::npos) << r.out;
#endif
  EXPECT_NE(r.out.find("| RAM total GiB "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fix: "), std::string::npos) << r.out;
}

TEST(HwE2E, CsvAndJsonCarryTheSameMeters) {
  const ProcessResult csv = run_process({RIGBENCH_BIN, "hw", "-o", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(lines_of(csv.out).at(0), "section,name,key,value");
  const ProcessResult js = run_process({RIGBENCH_BIN, "hw", "-o", "json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  for (const auto& m : j["meters"]) {
    EXPECT_NE(csv.out.find("meter," + m["kind"].get<std::string>() + ",available,"), std::string::npos) << m["kind"];
  }
  EXPECT_NE(csv.out.find("machine,,ram_bytes," + std::to_string(j["ram_bytes"].get<uint64_t>()) + "\n"),
            std::string::npos);
}

TEST(HwE2E, AFileNameAsFormatIsAUsageError) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "hw", "-o", "hw.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("rigbench: error: -o/--output 'hw.json': unknown format (md, csv, json, jsonl)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
}

// bench stores the machine that hw lists: the NVIDIA GPU NVML sees and the AMD card of the
// drm tree, with their memory, although this build's ggml sees neither.
TEST(HwE2E, BenchRecordsTheGpusHwLists) {
  testing::FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.name", "NVIDIA GeForce RTX 3090");
  nvml.set("gpu0.memory_total_bytes", 25769803776ull);
  nvml.set("gpu0.memory_used_bytes", 1073741824ull);
  TempDir drm;
  const auto dev = drm.path() / "card1" / "device";
  std::filesystem::create_directories(dev);
  testing::write_file((dev / "vendor").string(), "0x1002\n");
  testing::write_file((dev / "mem_info_vram_total").string(), "8573157376\n");
  testing::write_file((dev / "mem_info_vram_used").string(), "0\n");
  testing::write_file((dev / "product_name").string(), "AMD Radeon RX 6600 XT\n");
  setenv("RIGBENCH_DRM_ROOT", drm.path().c_str(), 1);
  const ProcessResult hw = run_process({RIGBENCH_BIN, "hw", "-o", "json"});
  const ProcessResult table = run_process({RIGBENCH_BIN, "hw"});
  const ProcessResult bench = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1",
                                           "-t", "1", "--no-db", "--idle-seconds", "0", "-o", "json"});
  unsetenv("RIGBENCH_DRM_ROOT");
  ASSERT_EQ(hw.exit_code, 0) << hw.err;
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const auto listed = nlohmann::json::parse(hw.out)["gpus"];
  const auto stored = nlohmann::json::parse(bench.out)[0]["machine"]["gpus"];
  ASSERT_EQ(listed.size(), 2u) << hw.out;
  ASSERT_EQ(stored.size(), listed.size()) << bench.out;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    for (const char* key : {"name", "description", "memory_total_bytes", "memory_free_bytes"}) {
      EXPECT_EQ(stored[i][key], listed[i][key]) << i << " " << key;
    }
  }
  EXPECT_EQ(listed[0]["name"], "nvml:gpu0");
  EXPECT_EQ(listed[1]["name"], "amdgpu:card1");
  EXPECT_NE(table.out.find("| nvml:gpu0 "), std::string::npos) << table.out;
  for (const auto& l : lines_of(table.out)) EXPECT_LE(columns(l), 120u) << l;
}

}  // namespace
}  // namespace rigbench
