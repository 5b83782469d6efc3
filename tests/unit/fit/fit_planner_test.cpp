// fit's planner and targets: the verdicts, llama.cpp's default-context rule, the catalog's
// devices and their hosts, on header-only files of real model shapes (support/preset_shape.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "core/strings.h"
#include "fit/planner.h"
#include "fit/ranking.h"
#include "fit/targets.h"
#include "hw/catalog.h"
#include "model/model_shape.h"
#include "model/preset.h"
#include "support/temp_dir.h"
#include "support/preset_shape.h"

namespace rigbench {
namespace {

constexpr uint64_t kMiB = 1ull << 20, kGiB = 1ull << 30;

std::vector<hw::CatalogDevice> catalog() {
  auto c = hw::load_catalog(hw::catalog_path());
  EXPECT_TRUE(c) << c.error().message;
  return *c;
}

fit::Target from_catalog(const std::string& name, fit::HostChoice host = {}) {
  const auto all = catalog();
  auto d = hw::find_device(all, name);
  EXPECT_TRUE(d) << d.error().message;
  return fit::catalog_target(*d, all, host);
}

// A CPU-only machine of `ram_bytes` total RAM, as fit::this_machine makes it.
fit::Target cpu_machine(uint64_t ram_bytes) {
  MachineInfo m;
  m.cpu = "Test CPU";
  m.ram_bytes = ram_bytes;
  return fit::this_machine(m, 20.0);
}

// Case 9 of #19: with no -c, llama.cpp's --fit cut Llama-3.1-8B Q8_0's n_ctx_train 131072 to
// 117248 on a machine of 24684096 kB (MemTotal, 23.5 GiB): its rule (total RAM less 1 GiB,
// interpolated between 4096 and 131072, rounded down to 256) on rigbench's estimate.
TEST(FitPlanner, DefaultContextOnCpuFollowsLlamaCppFitOnTotalRamLessOneGiB) {
  const auto shape = testing::preset_shape("Llama-3.1-8B", "Q8_0");
  const fit::Target t = cpu_machine(24684096ull * 1024);
  EXPECT_EQ(t.capacity_bytes, 24684096ull * 1024);  // total RAM, not what is available now
  EXPECT_EQ(t.usable_bytes(), 24684096ull * 1024 - kGiB);
  fit::ContextParams c;
  const fit::FitResult r = fit::plan_fit_default_context(shape, t, c, -2, 0);
  EXPECT_EQ(r.n_ctx, 117248);
  EXPECT_EQ(r.verdict, fit::Verdict::kFits);
  EXPECT_GE(r.margin_bytes, 0);
  EXPECT_LT(r.margin_bytes, static_cast<int64_t>(256 * kMiB));  // the cut leaves less than a step of 256 tokens
  EXPECT_NE(r.note.find("cut from n_ctx_train 131072 to 117248"), std::string::npos) << r.note;
  // The same machine planned again reads the same: the capacity does not move with free RAM.
  EXPECT_EQ(fit::plan_fit_default_context(shape, cpu_machine(24684096ull * 1024), c, -2, 0).n_ctx, 117248);
}

TEST(FitPlanner, DefaultContextKeepsTheTrainedContextWhenItFits) {
  const auto shape = testing::preset_shape("Llama-3.1-8B", "Q8_0");
  const fit::FitResult r = fit::plan_fit_default_context(shape, cpu_machine(64 * kGiB), fit::ContextParams{}, -2, 0);
  EXPECT_EQ(r.n_ctx, 131072);
  EXPECT_EQ(r.verdict, fit::Verdict::kFits);
  EXPECT_GE(r.margin_bytes, 0);
}

// Case 8 of #19: a 34B Q5_K_M at -c 2048 (23347 MiB in llama.cpp, crashed on a 32 GB Mac)
// does not fit the Metal working set of 21845.34 MiB that llama.cpp logs there.
TEST(FitPlanner, AppleWorkingSetIsTwoThirdsOfRamBelow36GiBAndThe34BDoesNotFitA32GBMac) {
  EXPECT_NEAR(static_cast<double>(hw::apple_working_set_bytes(16 * kGiB)) / kMiB, 10922.67, 0.01 * 10922.67);
  EXPECT_NEAR(static_cast<double>(hw::apple_working_set_bytes(32 * kGiB)) / kMiB, 21845.34, 0.01 * 21845.34);
  EXPECT_NEAR(static_cast<double>(hw::apple_working_set_bytes(36 * kGiB)) / 1e6, 28991.03, 0.01 * 28991.03);
  EXPECT_NEAR(static_cast<double>(hw::apple_working_set_bytes(64 * kGiB)) / kMiB, 49152.0, 0.01 * 49152.0);
  EXPECT_NEAR(static_cast<double>(hw::apple_working_set_bytes(96 * kGiB)) / kMiB, 73728.0, 0.01 * 73728.0);
  const auto shape = testing::preset_shape("", "Q5_K_M", RIGBENCH_TEST_DATA "/fit/codellama34b.config.json");
  const fit::Target mac = from_catalog("M2 Pro 32GB");
  EXPECT_EQ(mac.capacity_bytes, hw::apple_working_set_bytes(32 * kGiB));
  fit::ContextParams c;
  c.n_ctx = 2048;
  const fit::FitResult r = fit::plan_fit(shape, mac, c, -2, 0);
  EXPECT_EQ(r.verdict, fit::Verdict::kNo);
  EXPECT_LT(r.margin_bytes, 0);
  EXPECT_NEAR(static_cast<double>(r.device.total()) / kMiB, 23347.0, 0.02 * 23347.0);
}

// Every Apple entry takes the rule; a Mac's own fraction is refused.
TEST(FitCatalog, UnitsAreWholeGiBAndAppleEntriesTakeTheWorkingSetRule) {
  int apple = 0;
  for (const auto& d : catalog()) {
    EXPECT_EQ(d.memory_bytes % kGiB, 0u) << d.name;
    for (const char* figure : {"memory", "bandwidth", "price"})
      EXPECT_TRUE(d.sources.count(figure)) << d.name << " " << figure;
    if (d.kind == "apple") {
      ++apple;
      EXPECT_EQ(d.visible_bytes(), hw::apple_working_set_bytes(d.memory_bytes)) << d.name;
      EXPECT_TRUE(d.sources.count("working_set")) << d.name;
    }
    if (d.kind == "gpu") {
      EXPECT_FALSE(d.host.empty()) << d.name;  // the loader checks it names a "cpu" entry
      EXPECT_TRUE(d.sources.count("host")) << d.name;
    }
  }
  EXPECT_GE(apple, 10);
  // The H200's "141 GB" read in the catalog's one unit, and the total its driver reports (nvidia-smi
  // memory.total, 143771 MiB), which is what llama.cpp plans against.
  const hw::CatalogDevice h200 = *hw::find_device(catalog(), "H200 SXM");
  EXPECT_EQ(h200.memory_bytes, 141 * kGiB);
  EXPECT_EQ(h200.reported_memory_bytes, 143771ull * kMiB);
  EXPECT_TRUE(h200.sources.count("reported"));
  EXPECT_EQ(from_catalog("H200 SXM").capacity_bytes, 143771ull * kMiB);
  EXPECT_EQ(from_catalog("H100 SXM").capacity_bytes, 80 * kGiB);
  testing::TempDir dir;
  std::ofstream(dir.file("devices.json")) << R"({"devices": [{"name": "Mac", "kind": "apple", "backend": "metal",
    "memory_bytes": 17179869184, "working_set_fraction": 0.9, "bandwidth_gbps": 100, "sources": {}}]})";
  auto bad = hw::load_catalog(dir.file("devices.json"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("working-set rule"), std::string::npos) << bad.error().message;
  std::ofstream(dir.file("reported.json")) << R"({"devices": [{"name": "Card", "kind": "gpu", "backend": "cuda",
    "memory_bytes": 17179869184, "reported_memory_bytes": 18000000000, "bandwidth_gbps": 100,
    "sources": {"reported": "x"}}]})";
  auto over = hw::load_catalog(dir.file("reported.json"));
  ASSERT_FALSE(over);  // a reported total above the installed memory is a typo
  EXPECT_NE(over.error().message.find("reported_memory_bytes"), std::string::npos) << over.error().message;
  std::ofstream(dir.file("gb.json")) << R"({"devices": [{"name": "Card", "kind": "gpu", "backend": "cuda",
    "memory_bytes": 24000000000, "bandwidth_gbps": 100, "sources": {}}]})";
  auto decimal = hw::load_catalog(dir.file("gb.json"));
  ASSERT_FALSE(decimal);
  EXPECT_NE(decimal.error().message.find("not a whole number of GiB"), std::string::npos) << decimal.error().message;
  std::ofstream(dir.file("host.json")) << R"({"devices": [{"name": "Card", "kind": "gpu", "backend": "cuda",
    "memory_bytes": 25769803776, "bandwidth_gbps": 100, "host": "Nowhere", "sources": {}}]})";
  auto no_host = hw::load_catalog(dir.file("host.json"));
  ASSERT_FALSE(no_host);
  EXPECT_NE(no_host.error().message.find("host 'Nowhere' is not a \"cpu\" entry"), std::string::npos)
      << no_host.error().message;
}

// "Also found" in #19: max n_ctx on a partial row, above n_ctx_train where a larger -c fits,
// the padded n_ctx, and a "does not fit" row's margin.
TEST(FitPlanner, PartialRowHasALargestContext) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams c;
  c.n_ctx = 8192;
  const fit::FitResult r = fit::plan_fit(shape, from_catalog("RTX 3090"), c, -2, 0);
  ASSERT_EQ(r.verdict, fit::Verdict::kPartial);
  EXPECT_GE(r.max_ctx, 8192);
  EXPECT_GE(r.margin_bytes, 0);
}

TEST(FitPlanner, LargestContextGoesPastTheTrainedOneWhenALargerRequestFitsAndWarns) {
  const auto shape = testing::preset_shape("SmolLM2-135M", "Q8_0");
  fit::ContextParams c;
  c.n_ctx = 4 * static_cast<int>(shape.n_ctx_train);
  const fit::FitResult r = fit::plan_fit(shape, cpu_machine(64 * kGiB), c, -2, 0);
  EXPECT_EQ(r.verdict, fit::Verdict::kFits);
  EXPECT_GE(r.max_ctx, c.n_ctx);
  EXPECT_NE(r.note.find("exceeds n_ctx_train " + std::to_string(shape.n_ctx_train)), std::string::npos) << r.note;
}

TEST(FitPlanner, NCtxIsThePaddedContextLlamaCppAllocates) {
  const auto shape = testing::preset_shape("SmolLM2-135M", "Q8_0");
  fit::ContextParams c;
  c.n_ctx = 1000;
  fit::FitResult r = fit::plan_fit(shape, cpu_machine(64 * kGiB), c, -2, 0);
  EXPECT_EQ(r.n_ctx, 1024);
  EXPECT_NE(r.note.find("n_ctx 1000 padded to 1024"), std::string::npos) << r.note;
  c.n_ctx = 1000;
  c.n_seq = 4;  // 256 per sequence
  r = fit::plan_fit(shape, cpu_machine(64 * kGiB), c, -2, 0);
  EXPECT_EQ(r.n_ctx, 1024);
  c.n_ctx = 1100;
  EXPECT_EQ(fit::plan_fit(shape, cpu_machine(64 * kGiB), c, -2, 0).n_ctx, 2048);
}

TEST(FitPlanner, DoesNotFitForLackOfHostRamShowsTheNegativeMargin) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::HostChoice host;
  host.ram_bytes = 8 * kGiB;
  fit::ContextParams c;
  c.n_ctx = 8192;
  const fit::FitResult r = fit::plan_fit(shape, from_catalog("RTX 3090", host), c, -2, 0);
  EXPECT_EQ(r.verdict, fit::Verdict::kNo);
  EXPECT_LT(r.margin_bytes, 0);
  EXPECT_EQ(r.margin_bytes, static_cast<int64_t>(8 * kGiB) - static_cast<int64_t>(r.host.total()));
  // Issue 37: the note mixed units ("the 357495 MiB left in host RAM exceed its 98304 MiB") and
  // named no host. One unit, GiB, and the host as the target states it.
  EXPECT_NE(r.note.find("GiB left in host RAM exceed its 8.00 GiB (host: 8 GiB of RAM (--host-ram)"),
            std::string::npos)
      << r.note;
  EXPECT_NE(r.note.find(format_gib(static_cast<int64_t>(r.host.total())) + " GiB left"), std::string::npos) << r.note;
  EXPECT_EQ(r.note.find("MiB"), std::string::npos) << r.note;
}

// A GPU that cannot hold even the output layer: "does not fit" with the device's shortfall as
// the margin, not the host's room (a made-up 1.25 GiB card beside 64 GiB of RAM).
TEST(FitPlanner, NothingOffloadedReadsTheDevicesShortfall) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::Target tiny;
  tiny.name = "tiny";
  tiny.backend = "cuda";
  tiny.capacity_bytes = kGiB + kGiB / 4;
  tiny.host_ram_bytes = 64 * kGiB;
  tiny.bandwidth_gbps = tiny.host_bandwidth_gbps = 100;
  fit::ContextParams c;
  c.n_ctx = 4096;
  const fit::FitResult r = fit::plan_fit(shape, tiny, c, -2, 0);
  EXPECT_EQ(r.n_gpu_layers, 0);
  EXPECT_EQ(r.verdict, fit::Verdict::kNo);
  EXPECT_LT(r.margin_bytes, 0);
  EXPECT_NE(r.note.find("not even the output layer fits"), std::string::npos) << r.note;
}

// Several GPUs, no -c: llama.cpp's --fit cuts n_ctx_train on their summed usable memory less
// its allowance for whole layers, and every card then has room.
TEST(FitPlanner, DefaultContextOverTwoGpusIsCutToFitThemAll) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  const auto rs =
      fit::plan_fit_split_default_context(shape, from_catalog("RTX 3090"), fit::ContextParams{}, -2, 0, 2, {});
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_LT(rs[0].n_ctx, 131072);
  EXPECT_GE(rs[0].n_ctx, 4096);
  EXPECT_EQ(rs[0].n_ctx % 256, 0);
  for (const auto& r : rs) {
    EXPECT_EQ(r.verdict, fit::Verdict::kFits) << r.target.name;
    EXPECT_GE(r.margin_bytes, 0) << r.target.name;
    EXPECT_NE(r.note.find("as llama.cpp's --fit cuts it for 2 devices"), std::string::npos) << r.note;
  }
}

// fit --device 'RTX 3090' --count 2 -ts 3,1 -c 8192 gave both cards the whole plan's layer count
// ("partial: 58 layers on the device") while #1 held 22.60 GiB and #2 8.35 GiB. Each card now
// carries the layers llama.cpp's split puts on it (split_layer_devices over the shares 3:1).
TEST(FitPlanner, SplitOverTwoGpusGivesEachCardItsShareOfTheLayers) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams c;
  c.n_ctx = 8192;
  const auto rs = fit::plan_fit_split(shape, from_catalog("RTX 3090"), c, -2, 0, 2, {3, 1});
  ASSERT_EQ(rs.size(), 2u);
  ASSERT_EQ(rs[0].verdict, fit::Verdict::kPartial);
  const int ngl = rs[0].n_gpu_layers;
  EXPECT_EQ(ngl, 58);
  // 57 blocks and the output layer offloaded (blocks 23..79): llama.cpp gives layer il to the first
  // device whose cumulative share exceeds (il - 23) / 58, so #1 takes il 23..66 ((66 - 23) / 58 =
  // 0.741 < 0.75) and #2 the rest with the output layer.
  EXPECT_EQ(rs[0].split_layers, 44);
  EXPECT_EQ(rs[1].split_layers, 13);
  EXPECT_FALSE(rs[0].split_output);
  EXPECT_TRUE(rs[1].split_output);
  const std::vector<int> placed = fit::split_layer_devices(static_cast<int>(shape.n_layer), ngl, {3, 1});
  for (std::size_t d = 0; d < rs.size(); ++d) {
    const int held = static_cast<int>(std::count(placed.begin(), placed.end() - 1, static_cast<int>(d)));
    EXPECT_EQ(rs[d].split_layers, held) << rs[d].target.name;
  }
  EXPECT_EQ(fit::split_layers_text(rs[1]), "13 layers + output");
  EXPECT_EQ(fit::split_layers_text(fit::plan_fit(shape, from_catalog("RTX 3090"), c, -2, 0)), "");
  // The same max n_ctx for every card: the whole plan's (every card and the host have room).
  EXPECT_GE(rs[0].max_ctx, 8192);
  EXPECT_EQ(rs[0].max_ctx, rs[1].max_ctx);
}

// "usable" is one figure in every output: the memory llama.cpp's device reports less the 1 GiB
// --fit keeps free. --rank took the backend's overhead off too (H200 139.01 GiB against fit's
// 139.40); the overhead belongs to what the model needs, not to what the device offers.
TEST(FitRanking, UsableMemoryIsFitsUsable) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q4_K_M");
  fit::ContextParams c;
  c.n_ctx = 8192;
  const auto all = catalog();
  for (const char* name : {"H200 SXM", "RTX 3090", "M3 Ultra 512GB (Mac Studio)"}) {
    const auto d = hw::find_device(all, name);
    ASSERT_TRUE(d) << name;
    const fit::Target t = fit::catalog_target(*d, all, {});
    const fit::BuyOption one = fit::plan_option(shape, *d, t, c, -2, 0, 1);
    EXPECT_EQ(one.usable_memory_bytes, t.usable_bytes()) << name;
    EXPECT_EQ(one.usable_memory_bytes + kGiB, d->visible_bytes()) << name;
    const fit::BuyOption two = fit::plan_option(shape, *d, t, c, -2, 0, 2);
    EXPECT_EQ(two.usable_memory_bytes, 2 * t.usable_bytes()) << name;
  }
  const auto h200 = hw::find_device(all, "H200 SXM");
  ASSERT_TRUE(h200);
  EXPECT_EQ(fit::plan_option(shape, *h200, fit::catalog_target(*h200, all, {}), c, -2, 0, 1).usable_memory_bytes,
            h200->reported_memory_bytes - kGiB);
}

// A catalog GPU's partial offload is bounded with its own host's bandwidth: Llama-3.1-70B
// Q3_K_S on an RTX 2080 Ti host measured 1.3 t/s (reference.md section 1); the bound with the
// stated host (DDR4-3200, two channels) is above it. --host-bandwidth replaces it.
TEST(FitPlanner, CatalogGpuHostHasItsOwnBandwidth) {
  const auto shape = testing::preset_shape("Llama-3.1-70B", "Q3_K_S");
  fit::ContextParams c;
  c.n_ctx = 2048;
  const fit::Target stated = from_catalog("RTX 2080 Ti");
  EXPECT_DOUBLE_EQ(stated.host_bandwidth_gbps, 51.2);
  EXPECT_EQ(stated.host_ram_bytes, 64 * kGiB);
  EXPECT_NE(stated.host_name.find("DDR4-3200 dual channel"), std::string::npos) << stated.host_name;
  const fit::FitResult r = fit::plan_fit(shape, stated, c, -2, 0);
  ASSERT_EQ(r.verdict, fit::Verdict::kPartial);
  EXPECT_GE(r.tg_bound_tps, 1.3);
  fit::HostChoice slow;
  slow.bandwidth_gbps = 10.0;
  const fit::Target given = from_catalog("RTX 2080 Ti", slow);
  EXPECT_DOUBLE_EQ(given.host_bandwidth_gbps, 10.0);
  EXPECT_EQ(given.host_ram_bytes, 64 * kGiB);  // the RAM still from the stated host
  EXPECT_LT(fit::plan_fit(shape, given, c, -2, 0).tg_bound_tps, r.tg_bound_tps);
}

}  // namespace
}  // namespace rigbench

namespace rigbench {
namespace {

// An encoder (bge: BERT, not causal) generates no tokens: no tg bound on one device or split
// over several, where a decoder of the same plan has one.
TEST(FitPlanner, AnEncoderHasNoTgBoundADecoderHasOne) {
  const auto encoder = testing::preset_shape("bge-small-en-v1.5", "F16");
  const auto decoder = testing::preset_shape("SmolLM2-135M", "Q8_0");
  ASSERT_FALSE(encoder.causal);
  fit::ContextParams c;
  c.n_ctx = 512;
  const fit::FitResult e = fit::plan_fit(encoder, cpu_machine(64 * kGiB), c, -2, 0);
  const fit::FitResult d = fit::plan_fit(decoder, cpu_machine(64 * kGiB), c, -2, 0);
  EXPECT_EQ(e.verdict, fit::Verdict::kFits);
  EXPECT_FALSE(e.generates);
  EXPECT_EQ(e.tg_bound_tps, 0);
  EXPECT_TRUE(d.generates);
  EXPECT_GT(d.tg_bound_tps, 0);
  for (const auto& r : fit::plan_fit_split(encoder, from_catalog("RTX 3090"), c, -1, 0, 2, {})) {
    EXPECT_FALSE(r.generates);
    EXPECT_EQ(r.tg_bound_tps, 0);
  }
  // The case a user brought (../shared/cases/fit/bgem3.config.json: BGE-M3, XLM-RoBERTa): the
  // same kind, the same answer.
  const auto bgem3 = testing::preset_shape("", "F16", RIGBENCH_TEST_DATA "/synth_cases/bgem3.config.json");
  ASSERT_FALSE(bgem3.causal);
  const fit::FitResult m3 = fit::plan_fit(bgem3, cpu_machine(64 * kGiB), c, -2, 0);
  EXPECT_FALSE(m3.generates);
  EXPECT_EQ(m3.tg_bound_tps, 0);
}

}  // namespace
}  // namespace rigbench
