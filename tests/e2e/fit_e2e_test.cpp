// End-to-end tests of `rigbench fit`, `hw`, `devices` and synth's flags on real files.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "report/table.h"
#include "support/gguf_fixtures.h"
#include "support/golden.h"
#include "support/scoped_env.h"
#include "support/subprocess.h"
#include "support/temp_dir.h"

namespace rigbench {
namespace {

using testing::ProcessResult;
using testing::run_process;
using testing::TempDir;

nlohmann::json fit_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {RIGBENCH_BIN, "fit", "-o", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The CPU_REPACK note where weights stay on the CPU, never where every layer is on the GPU
// (it appeared on `fit --device <GPU> -ngl 99`).
TEST(FitE2E, CpuRepackNoteOnlyWhereWeightsStayOnTheCpu) {
  auto repack_note = [](const nlohmann::json& j) {
    for (const auto& n : j["notes"]) {
      if (n.get<std::string>().find("CPU_REPACK") != std::string::npos) return n.get<std::string>();
    }
    return std::string();
  };
  const auto gpu =
      fit_json({"--preset", "Llama-3.2-1B", "--quant", "Q4_0", "--device", "RTX 4090", "-ngl", "99", "-c", "4096"});
  EXPECT_EQ(repack_note(gpu), "") << gpu["notes"].dump();
  // Half the layers on the GPU: the other half's weights are multiplied, and repacked, on the CPU.
  const auto partial =
      fit_json({"--preset", "Llama-3.2-1B", "--quant", "Q4_0", "--device", "RTX 4090", "-ngl", "8", "-c", "4096"});
  EXPECT_NE(repack_note(partial), "") << partial["notes"].dump();
  const auto cpu = fit_json(
      {"--preset", "Llama-3.2-1B", "--quant", "Q4_0", "--device", "DDR5-5600 dual channel (96 GB)", "-c", "4096"});
  const std::string all = repack_note(cpu);
  EXPECT_NE(all, "") << cpu["notes"].dump();
  EXPECT_NE(all, repack_note(partial));  // fewer bytes where fewer weights stay on the CPU
}

// An embedding model (bge: BERT, an encoder) generates no tokens: no tg bound in fit's json, its
// table or fit --rank's answer, and a note that says why instead of the bound's definition
// (fit had shown "tg bound <= 567.0" and report's answer "tg bound 10677.4 t/s").
TEST(FitE2E, AnEmbeddingModelHasNoTgBoundAndIsToldWhy) {
  const auto j = fit_json({"--preset", "bge-small-en-v1.5", "--quant", "F16", "-c", "512"});
  ASSERT_EQ(j["devices"].size(), 1u);
  EXPECT_TRUE(j["devices"][0]["tg_bound_tps"].is_null()) << j["devices"][0].dump();
  const std::string notes = j["notes"].dump();
  EXPECT_NE(notes.find("no tg bound: the model is not causal"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("tg bound = bandwidth"), std::string::npos) << notes;
  const ProcessResult md =
      run_process({RIGBENCH_BIN, "fit", "--preset", "bge-small-en-v1.5", "--quant", "F16", "-c", "512"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("<= "), std::string::npos) << md.out;
  const ProcessResult rank = run_process(
      {RIGBENCH_BIN, "fit", "--preset", "bge-small-en-v1.5", "--quant", "F16", "-c", "512", "--rank", "price"});
  ASSERT_EQ(rank.exit_code, 0) << rank.err;
  EXPECT_NE(rank.out.find("the cheapest catalog option that fits is"), std::string::npos) << rank.out;
  EXPECT_EQ(rank.out.find("(tg bound"), std::string::npos) << rank.out;
  EXPECT_NE(rank.out.find("no tg bound: the model is not causal"), std::string::npos) << rank.out;
}

TEST(FitE2E, JsonCarriesEveryFieldPerDevice) {
  const auto j = fit_json({RIGBENCH_TEST_MODEL, "-c", "4096"});
  ASSERT_EQ(j["devices"].size(), 1u);
  const auto& d = j["devices"][0];
  for (const char* key :
       {"name", "capacity_bytes", "usable_bytes", "weights_bytes", "kv_bytes", "compute_bytes", "output_bytes",
        "overhead_bytes", "total_bytes", "n_gpu_layers", "verdict", "margin_bytes", "tg_bound_tps"}) {
    EXPECT_TRUE(d.contains(key)) << key;
  }
  EXPECT_EQ(d["verdict"], "fits");
  EXPECT_EQ(d["weights_bytes"], 1171200);  // the shipped model's tensors
  EXPECT_EQ(d["kv_bytes"], 2621440);       // docs/fit.md: 5 layers x 2 x 32 dims x 4096 x f16
  // llama-server's slots without -np: 4 sequences over one unified cache, each may fill n_ctx.
  EXPECT_EQ(j["n_seq"], 4);
  EXPECT_TRUE(j["kv_unified"].get<bool>());
  EXPECT_EQ(d["n_ctx_seq"], 4096);
  EXPECT_EQ(d["output_bytes"], 512 * 4 * 4);  // n_vocab x 4 sequences x f32
  EXPECT_FALSE(d["tg_bound_is_measurement"].get<bool>());
  EXPECT_GT(d["tg_bound_tps"].get<double>(), 0);
}

// The published observations (docs/fit.md, "Observations the tests hold"): a 70B model fits
// a 512 GB Mac Studio, not a 32 GB RTX 5090 (where only part of it goes), and each device's
// cost per GiB.
TEST(FitE2E, SeventyBFitsTheMacStudioNotTheRtx5090) {
  const auto j =
      fit_json({"--preset", "Llama-3.1-70B", "--quant", "Q4_K_M", "--device", "all", "-c", "8192", "--host-ram", "64"});
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& d : j["devices"]) by_name[d["name"]] = d;
  ASSERT_TRUE(by_name.count("RTX 5090") && by_name.count("M3 Ultra 512GB (Mac Studio)"));
  EXPECT_EQ(by_name["M3 Ultra 512GB (Mac Studio)"]["verdict"], "fits");
  EXPECT_EQ(by_name["RTX 5090"]["verdict"], "partial");
  EXPECT_LT(by_name["RTX 5090"]["n_gpu_layers"].get<int>(), 81);
  EXPECT_NEAR(by_name["RTX 5090"]["usd_per_gib"].get<double>(), 62.47, 0.01);
  EXPECT_NEAR(by_name["M3 Ultra 512GB (Mac Studio)"]["usd_per_gib"].get<double>(), 18.55, 0.01);
  // Apple is judged against the working-set limit, not installed RAM.
  EXPECT_LT(by_name["M2 Pro 16GB"]["capacity_bytes"].get<uint64_t>(), 16ull << 30);
  // The whole catalog's table stays within 120 columns.
  const ProcessResult md =
      run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "--device", "all", "-c", "8192"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  for (const auto& line : split(md.out, '\n')) EXPECT_LE(report::display_width(line), 120u) << line;
}

// -ts: a 70B model at 8192 tokens fits two 24 GiB cards split evenly, not split 3:1, and
// no single card. Layers go to the cards in order; the output layer with the last.
TEST(FitE2E, TensorSplitOverTwoGpus) {
  const std::vector<std::string> base = {"--preset", "Llama-3.1-70B", "-c",      "8192",
                                         "--device", "RTX 3090",      "--count", "2"};
  auto with = [&](const std::vector<std::string>& extra) {
    return fit_json(testing::argv_plus(base, extra))["devices"];
  };
  const auto even = with({});
  ASSERT_EQ(even.size(), 2u);
  EXPECT_EQ(even[0]["name"], "RTX 3090 #1");
  EXPECT_EQ(even[0]["verdict"], "fits");
  EXPECT_EQ(even[1]["verdict"], "fits");
  EXPECT_NEAR(even[0]["weights_bytes"].get<double>(), even[1]["weights_bytes"].get<double>(),
              0.02 * (20.0 * (1ull << 30)));
  const auto skewed = with({"-ts", "3,1", "-ngl", "-1"});
  EXPECT_EQ(skewed[0]["verdict"], "does not fit");
  EXPECT_LT(skewed[0]["margin_bytes"].get<int64_t>(), 0);
  EXPECT_GT(skewed[0]["weights_bytes"].get<uint64_t>(), 2 * skewed[1]["weights_bytes"].get<uint64_t>());
  const ProcessResult bad = run_process(
      {RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "--device", "RTX 3090", "--count", "2", "-ts", "1,1,1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("3 shares for --count 2"), std::string::npos) << bad.err;
}

// -sm none over --count 2: llama.cpp keeps the -mg'th device alone (llama_prepare_model_devices),
// so the 70B at Q4_K_M that two 3090s hold whole is planned on one of them: partial, the rest in
// host RAM. -dev none plans this machine's CPU, as llama.cpp's -dev none runs there.
TEST(FitE2E, SplitModeNoneKeepsTheMainGpuAloneAndDevNoneIsTheCpu) {
  const auto both = fit_json({"--preset", "Llama-3.1-70B", "-c", "8192", "--device", "RTX 3090", "--count", "2"});
  ASSERT_EQ(both["devices"].size(), 2u);
  EXPECT_EQ(both["devices"][0]["verdict"], "fits");
  const auto one = fit_json(
      {"--preset", "Llama-3.1-70B", "-c", "8192", "--device", "RTX 3090", "--count", "2", "-sm", "none", "-mg", "1"});
  ASSERT_EQ(one["devices"].size(), 1u);
  EXPECT_EQ(one["devices"][0]["verdict"], "partial");
  const auto alone = fit_json({"--preset", "Llama-3.1-70B", "-c", "8192", "--device", "RTX 3090"});
  EXPECT_EQ(one["devices"][0]["n_gpu_layers"], alone["devices"][0]["n_gpu_layers"]);
  const ProcessResult md = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "-c", "8192", "--device",
                                        "RTX 3090", "--count", "2", "-sm", "none", "-mg", "1"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("-sm none: llama.cpp keeps device 1 of the 2 (-mg) alone; the other 1 hold nothing"),
            std::string::npos)
      << md.out;
  const auto cpu = fit_json({RIGBENCH_TEST_MODEL, "-c", "512", "-dev", "none"});
  ASSERT_EQ(cpu["devices"].size(), 1u);
  EXPECT_EQ(cpu["devices"][0]["backend"], "cpu");
  EXPECT_EQ(cpu["devices"][0]["verdict"], "fits");
}

// The user's command: -ts 3,1 over two 3090s at 8192 printed "partial: 58 layers on the device,
// 12.61 GiB in host RAM" for both cards (22.60 and 8.35 GiB on them). Each card's note is now its
// own share of the 57 offloaded blocks, the output layer with the last, and the host RAM once.
TEST(FitE2E, SplitOverTwoGpusNotesEachCardsLayersAndTheHostOnce) {
  const std::vector<std::string> args = {"--preset", "Llama-3.1-70B", "--device", "RTX 3090", "--count",
                                         "2",        "-ts",           "3,1",      "-c",       "8192"};
  const auto j = fit_json(args)["devices"];
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["verdict"], "partial");
  EXPECT_EQ(j[0]["n_gpu_layers"], 58);
  EXPECT_EQ(j[0]["note"], "44 layers");
  EXPECT_EQ(j[1]["note"], "13 layers + output");
  std::vector<std::string> md = {RIGBENCH_BIN, "fit"};
  md.insert(md.end(), args.begin(), args.end());
  const ProcessResult r = run_process(md);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("RTX 3090 #1: 44 layers"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RTX 3090 #2: 13 layers + output"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("layers on the device"), std::string::npos) << r.out;
  const auto once = r.out.find("partial: 58 layers offloaded, split over the devices as each one's note says (each");
  ASSERT_NE(once, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("partial: 58 layers offloaded", once + 1), std::string::npos) << r.out;
}

// fit --device 'RTX 3090' --rpc-device 'DDR4-3200 ...' read "fits | -" (JSON max_ctx 0) on both
// rows, though the plan fits at 8192: max n_ctx is now the split's, on each row. With the 64 GB
// desktop the split has room up to n_ctx_train (131072); two 3090s, one behind an rpc-server,
// have it up to 17152, as --count 2 plans the same two cards.
TEST(FitE2E, RpcDeviceRowsCarryTheSplitsLargestContext) {
  auto rows = [](const std::string& remote, int n_ctx) {
    return fit_json({"--preset", "Llama-3.1-70B", "-c", std::to_string(n_ctx), "--device", "RTX 3090", "--rpc-device",
                     remote})["devices"];
  };
  auto plan_fits = [](const std::string& remote, int n_ctx) {  // the plan's verdict line
    const ProcessResult r = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "-c", std::to_string(n_ctx),
                                         "--device", "RTX 3090", "--rpc-device", remote});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const bool fits = r.out.find("verdict over all devices: fits") != std::string::npos;
    EXPECT_NE(r.out.find("verdict over all devices: "), std::string::npos) << r.out;
    return fits;
  };
  const std::string desktop = "DDR4-3200 dual channel (64 GB)";
  for (const auto& [remote, want] : std::vector<std::pair<std::string, int>>{{desktop, 131072}, {"RTX 3090", 17152}}) {
    const auto j = rows(remote, 8192);
    ASSERT_EQ(j.size(), 2u);
    for (const auto& d : j) {
      EXPECT_EQ(d["verdict"], "fits") << d.dump();
      EXPECT_EQ(d["max_ctx"].get<int>(), want) << d.dump();
    }
    EXPECT_TRUE(plan_fits(remote, want)) << remote;
  }
  EXPECT_FALSE(plan_fits("RTX 3090", 17152 + 256));  // partial: -ngl auto then leaves a layer on the host
  const auto count2 = fit_json({"--preset", "Llama-3.1-70B", "-c", "8192", "--device", "RTX 3090", "--count", "2"});
  EXPECT_EQ(count2["devices"][0]["max_ctx"].get<int>(), 17152);
  const ProcessResult md = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "-c", "8192", "--device",
                                        "RTX 3090", "--rpc-device", desktop});
  EXPECT_NE(testing::unwrapped(md.out).find("split over 2 devices"), std::string::npos) << md.out;
  EXPECT_NE(testing::unwrapped(md.out).find("the largest context with room on every device and the host: 131072"),
            std::string::npos)
      << md.out;
}

TEST(FitE2E, DefaultContextIsTrainedContextCappedToFit) {
  // 128k tokens of f16 KV (16 GiB) and 4.6 GiB of weights fit a 24 GiB card, not an 11 GiB one.
  const auto big = fit_json({"--preset", "Llama-3.1-8B", "--device", "RTX 3090"});
  EXPECT_EQ(big["devices"][0]["n_ctx"], 131072);
  EXPECT_EQ(big["devices"][0]["verdict"], "fits");
  const auto j = fit_json({"--preset", "Llama-3.1-8B", "--device", "RTX 2080 Ti"});
  const auto& d = j["devices"][0];
  EXPECT_EQ(d["verdict"], "fits");
  EXPECT_LT(d["n_ctx"].get<int>(), 131072);  // 128k of KV does not fit 24 GiB
  EXPECT_GE(d["n_ctx"].get<int>(), 4096);
  EXPECT_NE(d["note"].get<std::string>().find("as llama.cpp's --fit cuts it"), std::string::npos) << d["note"];
  EXPECT_GE(d["margin_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(d["usable_bytes"].get<uint64_t>() + (1ull << 30),
            d["capacity_bytes"].get<uint64_t>());  // llama.cpp keeps 1 GiB free
}

// Case 8 of #19, as a user runs it: a CodeLlama-34B shape at Q5_K_M (23347 MiB in llama.cpp at
// -c 2048, which crashed on a 32 GB Mac) against the Metal working set of a 32 GB Mac.
TEST(FitE2E, ThirtyFourBAtQ5DoesNotFitA32GBMac) {
  TempDir dir;
  const std::string path = dir.file("cl34.gguf");
  const ProcessResult synth =
      run_process({RIGBENCH_BIN, "synth", "--config", RIGBENCH_TEST_DATA "/fit/codellama34b.config.json", "--quant",
                   "Q5_K_M", "--header-only", "--output-file", path});
  ASSERT_EQ(synth.exit_code, 0) << synth.err;
  const auto j = fit_json({path, "-c", "2048", "--device", "M2 Pro 32GB"});
  const auto& d = j["devices"][0];
  EXPECT_EQ(d["verdict"], "does not fit");
  EXPECT_LT(d["margin_bytes"].get<int64_t>(), 0);
  EXPECT_NEAR(d["capacity_bytes"].get<double>() / (1 << 20), 21845.34, 0.01 * 21845.34);  // what llama.cpp logs there
}

// A catalog GPU sits beside its stated host; --host-bandwidth and --host-ram replace it.
TEST(FitE2E, HostBandwidthFlagBoundsAPartialOffload) {
  const std::vector<std::string> base = {"--preset", "Llama-3.1-70B", "--quant", "Q3_K_S",
                                         "--device", "RTX 2080 Ti",   "-c",      "2048"};
  auto with = [&](const std::vector<std::string>& extra) { return fit_json(testing::argv_plus(base, extra)); };
  const auto stated = with({});
  const auto slow = with({"--host-bandwidth", "10"});
  EXPECT_EQ(stated["devices"][0]["verdict"], "partial");
  EXPECT_GE(stated["devices"][0]["tg_bound_tps"].get<double>(), 1.3);  // measured on such a machine (reference.md)
  EXPECT_LT(slow["devices"][0]["tg_bound_tps"].get<double>(), stated["devices"][0]["tg_bound_tps"].get<double>());
  const std::string notes = slow["notes"].dump();
  EXPECT_NE(notes.find("10.0 GB/s (--host-bandwidth)"), std::string::npos) << notes;
  const ProcessResult bad = run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-8B", "--host-bandwidth", "0"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--host-bandwidth"), std::string::npos) << bad.err;
}

TEST(FitE2E, HeaderOnly671BModel) {
  TempDir dir;
  const std::string path = dir.file("dsv3.gguf");
  ASSERT_EQ(
      run_process({RIGBENCH_BIN, "synth", "--preset", "DeepSeek-V3", "--header-only", "--output-file", path}).exit_code,
      0);
  const auto j = fit_json({path, "--device", "H200 SXM", "-c", "4096", "-ngl", "-1"});
  const auto& d = j["devices"][0];
  EXPECT_EQ(d["verdict"], "does not fit");          // ~377 GiB of weights
  EXPECT_EQ(d["capacity_bytes"], 143771ull << 20);  // what the H200's driver reports (nvidia-smi), not 141 GiB
  EXPECT_GT(d["weights_bytes"].get<uint64_t>(), 370ull << 30);  // all but token_embd
  EXPECT_LT(d["margin_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(d["kv_bytes"], 61u * 576 * 4096 * 2);  // MLA: one 576-wide K row per cell, no V
}

// Case 11 of issue 19: -ot is a flag of its own (not -o t...), and --cpu-moe / --n-cpu-moe
// move the expert weights to host RAM. The model: Mixtral-8x7B header-only on a catalog GPU.
TEST(FitE2E, MoePlacementFlagsMoveExpertsToTheHost) {
  TempDir dir;
  const std::string path = dir.file("mixtral.gguf");
  ASSERT_EQ(run_process({RIGBENCH_BIN, "synth", "--preset", "Mixtral-8x7B", "--header-only", "--output-file", path})
                .exit_code,
            0);
  const std::vector<std::string> base = {path, "--device", "H200 SXM", "-c", "4096", "-ngl", "-1"};
  auto with = [&](const std::vector<std::string>& extra) {
    return fit_json(testing::argv_plus(base, extra))["devices"][0];
  };
  const auto plain = with({});
  const auto ot = with({"-ot", "exps=CPU"});
  const auto cmoe = with({"--cpu-moe"});
  const auto ncmoe = with({"-ncmoe", "8"});
  const uint64_t device = plain["weights_bytes"].get<uint64_t>();
  EXPECT_LT(ot["weights_bytes"].get<uint64_t>(), device / 4);  // the experts are ~96 % of Mixtral
  EXPECT_EQ(ot["weights_bytes"], cmoe["weights_bytes"]);
  // 8 of 32 blocks' experts (Q4_K_M mixes types by block, so within 5 %).
  const uint64_t per_block = (device - cmoe["weights_bytes"].get<uint64_t>()) / 32;
  EXPECT_NEAR(static_cast<double>(ncmoe["weights_bytes"].get<uint64_t>()), static_cast<double>(device - 8 * per_block),
              static_cast<double>(8 * per_block) * 0.05);
  const ProcessResult bad = run_process({RIGBENCH_BIN, "fit", path, "-ot", "exps"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("-ot/--override-tensor 'exps'"), std::string::npos) << bad.err;
}

// Case 10: a projector passed as the model is named as one (exit 1); --mmproj adds its weights.
TEST(FitE2E, ProjectorIsTakenWithMmprojOnly) {
  TempDir dir;
  const std::string proj = dir.file("mmproj.gguf");
  const std::size_t proj_bytes = testing::write_projector(proj);
  const ProcessResult r = run_process({RIGBENCH_BIN, "fit", proj});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rigbench: error: " + proj + " is a vision projector (clip); pass it with --mmproj\n");
  const auto plain = fit_json({RIGBENCH_TEST_MODEL, "-c", "256"})["devices"][0];
  const auto with = fit_json({RIGBENCH_TEST_MODEL, "-c", "256", "--mmproj", proj})["devices"][0];
  EXPECT_EQ(with["weights_bytes"].get<uint64_t>(), plain["weights_bytes"].get<uint64_t>() + proj_bytes);
  EXPECT_GT(with["compute_bytes"].get<uint64_t>(), plain["compute_bytes"].get<uint64_t>());
  const ProcessResult not_proj =
      run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "--mmproj", RIGBENCH_TEST_MODEL});
  EXPECT_EQ(not_proj.exit_code, 1);
  EXPECT_NE(not_proj.err.find("is not a projector (clip)"), std::string::npos) << not_proj.err;
}

// Case 11 (gguf-parser-go#21): a LightOnOCR projector's compute buffer is reserved by llama.cpp
// with its capped warm-up image (256 merged tokens: 448 px, 1024 patches), not the 1540 px of
// clip.vision.image_size (12100 patches: 9.2 GiB of attention scores without flash attention).
// fit --check loads the projector in llama.cpp's mtmd too (no_alloc), and the two agree.
TEST(FitE2E, ProjectorComputeIsItsWarmupImagesAsLlamaCppReservesIt) {
  TempDir dir;
  const std::string proj = dir.file("mmproj-lightonocr.gguf");
  const std::size_t proj_bytes = testing::write_lightonocr_projector(proj);
  const uint64_t plain_compute =
      fit_json({RIGBENCH_TEST_MODEL, "-c", "256", "-fa", "off"})["devices"][0]["compute_bytes"];
  const auto planned = fit_json({RIGBENCH_TEST_MODEL, "-c", "256", "-fa", "off", "--mmproj", proj})["devices"][0];
  // 86.3 MiB (llama.cpp: 86.30), where image_size's 12100 patches made 9.2 GiB.
  EXPECT_LT(planned["compute_bytes"].get<uint64_t>() - plain_compute, 90ull << 20) << planned.dump();
  for (const char* fa : {"on", "off"}) {
    const ProcessResult r = run_process(
        {RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-c", "256", "--mmproj", proj, "-fa", fa, "--check", "-o", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const double fit_bytes = j["estimate"]["projector_bytes"].get<double>();
    const double llama_bytes = j["llama_cpp"]["projector_bytes"].get<double>();
    // mtmd's weights are clip's tensors, all of the file's; the rest its warm-up's compute buffer.
    EXPECT_GT(llama_bytes, static_cast<double>(proj_bytes)) << r.out;
    EXPECT_LT(llama_bytes - static_cast<double>(proj_bytes), 90.0 * 1048576) << "-fa " << fa << ": " << r.out;
    EXPECT_NEAR(fit_bytes / llama_bytes, 1.0, 0.01) << "-fa " << fa << ": " << r.out;
    // The model's own rows do not count the projector; the total does, on both sides.
    EXPECT_EQ(j["estimate"]["weights_bytes"], j["llama_cpp"]["weights_bytes"]) << r.out;
    EXPECT_EQ(j["llama_cpp"]["total_bytes"].get<uint64_t>(),
              j["llama_cpp"]["weights_bytes"].get<uint64_t>() + j["llama_cpp"]["kv_bytes"].get<uint64_t>() +
                  j["llama_cpp"]["compute_bytes"].get<uint64_t>() + j["llama_cpp"]["projector_bytes"].get<uint64_t>());
  }
  const ProcessResult md =
      run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-c", "256", "--mmproj", proj, "--check"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("| projector (mmproj) |"), std::string::npos) << md.out;
}

// bench plans before it loads: a 70B model (header-only here) is refused on this machine with
// the numbers, and nothing is stored.
TEST(FitE2E, BenchRefusesAModelThatWillNotFit) {
  TempDir dir;
  const std::string path = dir.file("70b.gguf");
  ASSERT_EQ(run_process({RIGBENCH_BIN, "synth", "--preset", "Llama-3.1-70B", "--header-only", "--output-file", path})
                .exit_code,
            0);
  const ProcessResult r =
      run_process({RIGBENCH_BIN, "bench", path, "-p", "16", "-n", "4", "-r", "1", "--db", dir.file("r.db")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("will not fit this machine: needs "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--force"), std::string::npos);
  EXPECT_NE(r.err.find("2 of 2 tests did not run (2 refused, 0 failed; stored)"), std::string::npos) << r.err;
  EXPECT_NE(testing::unpadded(r.out).find("| pp16 | refused |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: row 1: refused: model '"), std::string::npos) << r.out;
  // The refusal is a result too: stored, and compare says "does not fit", fit's word.
  const ProcessResult cmp = run_process({RIGBENCH_BIN, "compare", "--db", dir.file("r.db")});
  EXPECT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("does not fit"), std::string::npos) << cmp.out;
  EXPECT_EQ(cmp.out.find("won't fit"), std::string::npos) << cmp.out;
  const ProcessResult exported = run_process({RIGBENCH_BIN, "export", "--db", dir.file("r.db")});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto rec = nlohmann::json::parse(exported.out.substr(0, exported.out.find('\n')));
  EXPECT_NE(rec["refused"].get<std::string>().find("will not fit this machine"), std::string::npos);
  EXPECT_TRUE(rec["results"].empty());
}

// Issue 37: `bench -c 16000000 --no-db` ended "(2 refused, 0 failed; stored)" with nothing stored.
TEST(FitE2E, BenchRefusedWithNoDbSaysNothingWasStored) {
  const ProcessResult r = run_process(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-c", "16000000", "-p", "16", "-n", "4", "-r", "1", "--no-db"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("2 of 2 tests did not run (2 refused, 0 failed; nothing stored: --no-db)"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("; stored)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("stored in"), std::string::npos) << r.err;
}

TEST(FitE2E, BenchShowsTheBoundBesideMeasuredTg) {
  const ProcessResult r = run_process(
      {RIGBENCH_BIN, "bench", RIGBENCH_TEST_MODEL, "-p", "16", "-n", "8", "-r", "1", "--no-db", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out)[0];
  EXPECT_GT(j["roofline"]["tg_bound_tps"].get<double>(), 0);
  EXPECT_FALSE(j["roofline"]["is_measurement"].get<bool>());
  EXPECT_EQ(j["roofline"]["bytes_per_token"], 1171200 - 512 * 64 * 4);  // every weight but token_embd
}

struct BadFit {
  std::string name;
  std::vector<std::string> args;
  int exit_code;
  std::string message;
};
void PrintTo(const BadFit& b, std::ostream* os) { *os << b.name; }
class FitBadInput : public ::testing::TestWithParam<BadFit> {};

TEST_P(FitBadInput, OneLineErrorNoCrash) {
  TempDir dir;
  testing::write_truncated(RIGBENCH_TEST_MODEL, dir.file("cut.gguf"), 2000);
  testing::write_truncated(RIGBENCH_TEST_MODEL, dir.file("short.gguf"),
                           std::filesystem::file_size(RIGBENCH_TEST_MODEL) - 4096);
  testing::write_file(dir.file("empty.gguf"), "");
  std::filesystem::create_directory(dir.file("dir.gguf"));
  testing::write_file(dir.file("text.gguf"), "hello");
  testing::write_gguf_with_key(RIGBENCH_TEST_MODEL, dir.file("arch.gguf"), "general.architecture", "nonesuch");
  std::vector<std::string> args = {RIGBENCH_BIN, "fit"};
  for (auto a : GetParam().args) args.push_back(a.rfind("@", 0) == 0 ? dir.file(a.substr(1)) : a);
  const ProcessResult r = run_process(args);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    E2E, FitBadInput,
    ::testing::Values(
        BadFit{"Missing", {"@none.gguf"}, 1, "no such file"},
        BadFit{"Directory", {"@dir.gguf"}, 1, "dir.gguf': is a directory, not a GGUF file"},
        BadFit{"Empty", {"@empty.gguf"}, 1, "empty.gguf': empty file (0 bytes)"},
        BadFit{"NotGguf", {"@text.gguf"}, 1, "not a GGUF file"},
        BadFit{"CorruptMetadata", {"@cut.gguf"}, 1, "cut.gguf': corrupt or truncated GGUF"},
        BadFit{"TruncatedData", {"@short.gguf"}, 1, "short.gguf': truncated GGUF (tensor data needs"},
        BadFit{"UnknownArchitecture", {"@arch.gguf"}, 1, "arch.gguf': unknown model architecture: 'nonesuch'"},
        BadFit{"PresetAndFile",
               {"--preset", "SmolLM2-135M", "@none.gguf"},
               2,
               "give a MODEL.gguf or --preset NAME, not both"},
        BadFit{"OldDepthFlag", {RIGBENCH_TEST_MODEL, "--depth", "4"}, 2, "--depth"},
        BadFit{"FileAsFormat",
               {RIGBENCH_TEST_MODEL, "-o", "fit.json"},
               2,
               "unknown format (md, csv, json, jsonl); -o takes a format: to write a file, redirect (> FILE)"},
        BadFit{"UnknownDevice", {RIGBENCH_TEST_MODEL, "--device", "Voodoo 5"}, 2, "--device 'Voodoo 5'"},
        BadFit{"BadNgl", {RIGBENCH_TEST_MODEL, "-ngl", "many"}, 2, "-ngl/--n-gpu-layers 'many'"},
        BadFit{"NoModel", {}, 2, "give a MODEL.gguf or --preset"},
        // -dev names this machine's devices; a ggml name it lacks is named with what it has.
        BadFit{"DeviceThisMachineLacks",
               {RIGBENCH_TEST_MODEL, "-dev", "CUDA1"},
               2,
               "-dev/--device CUDA1: 'CUDA1' is not a device of this machine ("},
        BadFit{"SplitOverDevicesThisMachineLacks",
               {RIGBENCH_TEST_MODEL, "-dev", "CUDA0/CUDA1", "-c", "512"},
               2,
               "'CUDA0' is not a device of this machine"},
        // -sm: fit plans none and layer; row and tensor are refused with why.
        BadFit{"RowSplit", {RIGBENCH_TEST_MODEL, "-sm", "row"}, 2, "llama.cpp v0.4.0 splits rows only over SYCL"},
        BadFit{"TensorSplitMode", {RIGBENCH_TEST_MODEL, "-sm", "tensor"}, 2, "common/fit.cpp, refuses it too"},
        BadFit{"MainGpuPastTheSplit",
               {"--preset", "Llama-3.1-8B", "--device", "RTX 3090", "--count", "2", "-sm", "none", "-mg", "2"},
               2,
               "-mg/--main-gpu 2 with -sm none: the split has 2 devices (0..1)"}),
    [](const ::testing::TestParamInfo<BadFit>& info) { return info.param.name; });

// The whole outputs against golden files with placeholders (tests/data/golden/fit_*): units
// in every size header, MiB or KiB for small sizes, the verdict words, the overhead note only
// where a GPU or Apple device is planned, and a stray column, row or note fails.
TEST(FitE2E, GoldenThisMachine) {
  testing::TempDir dir;  // no stored run of this machine: no prediction, whatever the user's database holds
  for (const char* format : {"md", "csv", "json"}) {
    const ProcessResult r =
        run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "--db", dir.file("none.db"), "-o", format});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(testing::golden_mismatch(r.out, testing::golden(std::string("fit_this_machine.") + format)), "")
        << format;
  }
}

TEST(FitE2E, GoldenCatalogDevicesWithinOneHundredTwentyColumns) {
  // A data folder of the golden catalog and the shipped presets.
  testing::TempDir data;
  std::filesystem::copy_file(RIGBENCH_TEST_DATA "/golden/catalog/devices.json", data.file("devices.json"));
  std::filesystem::copy_file(RIGBENCH_TEST_DATA "/../../data/presets.json", data.file("presets.json"));
  const testing::ScopedEnv data_dir("RIGBENCH_DATA_DIR", data.path());
  const std::vector<std::string> args = {
      RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "--device", "all", "-c", "8192", "--host-ram", "64", "-o"};
  for (const char* format : {"md", "csv", "json"}) {
    std::vector<std::string> a = args;
    a.push_back(format);
    const ProcessResult r = run_process(a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(testing::golden_mismatch(r.out, testing::golden(std::string("fit_catalog.") + format)), "") << format;
    if (std::string(format) == "md") {
      for (const auto& line : split(r.out, '\n')) EXPECT_LE(report::display_width(line), 120u) << line;
    }
  }
  // --wide shows the rest; jsonl is one object per device.
  std::vector<std::string> wide = args;
  wide.insert(wide.end(), {"md", "--wide"});
  const ProcessResult w = run_process(wide);
  EXPECT_NE(testing::unpadded(w.out).find(
                "| device | backend | n_ctx | n_ctx/seq | ngl | weights GiB | KV GiB | state KiB | compute MiB | "
                "output MiB | overhead MiB | total GiB | memory GiB | usable GiB | host RAM GiB | "
                "verdict | margin GiB | "
                "max n_ctx | tg bound t/s | USD/GiB |"),
            std::string::npos)
      << w.out;
  std::vector<std::string> jsonl = args;
  jsonl.push_back("jsonl");
  const ProcessResult l = run_process(jsonl);
  EXPECT_EQ(std::count(l.out.begin(), l.out.end(), '\n'), 4) << l.out;
  EXPECT_EQ(nlohmann::json::parse(l.out.substr(0, l.out.find('\n')))["verdict"], "partial");
}

// -d/--n-depth and -np/--parallel, llama.cpp's names, as in bench; "does not fit" exits 0.
TEST(FitE2E, DepthAndParallelFlagsAndExitCodeDocumented) {
  const auto base = fit_json({"--preset", "Llama-3.1-8B", "--device", "RTX 3090", "-c", "8192"});
  const auto deep = fit_json({"--preset", "Llama-3.1-8B", "--device", "RTX 3090", "-c", "8192", "-d", "8192"});
  EXPECT_LT(deep["devices"][0]["tg_bound_tps"].get<double>(), base["devices"][0]["tg_bound_tps"].get<double>());
  const auto one = fit_json({RIGBENCH_TEST_MODEL, "-c", "256", "-np", "1"});
  const auto four = fit_json({RIGBENCH_TEST_MODEL, "-c", "256", "-np", "4"});
  const auto long_form = fit_json({RIGBENCH_TEST_MODEL, "-c", "256", "--parallel", "4", "--n-depth", "0"});
  EXPECT_EQ(four["devices"][0]["total_bytes"], long_form["devices"][0]["total_bytes"]);
  EXPECT_EQ(four["devices"][0]["output_bytes"],
            4 * one["devices"][0]["output_bytes"].get<uint64_t>());  // a row per sequence
  const ProcessResult no =
      run_process({RIGBENCH_BIN, "fit", "--preset", "Llama-3.1-70B", "--device", "M2 Pro 16GB", "-c", "8192"});
  EXPECT_EQ(no.exit_code, 0) << no.err;
  EXPECT_NE(no.out.find("does not fit"), std::string::npos) << no.out;
  const ProcessResult help = run_process({RIGBENCH_BIN, "fit", "--help"});
  EXPECT_NE(help.out.find("Exit codes: 0 the question was answered, whatever the verdict"), std::string::npos)
      << help.out;
  EXPECT_NE(help.out.find("-d,--n-depth"), std::string::npos) << help.out;
}

// hw --bandwidth also replaces the cached figure behind fit's and bench's tg bound (a
// temporary cache here, so the tests' busy probe does not land in the user's).
TEST(HwE2E, DescribesThisMachineAndMeasuresBandwidth) {
  TempDir cache;
  setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
  const ProcessResult r = run_process({RIGBENCH_BIN, "hw", "--bandwidth", "-o", "json"});
  unsetenv("XDG_CACHE_HOME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["ram_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(j["bandwidth"]["read_gbps"].get<double>(), 0.1);
  EXPECT_FALSE(j["bandwidth"]["method"].get<std::string>().empty());
  const auto cached = nlohmann::json::parse(testing::read_file(cache.file("rigbench/bandwidth.json")));
  EXPECT_DOUBLE_EQ(cached["read_gbps"].get<double>(), j["bandwidth"]["read_gbps"].get<double>());
}

TEST(SynthE2E, NegativeSeedIsAUsageErrorAndWritesNothing) {
  TempDir dir;
  const ProcessResult r = run_process({RIGBENCH_BIN, "synth", "--preset", "SmolLM2-135M", "--header-only", "--seed",
                                       "-1", "--output-file", dir.file("x.gguf")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--seed: '-1': expected 0 or more"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.gguf")));
}

TEST(DevicesE2E, GoldenOutputs) {
  const testing::ScopedEnv data_dir("RIGBENCH_DATA_DIR", RIGBENCH_TEST_DATA "/golden/catalog");
  for (const char* format : {"md", "csv", "json"}) {
    const ProcessResult r = run_process({RIGBENCH_BIN, "devices", "-o", format});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(testing::golden_mismatch(r.out, testing::golden(std::string("devices.") + format)), "") << format;
  }
}

TEST(PresetsE2E, GoldenOutputs) {
  for (const char* format : {"md", "csv", "json"}) {
    const ProcessResult r = run_process({RIGBENCH_BIN, "presets", "-o", format});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(testing::golden_mismatch(r.out, testing::golden(std::string("presets.") + format)), "") << format;
  }
  const ProcessResult bad = run_process({RIGBENCH_BIN, "presets", "-o", "xml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("-o/--output 'xml': unknown format (md, csv, json, jsonl)"), std::string::npos) << bad.err;
}

// "usable" meant the reported memory in `devices` (RTX 2080 Ti 11.0), that less 1 GiB in fit
// (10.00), and that less the runtime overhead too in fit --rank (H200 139.01 against 139.40).
// One figure now: fit's, in all three; devices lists the reported memory as "visible".
TEST(DevicesE2E, UsableIsFitsUsableInDevicesFitAndRank) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "devices", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, uint64_t> listed;
  for (const auto& d : nlohmann::json::parse(r.out)) {
    EXPECT_EQ(d["usable_bytes"].get<uint64_t>() + (1ull << 30), d["visible_bytes"].get<uint64_t>()) << d.dump();
    listed[d["name"].get<std::string>()] = d["usable_bytes"].get<uint64_t>();
  }
  for (const char* name : {"RTX 2080 Ti", "H200 SXM", "M3 Ultra 512GB (Mac Studio)"}) {
    const auto f = fit_json({"--preset", "Llama-3.1-8B", "-c", "8192", "--device", name})["devices"];
    EXPECT_EQ(f[0]["usable_bytes"].get<uint64_t>(), listed.at(name)) << name;
  }
  EXPECT_EQ(listed.at("RTX 2080 Ti"), 10ull << 30);
  const auto rank = fit_json({"--preset", "Llama-3.1-8B", "-c", "8192", "--rank", "price"});
  int seen = 0;
  for (const auto& o : rank["options"]) {
    const std::string name = o["device"].get<std::string>();
    if (name != "H200 SXM" && name != "RTX 2080 Ti") continue;
    ++seen;
    EXPECT_EQ(o["usable_bytes"].get<uint64_t>(), o["count"].get<uint64_t>() * listed.at(name)) << o.dump();
  }
  EXPECT_EQ(seen, 2) << rank.dump();
}

TEST(DevicesE2E, EveryCatalogFigureHasASource) {
  const ProcessResult r = run_process({RIGBENCH_BIN, "devices", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j.size(), 15u);
  for (const auto& d : j) {
    for (const char* figure : {"memory", "bandwidth", "price"}) {
      EXPECT_TRUE(d["sources"].contains(figure)) << d["name"] << " " << figure;
    }
  }
}

// llama-server's slot rules (issue 31): -np N gives each slot n_ctx/N tokens (n_ctx_seq) unless
// -kvu shares one cache; without -np the pinned release opens 4 unified slots. The KV cache of a
// sliding-window model follows each rule as llama.cpp's own no_alloc plan does (--check: the real
// llama.cpp, on the Gemma-2-9B preset at -c 16384).
TEST(FitE2E, SlotRulesGiveEachSequenceItsContextAsLlamaServerDoes) {
  const auto two = fit_json({RIGBENCH_TEST_MODEL, "-c", "8192", "-np", "2"});
  EXPECT_EQ(two["n_seq"], 2);
  EXPECT_FALSE(two["kv_unified"].get<bool>());
  EXPECT_EQ(two["devices"][0]["n_ctx"], 8192);
  EXPECT_EQ(two["devices"][0]["n_ctx_seq"], 4096);
  const auto shared = fit_json({RIGBENCH_TEST_MODEL, "-c", "8192", "-np", "2", "-kvu"});
  EXPECT_TRUE(shared["kv_unified"].get<bool>());
  EXPECT_EQ(shared["devices"][0]["n_ctx_seq"], 8192);
  const auto own = fit_json({RIGBENCH_TEST_MODEL, "-c", "8192", "-no-kvu"});  // 4 automatic slots, a cache each
  EXPECT_EQ(own["n_seq"], 4);
  EXPECT_EQ(own["devices"][0]["n_ctx_seq"], 2048);
  const ProcessResult md = run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-c", "8192", "-np", "2"});
  EXPECT_NE(md.out.find("4096 tokens per sequence (n_ctx_seq = n_ctx / 2"), std::string::npos) << md.out;
  const ProcessResult both = run_process({RIGBENCH_BIN, "fit", RIGBENCH_TEST_MODEL, "-kvu", "-no-kvu"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("-kvu and -no-kvu"), std::string::npos) << both.err;

  const std::pair<std::vector<std::string>, double> settings[] = {
      {{"-np", "1"}, 3444.0},
      {{"-np", "2"}, 4200.0},
      {{"-np", "2", "-kvu"}, 4116.0},
      {{"-np", "2", "-kvu", "--swa-full"}, 5376.0},
      {{}, 5376.0},  // 4 unified slots: 4 x 4096 + 512 windows reach the whole 16384
  };
  for (const auto& [extra, want_mib] : settings) {
    std::vector<std::string> args = {RIGBENCH_BIN, "fit",     "--preset", "Gemma-2-9B", "-c",
                                     "16384",      "--check", "-o",       "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run_process(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const double estimate = j["estimate"]["kv_bytes"].get<double>(), real = j["llama_cpp"]["kv_bytes"].get<double>();
    EXPECT_NEAR(estimate / (1 << 20), want_mib, 1.0) << r.out;
    EXPECT_NEAR(estimate, real, real * 0.01) << r.out;
  }
}

// -fitt/--fit-target: the MiB kept free per device, as llama.cpp's --fit-target (default 1024).
TEST(FitE2E, FitTargetIsTheMemoryKeptFreeOnEachDevice) {
  const auto base = fit_json({"--preset", "Llama-3.1-8B", "--device", "RTX 3090", "-c", "8192"});
  const auto more = fit_json({"--preset", "Llama-3.1-8B", "--device", "RTX 3090", "-c", "8192", "-fitt", "3072"});
  const auto& b = base["devices"][0];
  const auto& m = more["devices"][0];
  EXPECT_EQ(b["capacity_bytes"].get<int64_t>() - b["usable_bytes"].get<int64_t>(), int64_t{1024} << 20);
  EXPECT_EQ(m["capacity_bytes"].get<int64_t>() - m["usable_bytes"].get<int64_t>(), int64_t{3072} << 20);
  bool said = false;
  for (const auto& n : more["notes"]) said = said || n.get<std::string>().find("3.00 GiB") != std::string::npos;
  EXPECT_TRUE(said) << more["notes"].dump();
}

}  // namespace
}  // namespace rigbench
