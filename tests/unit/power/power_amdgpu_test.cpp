// AMD GPUs through amdgpu hwmon files, on a fake sysfs tree (no AMD GPU here). The energy
// counter is checked against power × time; each test holds the joules a correct meter gives.
#include <gtest/gtest.h>

#include "fakes/drive.h"
#include "fakes/sysfs_tree.h"
#include "power/amdgpu.h"

namespace rigbench::power {
namespace {

using testing::drive;
using testing::energy;
using testing::FakeSysfs;
using testing::window;

// One amdgpu card (beside a CPU temperature sensor) whose power file reads `power_uw` and
// whose energy1_input reads energy_uj[i] at read i, reads 1 s apart; its energy over them all.
DomainEnergy one_card(uint64_t power_uw, const std::vector<uint64_t>& energy_uj) {
  FakeSysfs sys;
  sys.add_hwmon("hwmon0", "k10temp");  // not a GPU: ignored
  sys.add_hwmon("hwmon3", "amdgpu");
  sys.set("hwmon3", "power1_input", power_uw);
  sys.set("hwmon3", "energy1_input", energy_uj[0]);
  auto meter = open_amdgpu(sys.class_dir());
  EXPECT_TRUE(meter);
  if (!meter) return {};
  EXPECT_EQ((*meter)->domains().size(), 1u);
  EXPECT_EQ((*meter)->domains()[0].name, "amdgpu:hwmon3");
  std::vector<double> times;
  for (std::size_t i = 0; i < energy_uj.size(); ++i) times.push_back(static_cast<double>(i));
  const auto ticks = drive(**meter, times, [&](std::size_t i) { sys.set("hwmon3", "energy1_input", energy_uj[i]); });
  return energy(summarize((*meter)->domains(), ticks, {window("tg", 0, times.back())}), "tg", 0);
}

TEST(HwmonFakeSysfs, PlausibleEnergyCounterIsUsed) {
  // 110 J per second by the counter, 100 W by the power file: within the factor of 2.
  const DomainEnergy e = one_card(100000000, {7000000, 117000000, 227000000, 337000000});
  EXPECT_EQ(e.method, Method::kCounter);
  EXPECT_NEAR(e.energy_j, 330.0, 1e-9);  // 337,000,000 - 7,000,000 µJ
}

TEST(HwmonFakeSysfs, MisScaledEnergyCounterFallsBackToPowerTimesTime) {
  // The counter moves 0.1 J per second (a thousand times too little) while power reads 100 W.
  const DomainEnergy e = one_card(100000000, {0, 100000, 200000, 300000});
  EXPECT_EQ(e.method, Method::kIntegrated);
  EXPECT_NEAR(e.energy_j, 300.0, 1e-9);  // 100 W × 3 s
  EXPECT_NE(e.note.find("implausible"), std::string::npos) << e.note;
}

TEST(HwmonFakeSysfs, BackwardsEnergyCounterFallsBackToPowerTimesTime) {
  const DomainEnergy e = one_card(50000000, {900000000, 950000000, 10000000});
  EXPECT_EQ(e.method, Method::kIntegrated);
  EXPECT_NEAR(e.energy_j, 100.0, 1e-9);  // 50 W × 2 s
  EXPECT_NE(e.note.find("backwards"), std::string::npos) << e.note;
}

TEST(HwmonFakeSysfs, PowerOnlyIsIntegratedByTrapezoid) {
  FakeSysfs sys;
  sys.add_hwmon("hwmon2", "amdgpu");
  sys.set("hwmon2", "power1_average", 60000000);
  auto meter = open_amdgpu(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  const std::vector<uint64_t> uw = {60000000, 120000000, 90000000};
  const auto ticks = drive(**meter, {0, 0.5, 1.5}, [&](std::size_t i) { sys.set("hwmon2", "power1_average", uw[i]); });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 1.5)});
  // (60 + 120)/2 W × 0.5 s + (120 + 90)/2 W × 1 s = 45 J + 105 J = 150 J.
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kIntegrated);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 150.0, 1e-9);
}

TEST(HwmonFakeSysfs, NoAmdgpuDeviceIsUnavailable) {
  FakeSysfs sys;
  sys.add_hwmon("hwmon0", "coretemp");
  auto meter = open_amdgpu(sys.class_dir());
  ASSERT_FALSE(meter);
  EXPECT_NE(meter.error().reason.find("no amdgpu hwmon device"), std::string::npos) << meter.error().reason;
}

}  // namespace
}  // namespace rigbench::power
