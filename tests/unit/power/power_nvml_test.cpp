// NVML through the real dlopen path, against a fake libnvidia-ml (tests/fakes/fake_nvml.cpp,
// built by CMake) selected with RIGBENCH_NVML_LIBRARY: this machine has no NVIDIA GPU. Each
// test writes what the GPU reports at each read and holds the joules a correct meter gives.
#include <gtest/gtest.h>

#include "fakes/drive.h"
#include "fakes/fake_nvml_state.h"
#include "power/nvml_meter.h"

namespace rigbench::power {
namespace {

using testing::drive;
using testing::energy;
using testing::FakeNvml;
using testing::window;

TEST(NvmlFakeLibrary, IsSelectedThroughTheEnvironmentVariable) {
  FakeNvml nvml;
  EXPECT_EQ(nvml_library_path(), RIGBENCH_FAKE_NVML);
}

TEST(NvmlFakeLibrary, CounterPresentGivesTheCounterDelta) {
  FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.name", "Fake H100");
  nvml.set("gpu0.energy_mj", 1000000);
  nvml.set("gpu0.power_instant_mw", 140000);
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  ASSERT_EQ((*meter)->domains().size(), 1u);
  EXPECT_EQ((*meter)->domains()[0].name, "nvml:gpu0");
  EXPECT_NE((*meter)->domains()[0].source.find("Fake H100"), std::string::npos);
  const std::vector<unsigned long long> mj = {1000000, 1150000, 1300000};
  const auto ticks = drive(**meter, {0, 1, 2}, [&](std::size_t i) { nvml.set("gpu0.energy_mj", mj[i]); });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 2)});
  // (1,300,000 - 1,000,000) mJ = 300 J from the counter (instantaneous power would say 280 J).
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kCounter);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 300.0, 1e-9);
  EXPECT_NEAR(energy(r, "tg", 0).power_w, 150.0, 1e-9);
}

TEST(NvmlFakeLibrary, CounterNotSupportedIntegratesInstantaneousPowerNotPowerUsage) {
  FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.energy_mj", "unsupported");
  nvml.set("gpu0.power_instant_mw", 100000);
  nvml.set("gpu0.power_usage_mw", 500000);  // the ~1 s average: must not be integrated
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_LE((*meter)->sample_period_s(), 0.1);  // >= 10 Hz when power is integrated
  const std::vector<unsigned long long> mw = {100000, 200000, 100000};
  const auto ticks = drive(**meter, {0, 1, 2}, [&](std::size_t i) { nvml.set("gpu0.power_instant_mw", mw[i]); });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 2)});
  // Trapezoids: (100 + 200)/2 W × 1 s + (200 + 100)/2 W × 1 s = 150 J + 150 J = 300 J.
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kIntegrated);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 300.0, 1e-9);
}

TEST(NvmlFakeLibrary, FrozenCounterIsSetAsideForIntegratedPower) {
  FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.energy_mj", 5000000);  // never moves
  nvml.set("gpu0.power_instant_mw", 100000);
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  const std::vector<unsigned long long> mw = {100000, 200000, 100000};
  const auto ticks = drive(**meter, {0, 1, 2}, [&](std::size_t i) { nvml.set("gpu0.power_instant_mw", mw[i]); });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 2)});
  // The counter says 0 J while power reads 100-200 W: frozen. Integrated: 150 J + 150 J = 300 J.
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kIntegrated);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 300.0, 1e-9);
  EXPECT_NE(energy(r, "tg", 0).note.find("frozen"), std::string::npos) << energy(r, "tg", 0).note;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("nvml:gpu0: counter did not change"), std::string::npos) << r.notes[0];
}

TEST(NvmlFakeLibrary, ShortWindowsOnTheCounterAreMarkedCoarse) {
  FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.energy_mj", 0);
  nvml.set("gpu0.power_instant_mw", "unsupported");
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = drive(**meter, {0, 0.5, 1}, [&](std::size_t i) { nvml.set("gpu0.energy_mj", 50000 * i); });
  const auto r = summarize((*meter)->domains(), ticks, {window("pp", 0, 0.5)});
  EXPECT_NEAR(energy(r, "pp", 0).energy_j, 50.0, 1e-9);  // 50,000 mJ
  EXPECT_NE(energy(r, "pp", 0).note.find("coarse"), std::string::npos);
}

// The stepped-counter case: the counter moves in steps every 0.1 s (100 W: 10 J a step), the
// instantaneous power reads 100 W, and the reads come every 0.05 s. Phases of 4 ms read 0 or
// a whole step on the counter (61-179 W in practice); with power samples at hand the domain
// uses them for every phase and the idle baseline (100 W), and says why, flagged.
TEST(NvmlFakeLibrary, PhasesShorterThanTheCounterUpdateUseInstantaneousPowerFlagged) {
  FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.energy_mj", 5000000);
  nvml.set("gpu0.power_instant_mw", 100000);
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  std::vector<double> times;
  for (int i = 0; i <= 60; ++i) times.push_back(0.05 * i);
  const auto ticks = drive(**meter, times, [&](std::size_t i) {
    const double t = times[i];
    nvml.set("gpu0.energy_mj",
             5000000 + 10000ull * static_cast<unsigned long long>(t / 0.1 + 1e-9));  // 10 J per 0.1 s step
  });
  std::vector<PhaseWindow> windows = {window(kIdlePhase, 0, 1)};
  for (int k = 0; k < 5; ++k) windows.push_back(window("tg", 1.2 + 0.3 * k, 1.204 + 0.3 * k));  // 4 ms each
  const auto r = summarize((*meter)->domains(), ticks, windows);
  EXPECT_EQ(r.methods[0], Method::kIntegrated);
  EXPECT_NEAR(energy(r, "tg", 0).power_w, 100.0, 1e-6);
  ASSERT_EQ(r.idle.size(), 1u);
  EXPECT_NEAR(r.idle[0].power_w, 100.0, 1e-6);
  EXPECT_EQ(r.flags, std::vector<std::string>{kFlagBelowUpdatePeriod});
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("shorter than the counter's update period (0.100 s)"), std::string::npos) << r.notes[0];
  // Power over time follows the same source: 100 W throughout, not the counter's 0 / 200 W steps.
  const auto trace = power_trace((*meter)->domains(), ticks, r.methods);
  ASSERT_EQ(trace.size(), 60u);
  for (const auto& p : trace) EXPECT_NEAR(p.power_w, 100.0, 1e-6);
}

// Without power samples the counter is all there is: its figure stays, flagged unreliable.
TEST(NvmlFakeLibrary, PhasesShorterThanTheCounterUpdateWithoutPowerAreFlagged) {
  FakeNvml nvml;
  nvml.set("count", 1);
  nvml.set("gpu0.energy_mj", 0);
  nvml.set("gpu0.power_instant_mw", "unsupported");
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = drive(**meter, {0, 0.5, 1}, [&](std::size_t i) { nvml.set("gpu0.energy_mj", 50000 * i); });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0.5, 0.51)});
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kCounter);
  EXPECT_EQ(r.flags, (std::vector<std::string>{kFlagBelowUpdatePeriod, kFlagCoarse}));
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("unreliable"), std::string::npos) << r.notes[0];
}

TEST(NvmlFakeLibrary, TwoGpusOneWithoutEitherSourceIsLeftOutWithTheReason) {
  FakeNvml nvml;
  nvml.set("count", 2);
  nvml.set("gpu0.energy_mj", 0);
  nvml.set("gpu1.name", "Old GPU");
  nvml.set("gpu1.power_usage_mw", 90000);  // only the averaged reading
  auto meter = open_nvml();
  ASSERT_TRUE(meter) << meter.error().reason;
  ASSERT_EQ((*meter)->domains().size(), 1u);
  ASSERT_EQ((*meter)->notes().size(), 1u);
  EXPECT_NE((*meter)->notes()[0].find("GPU 1 (Old GPU)"), std::string::npos);
  EXPECT_NE((*meter)->notes()[0].find("not integrated"), std::string::npos);
}

TEST(NvmlFakeLibrary, InitFailureSaysWhyAndHowToFix) {
  FakeNvml nvml;
  nvml.set("init", "version_mismatch");
  auto meter = open_nvml();
  ASSERT_FALSE(meter);
  EXPECT_NE(meter.error().reason.find("version mismatch"), std::string::npos) << meter.error().reason;
  EXPECT_NE(meter.error().fix.find("reboot"), std::string::npos);
}

TEST(NvmlFakeLibrary, NoGpuIsUnavailable) {
  FakeNvml nvml;
  nvml.set("count", 0);
  auto meter = open_nvml();
  ASSERT_FALSE(meter);
  EXPECT_NE(meter.error().reason.find("no NVIDIA GPU"), std::string::npos);
}

TEST(NvmlMissingLibrary, NoDriverIsUnavailableWithTheFix) {
  auto meter = open_nvml("/nonexistent/libnvidia-ml.so.1");
  ASSERT_FALSE(meter);
  EXPECT_NE(meter.error().reason.find("no NVIDIA driver"), std::string::npos) << meter.error().reason;
  EXPECT_NE(meter.error().fix.find("RIGBENCH_NVML_LIBRARY"), std::string::npos);
}

// `rigbench hw` lists NVIDIA GPUs through NVML even in a CPU-only build.
TEST(NvmlFakeLibrary, ListsGpusWithTheirMemory) {
  testing::FakeNvml nvml;
  nvml.set("count", 2);
  nvml.set("gpu0.name", "NVIDIA GeForce RTX 3090");
  nvml.set("gpu0.memory_total_bytes", 25769803776ull);  // 24 GiB
  nvml.set("gpu0.memory_used_bytes", 1073741824ull);    // 1 GiB
  nvml.set("gpu1.name", "NVIDIA GeForce RTX 4090");
  nvml.set("gpu1.memory_total_bytes", "unsupported");
  const auto gpus = list_nvml_gpus();
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].name, "nvml:gpu0");
  EXPECT_EQ(gpus[0].description, "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(gpus[0].memory_total_bytes, 25769803776ull);
  EXPECT_EQ(gpus[0].memory_free_bytes, 25769803776ull - 1073741824ull);
  EXPECT_EQ(gpus[1].memory_total_bytes, 0u);  // memory info not supported: listed without it
}

TEST(NvmlMissingLibrary, ListsNoGpus) { EXPECT_TRUE(list_nvml_gpus("/nonexistent/libnvidia-ml.so.1").empty()); }

}  // namespace
}  // namespace rigbench::power
