// bench/device_check, the GPU device kit's check, run here as its dry run (CUDA off, the CPU
// backend, the build tree of this test, tiny synthetic models) so that the kit cannot rot: every
// step must run and leave its figure in the one JSON. The GPU the energy step reads is faked:
// the fake NVML library (tests/fakes/fake_nvml.cpp) and a fake nvidia-smi (tests/fakes/fake_gpu.py)
// read one state file whose power rises with time, so the two agree only over the same window.
// Label kit (ctest -L kit); llama-bench is needed (-DRIGBENCH_BUILD_PEERS=ON), else it skips.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench::testing {
namespace {

using Json = nlohmann::json;

const Json* step(const Json& report, const std::string& name) {
  for (const auto& s : report["steps"])
    if (s["name"] == name) return &s;
  return nullptr;
}

bool finite_positive(const Json& v) { return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0; }

TEST(DeviceCheckDryRunFakeGpu, EveryStepRunsAndRecordsItsFigure) {
#ifndef RIGBENCH_LLAMA_BENCH
  GTEST_SKIP() << "llama-bench is not built: configure with -DRIGBENCH_BUILD_PEERS=ON";
#else
  TempDir dir;
  const std::string out = dir.file("out");
  const ProcessResult r = run_process({"/usr/bin/env", "BUILD_DIR=" RIGBENCH_BUILD_DIR, "FAKE_NVML=" RIGBENCH_FAKE_NVML,
                                       "WORK=" + dir.file("work"), "NVIDIA_SMI=/nonexistent/nvidia-smi",
                                       RIGBENCH_DEVICE_CHECK, "--dry-run", out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Json report = Json::parse(read_file(out + "/device_check.json"));
  EXPECT_EQ(report["schema"], "rigbench.device_check/1");
  EXPECT_EQ(report["mode"], "dry_run");
  std::vector<std::string> names;
  for (const auto& s : report["steps"]) names.push_back(s["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"kit", "build", "models", "speed", "energy", "fit", "ncmoe"}));
  for (const auto& s : report["steps"]) {
    EXPECT_TRUE(s["seconds"].is_number() && s["limit_s"].is_number()) << s.dump();
    // The kit is checked where scripts/device-kit gathered it; every other step must run.
    if (s["name"] == "kit" && s["status"] == "skipped") continue;
    EXPECT_EQ(s["status"], "ok") << s.dump();
    EXPECT_TRUE(s["figures"].is_object()) << s.dump();
  }

  const Json& models = (*step(report, "models"))["figures"]["models"];
  ASSERT_EQ(models.size(), 3u);
  for (const auto& m : models) EXPECT_TRUE(finite_positive(m["size_bytes"])) << m.dump();

  const Json& speed = (*step(report, "speed"))["figures"];
  ASSERT_EQ(speed["rounds"].size(), 3u);  // three alternations
  for (const auto& round : speed["rounds"]) {
    EXPECT_TRUE(finite_positive(round["pp_ratio"]) && finite_positive(round["tg_ratio"])) << round.dump();
  }
  EXPECT_TRUE(finite_positive(speed["pp_ratio_median"]) && finite_positive(speed["tg_ratio_median"]));

  // The fake GPU's power rises 20 W a second: bench's tg window and the span cut from the
  // fake nvidia-smi's log must be the same instants for the J/token to agree within 2 %.
  const Json& energy = (*step(report, "energy"))["figures"];
  EXPECT_EQ(energy["domains"], Json({"nvml:gpu0"}));
  EXPECT_EQ(energy["method"], "counter") << energy.dump();  // tg512 windows, past the counter's 0.1 s update
  EXPECT_EQ(energy["nvidia_smi_field"], "total_energy_consumption");
  EXPECT_GT(energy["nvidia_smi_reads"].get<int>(), 0);
  ASSERT_TRUE(finite_positive(energy["rigbench_j_per_token"]) && finite_positive(energy["nvidia_smi_j_per_token"]))
      << energy.dump();
  EXPECT_NEAR(energy["ratio"].get<double>(), 1.0, 0.02) << energy.dump();
  EXPECT_EQ(energy["within_target"], true);

  const Json& fit = (*step(report, "fit"))["figures"]["cases"];
  ASSERT_EQ(fit.size(), 6u);  // three architectures at two contexts
  for (const auto& c : fit) {
    EXPECT_TRUE(finite_positive(c["fit_total_bytes"]) && finite_positive(c["allocated_total_bytes"])) << c.dump();
    EXPECT_TRUE(c["fit_vs_allocated_pct"].is_number()) << c.dump();
  }
  const Json& ncmoe = (*step(report, "ncmoe"))["figures"];
  EXPECT_EQ(ncmoe["flags"], "-ngl 99 -ncmoe 8");
  EXPECT_TRUE(finite_positive(ncmoe["tg_ratio"]) && finite_positive(ncmoe["memory"]["allocated_total_bytes"]))
      << ncmoe.dump();

  const std::string md = read_file(out + "/device_check.md");
  for (const auto& name : names) EXPECT_NE(md.find("| " + name + " |"), std::string::npos) << md;
  EXPECT_TRUE(std::filesystem::exists(out + "/logs.tar.gz"));
#endif
}

TEST(DeviceCheckDryRunFakeGpu, BadUsageIsExit2WithOneLine) {
  const ProcessResult none = run_process({RIGBENCH_DEVICE_CHECK});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("usage: bench/device_check [--dry-run] OUT_DIR"), std::string::npos) << none.err;
  const ProcessResult unknown = run_process({RIGBENCH_DEVICE_CHECK, "--cuda", "out"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown option '--cuda'"), std::string::npos) << unknown.err;
}

// The window cut from nvidia-smi's log: the counter 1000 mJ at t0 and 3000 mJ at t0 + 1 s,
// interpolated at t0 + 0.25 and t0 + 0.75 s, is 1.0 J over 0.5 s, 2 W; instantaneous power
// 2 W then 4 W integrates (trapezoid, cut at the ends) to (2.5 + 3.5) / 2 x 0.5 = 1.5 J; a
// window the log does not cover is exit 1 with one line. nvidia-smi prints local time: TZ=UTC
// here, so 2026/12/02 08:00:00.000 is 1796198400 s.
TEST(DeviceCheckCounterWindow, CutsTheLogAtTheWindowsEnds) {
  TempDir dir;
  write_file(dir.file("counter.csv"), "2026/12/02 08:00:00.000, 1000\n2026/12/02 08:00:01.000, 3000\n");
  const ProcessResult c = run_process({"/usr/bin/env", "TZ=UTC", "python3", RIGBENCH_COUNTER_WINDOW, dir.file("counter.csv"),
                                       "total_energy_consumption", "1796198400.25", "1796198400.75"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const Json j = Json::parse(c.out);
  EXPECT_NEAR(j["energy_j"].get<double>(), 1.0, 1e-6);
  EXPECT_NEAR(j["power_w"].get<double>(), 2.0, 1e-6);
  write_file(dir.file("power.csv"), "2026/12/02 08:00:00.000, 2.0\n2026/12/02 08:00:01.000, 4.0\n");
  const ProcessResult p = run_process({"/usr/bin/env", "TZ=UTC", "python3", RIGBENCH_COUNTER_WINDOW, dir.file("power.csv"),
                                       "power.draw.instant", "1796198400.25", "1796198400.75"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NEAR(Json::parse(p.out)["energy_j"].get<double>(), 1.5, 1e-6);
  const ProcessResult outside = run_process({"/usr/bin/env", "TZ=UTC", "python3", RIGBENCH_COUNTER_WINDOW, dir.file("counter.csv"),
                                             "total_energy_consumption", "1796198400.5", "1796198402"});
  EXPECT_EQ(outside.exit_code, 1);
  EXPECT_NE(outside.err.find("do not cover the window"), std::string::npos) << outside.err;
}

}  // namespace
}  // namespace rigbench::testing
