// End-to-end tests of a Vulkan build (RIGBENCH_BACKENDS=vulkan scripts/setup, build-vulkan/;
// ctest label vulkan, scripts/test-vulkan) on a real Vulkan device: Mesa's lavapipe, which
// runs on the CPU and which ggml-vulkan lists only with GGML_VK_VISIBLE_DEVICES=0 (set here
// for the children unless the caller set it). Nothing is faked: hw, fit, bench and compare
// of the real binary against the real device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/strings.h"
#include "support/db_query.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using nlohmann::json;
using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

class VulkanE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { setenv("GGML_VK_VISIBLE_DEVICES", "0", /*overwrite=*/0); }

  // The first Vulkan device `rigbench hw -o json` lists (its JSON object), or null.
  static json vulkan_device() {
    const ProcessResult hw = run_process({RIGBENCH_BIN, "hw", "-o", "json"});
    EXPECT_EQ(hw.exit_code, 0) << hw.err;
    const json j = json::parse(hw.out);  // kept: a range over a temporary's member would dangle
    for (const auto& g : j["gpus"]) {
      if (g["name"].get<std::string>().rfind("Vulkan", 0) == 0) return g;
    }
    return nullptr;
  }
};

TEST_F(VulkanE2E, HwListsTheVulkanDeviceWithItsMemory) {
  const ProcessResult hw = run_process({RIGBENCH_BIN, "hw", "-o", "json"});
  ASSERT_EQ(hw.exit_code, 0) << hw.err;
  const json j = json::parse(hw.out);
  const auto& backends = j["backends"];
  EXPECT_NE(std::find(backends.begin(), backends.end(), "Vulkan"), backends.end()) << backends.dump();
  const json dev = vulkan_device();
  ASSERT_FALSE(dev.is_null()) << hw.out;
  EXPECT_EQ(dev["name"], "Vulkan0");
  EXPECT_EQ(dev["source"], "ggml");
  EXPECT_FALSE(dev["description"].get<std::string>().empty());
  EXPECT_GT(dev["memory_total_bytes"].get<uint64_t>(), 0u);
  EXPECT_FALSE(j.contains("backends_without_devices")) << hw.out;
  const ProcessResult md = run_process({RIGBENCH_BIN, "hw"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("| Vulkan0 "), std::string::npos) << md.out;
}

// Without GGML_VK_VISIBLE_DEVICES ggml-vulkan skips lavapipe (a CPU-type device): hw says the
// backend has no device and why, and bench -ngl 99 says the layers stay on the CPU.
TEST_F(VulkanE2E, WithoutTheVisibleDevicesVariableHwAndBenchSayThereIsNoDevice) {
  const ProcessResult hw =
      run_process({"/usr/bin/env", "-u", "GGML_VK_VISIBLE_DEVICES", RIGBENCH_BIN, "hw", "-o", "json"});
  ASSERT_EQ(hw.exit_code, 0) << hw.err;
  const json j = json::parse(hw.out);
  if (!j.contains("backends_without_devices")) GTEST_SKIP() << "a Vulkan GPU is listed without the variable";
  EXPECT_EQ(j["backends_without_devices"], json::array({"Vulkan"}));
  EXPECT_NE(j["backend_notes"][0].get<std::string>().find("GGML_VK_VISIBLE_DEVICES=0"), std::string::npos);
  const ProcessResult b = run_process({"/usr/bin/env", "-u", "GGML_VK_VISIBLE_DEVICES", RIGBENCH_BIN, "bench",
                                       RIGBENCH_TEST_MODEL, "-p", "16", "-n", "0", "-r", "1", "-ngl", "99", "--no-db"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.err.find("rigbench: note: -ngl 99: "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("GGML_VK_VISIBLE_DEVICES=0"), std::string::npos) << b.err;
}

TEST_F(VulkanE2E, BenchNgl99RunsOnTheVulkanDeviceAndTheRecordSaysSo) {
  const json dev = vulkan_device();
  ASSERT_FALSE(dev.is_null());
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "1",
                                       "-ngl", "99", "--no-db", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("rigbench: note: -ngl"), std::string::npos) << r.err;
  const json recs = json::parse(r.out);
  ASSERT_EQ(recs.size(), 2u);
  for (const auto& rec : recs) {
    EXPECT_EQ(rec["devices_used"], json::array({"Vulkan0"}));
    const auto& backends = rec["machine"]["backends"];
    EXPECT_NE(std::find(backends.begin(), backends.end(), "Vulkan"), backends.end());
    EXPECT_EQ(rec["machine"]["gpus"][0]["name"], "Vulkan0");
    EXPECT_EQ(rec["machine"]["gpus"][0]["description"], dev["description"]);
    // The weights are in the device's buffer, not the CPU's; the pinned host buffer type
    // (Vulkan_Host: the CPU's compute buffer beside the device) is host RAM.
    uint64_t on_device = 0;
    bool pinned = false;
    for (const auto& b : rec["memory"]["buffers"]) {
      if (b["device"] == "Vulkan0") on_device += b["model_bytes"].get<uint64_t>();
      if (b["buffer_type"] == "Vulkan_Host") {
        pinned = true;
        EXPECT_EQ(b["device"], "CPU") << rec["memory"].dump();
      }
    }
    EXPECT_GT(on_device, 0u) << rec["memory"].dump();
    EXPECT_TRUE(pinned) << rec["memory"].dump();
  }
  EXPECT_GT(recs[1]["results"]["tg"]["avg_tps"].get<double>(), 0);
  // The table's backend column.
  const ProcessResult md = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "0", "-r", "1",
                                        "-ngl", "99", "--no-db"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("Vulkan0"), std::string::npos) << md.out;
}

// -ngl 0,99: CPU and Vulkan side by side in one run; a CPU build's run of the same model on the
// same machine joins the database. compare keeps one machine and never pools the two builds: by
// machine each build is a column of its own, named by the machine and its backends ("vm (CPU)",
// "vm (Vulkan)"), in the same rows; by build the builds are told apart by their backends.
TEST_F(VulkanE2E, Ngl0And99SideBySideAndCompareKeepsBuildsApartOnOneMachine) {
  TempDir dir;
  const std::string db = (dir.path() / "r.db").string();
  const ProcessResult r = run_process({RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4", "-r", "2",
                                       "-ngl", "0,99", "--db", db, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json recs = json::parse(r.out);
  ASSERT_EQ(recs.size(), 4u);
  std::set<std::string> used;
  for (const auto& rec : recs) used.insert(rec["devices_used"][0].get<std::string>());
  EXPECT_EQ(used, (std::set<std::string>{"CPU", "Vulkan0"}));

  // One build so far: one machine, one column.
  const ProcessResult alone = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const json one = json::parse(alone.out);
  ASSERT_EQ(one["columns"].size(), 1u) << one["columns"].dump();
  const std::string machine = one["columns"][0].get<std::string>();

  if (!std::filesystem::exists(RIGBENCH_CPU_BUILD_BIN))
    GTEST_SKIP() << RIGBENCH_CPU_BUILD_BIN << " is missing: the cross-build half did not run";
  const ProcessResult c = run_process({RIGBENCH_CPU_BUILD_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "4",
                                       "-r", "2", "-ngl", "0", "--db", db});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", db, "-o", "json"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const json j = json::parse(cmp.out);
  EXPECT_EQ(j["columns"], json({machine + " (CPU)", machine + " (Vulkan)"})) << cmp.out;
  // The two builds' pp runs meet in one row, a measured cell each.
  bool side_by_side = false;
  for (const auto& row : j["rows"]) {
    if (row["metric"] != "pp_tps") continue;
    int measured = 0;
    for (const auto& cell : row["cells"]) measured += cell["state"] == "measured";
    side_by_side = side_by_side || measured == 2;
  }
  EXPECT_TRUE(side_by_side) << cmp.out;
  const ProcessResult by_build = run_process({RIGBENCH_BIN, "compare", "--db", db, "--by", "build"});
  ASSERT_EQ(by_build.exit_code, 0) << by_build.err;
  EXPECT_NE(by_build.out.find("(CPU)"), std::string::npos) << by_build.out;
  EXPECT_NE(by_build.out.find("(Vulkan)"), std::string::npos) << by_build.out;
}

// fit --device auto plans on the Vulkan device (the first ggml device); against llama.cpp's
// own no_alloc plan with that device (fit --check, every layer on it), on the shipped model and
// a synthetic Llama-3.2-1B (tied embeddings: the output layer's copy of token_embd on the
// device): the KV cache within 1 %, the total and each side (the device's memory, and host RAM:
// token_embd, the graph's inputs and the embedding lookup in Vulkan_Host) within 2 %.
TEST_F(VulkanE2E, FitDeviceAutoPlansForTheVulkanDeviceWithin2PercentOfLlamaCppsPlan) {
  for (const std::vector<std::string>& model :
       {std::vector<std::string>{RIGBENCH_TEST_MODEL}, std::vector<std::string>{"--preset", "Llama-3.2-1B"}}) {
    SCOPED_TRACE(model.back());
    std::vector<std::string> args = {RIGBENCH_BIN, "fit"};
    args.insert(args.end(), model.begin(), model.end());
    for (const char* a : {"--device", "auto", "-c", "4096", "-ngl", "-1"}) args.push_back(a);
    const ProcessResult plan = run_process(args);
    ASSERT_EQ(plan.exit_code, 0) << plan.err;
    EXPECT_NE(plan.out.find("Vulkan0"), std::string::npos) << plan.out;
    for (const char* a : {"--check", "-o", "json"}) args.push_back(a);
    const ProcessResult check = run_process(args);
    ASSERT_EQ(check.exit_code, 0) << check.err;
    const json c = json::parse(check.out);
    EXPECT_EQ(c["device"], "Vulkan0") << check.out;
    auto ratio = [&](const char* key) {
      return c["estimate"][key].get<double>() / c["llama_cpp"][key].get<double>();
    };
    EXPECT_NEAR(ratio("kv_bytes"), 1.0, 0.01) << check.out;
    EXPECT_NEAR(ratio("total_bytes"), 1.0, 0.02) << check.out;
    EXPECT_NEAR(ratio("device_bytes"), 1.0, 0.02) << check.out;
    EXPECT_NEAR(ratio("host_bytes"), 1.0, 0.02) << check.out;
  }
}

// fit -dev names this machine's devices as llama.cpp's -dev does (issue 31): -dev Vulkan0 plans
// on the device and --check asks llama.cpp with the same -dev (its plan on Vulkan0, fit's within
// 2 %); -dev none plans the CPU and RAM, and llama.cpp's plan with -dev none has nothing on a
// device; -sm none -mg 0 keeps Vulkan0; a device the machine lacks is named with the one it has.
TEST_F(VulkanE2E, FitDevNamesThisMachinesDevicesAndTheCheckAsksLlamaCppWithTheSameDevices) {
  auto check = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-c", "4096",
                                     "-ngl",       "-1",  "--check",           "-o", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run_process(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? json::parse(r.out) : json();
  };
  const json on_device = check({"-dev", "vulkan0"});
  EXPECT_EQ(on_device["device"], "Vulkan0") << on_device;
  EXPECT_NEAR(
      on_device["estimate"]["device_bytes"].get<double>() / on_device["llama_cpp"]["device_bytes"].get<double>(), 1.0,
      0.02)
      << on_device;
  // Without -dev none llama.cpp would put the layers on Vulkan0 (the check above): here nothing
  // of its plan is on a device, and fit's is the CPU's (no device side to compare).
  const json cpu = check({"-dev", "none"});
  EXPECT_FALSE(cpu.contains("device")) << cpu;
  EXPECT_FALSE(cpu["llama_cpp"].contains("device_bytes")) << cpu;
  EXPECT_EQ(cpu["estimate"]["kv_bytes"], cpu["llama_cpp"]["kv_bytes"]) << cpu;
  const ProcessResult none =
      run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-c", "4096", "-sm", "none", "-mg", "0", "-o", "json"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(json::parse(none.out)["devices"][0]["backend"], "vulkan") << none.out;
  const ProcessResult lacks = run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-dev", "Vulkan1"});
  EXPECT_EQ(lacks.exit_code, 2);
  EXPECT_EQ(lacks.err,
            "rigbench: error: -dev/--device Vulkan1: 'Vulkan1' is not a device of this machine (it has Vulkan0), nor "
            "a catalog name\n")
      << lacks.err;
}

// The placement knobs on a real device (issue 31), on a tiny synthetic MoE (4 blocks of 4
// experts, F16): -ncmoe 2 keeps blocks 0 and 1's experts in host RAM, -ot exps=CPU every
// block's, -cmoe the same as that; -dev none runs on the CPU alone, -dev Vulkan0 on the device.
TEST_F(VulkanE2E, MoePlacementFlagsMoveTheExpertWeightsAsLlamaBenchWould) {
  ASSERT_FALSE(vulkan_device().is_null());
  TempDir dir;
  testing::write_file(dir.file("moe.json"),
                      R"({"model_type": "mixtral", "vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 4,
 "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 128, "num_local_experts": 4,
 "num_experts_per_tok": 2, "max_position_embeddings": 2048, "rope_theta": 10000, "rms_norm_eps": 1e-5})");
  const std::string moe = dir.file("moe.gguf");
  const ProcessResult s = run_process({RIGBENCH_BIN, "synth", "--config", dir.file("moe.json"), "--quant", "F16",
                                       "--output-file", moe});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  auto run = [&](std::vector<std::string> extra) {
    // -lm none: every weight in a buffer of its own size (a mapped file's buffer spans the
    // tensors between those it holds).
    std::vector<std::string> args = {RIGBENCH_BIN, "bench", moe, "-p", "16", "-n", "0", "-r", "1", "-ngl", "99",
                                     "-lm", "none", "--no-db", "-o", "jsonl"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run_process(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<json> out;
    for (const auto& line : split(trim(r.out), '\n')) out.push_back(json::parse(line));
    return out;
  };
  // Weight bytes per side of a record: the device's buffers and the host's (device "CPU": the
  // pinned Vulkan_Host buffer).
  auto weights_on = [](const json& rec, const std::string& device) {
    uint64_t bytes = 0;
    for (const auto& b : rec["memory"]["buffers"])
      if (b["device"] == device) bytes += b["model_bytes"].get<uint64_t>();
    return bytes;
  };
  const auto ncmoe = run({"-ncmoe", "0,2", "-ot", "none,exps=CPU"});
  ASSERT_EQ(ncmoe.size(), 4u);
  const uint64_t host0 = weights_on(ncmoe[0], "CPU"), dev0 = weights_on(ncmoe[0], "Vulkan0");
  const uint64_t host_all = weights_on(ncmoe[1], "CPU"), host2 = weights_on(ncmoe[2], "CPU");
  // Each expert tensor of a block: 4 experts x 64 x 128 x F16 = 64 KiB; up, gate, down: 192 KiB.
  constexpr uint64_t kBlockExperts = 3ull * 4 * 64 * 128 * 2;
  EXPECT_EQ(host2 - host0, 2 * kBlockExperts) << ncmoe[2]["memory"].dump();
  EXPECT_EQ(host_all - host0, 4 * kBlockExperts) << ncmoe[1]["memory"].dump();
  EXPECT_EQ(dev0 - weights_on(ncmoe[2], "Vulkan0"), 2 * kBlockExperts);
  EXPECT_EQ(ncmoe[2]["params"]["n_cpu_moe"], 2);
  EXPECT_EQ(ncmoe[1]["params"]["tensor_buft_overrides"], "exps=CPU");
  const auto cmoe = run({"-cmoe"});
  ASSERT_EQ(cmoe.size(), 1u);
  EXPECT_EQ(weights_on(cmoe[0], "CPU"), host_all);
  const auto devs = run({"-dev", "none,Vulkan0"});
  ASSERT_EQ(devs.size(), 2u);
  EXPECT_EQ(devs[0]["devices_used"], json::array({"CPU"}));
  EXPECT_EQ(weights_on(devs[0], "Vulkan0"), 0u);
  EXPECT_EQ(devs[1]["devices_used"], json::array({"Vulkan0"}));
}

// tune on the Vulkan device (issue 33): with a device that takes layers, -ngl is among the
// candidates (every layer, half the blocks, none), each planned by fit and raced for real on
// the device; the winner's commands carry its -ngl, and every trial is a record of the devices
// it ran on.
TEST_F(VulkanE2E, TuneRacesNglOnTheDeviceAndTheWinnersCommandsCarryIt) {
  ASSERT_FALSE(vulkan_device().is_null());
  TempDir dir;
  const std::string db = dir.file("t.db");
  const ProcessResult r =
      run_process({RIGBENCH_BIN, "tune", RIGBENCH_TEST_MODEL, "-c", "256", "-n", "16", "-t", "2", "-fa", "on", "-ctk",
                   "f16", "-ctv", "f16", "--poll", "50", "--max-time", "120", "--db", db, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["varied"], json::array({"n_gpu_layers"})) << r.out;
  std::set<int> ngl;
  for (const auto& c : j["candidates"]) ngl.insert(c["settings"]["n_gpu_layers"].get<int>());
  EXPECT_EQ(ngl, (std::set<int>{-1, 0, 2})) << r.out;  // stories260K: 5 blocks
  ASSERT_TRUE(j["winner"].is_object()) << r.out;
  const int won = j["winner"]["settings"]["n_gpu_layers"];
  const std::string server = j["winner"]["commands"]["llama_server"];
  EXPECT_NE(server.find(won == -1 ? " -ngl all" : " -ngl " + std::to_string(won)), std::string::npos) << server;
  // Each trial's record: some layers or all on the device ran on Vulkan0, none on the CPU alone.
  EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) FROM runs"), j["trials"].get<int64_t>());
  for (const auto& [ngl, devices] :
       std::vector<std::pair<int, std::string>>{{-1, R"(["Vulkan0"])"}, {2, R"(["Vulkan0"])"}, {0, R"(["CPU"])"}}) {
    SCOPED_TRACE(ngl);
    const std::string where = "FROM runs WHERE n_gpu_layers = " + std::to_string(ngl);
    EXPECT_GT(testing::query_int(db, "SELECT COUNT(*) " + where), 0);
    EXPECT_EQ(testing::query_int(db, "SELECT COUNT(*) " + where +
                                         " AND json_extract(record_json, '$.devices_used') "
                                         "IS NOT '" +
                                         devices + "'"),
              0);
  }
}

}  // namespace
}  // namespace rigbench
