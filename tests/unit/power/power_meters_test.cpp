// The list of meters for `rigbench hw`: every kind, available or not, with the reason and the
// fix; on fake sysfs trees and a missing NVML library (this VM's situation) plus stated power.
#include <gtest/gtest.h>

#include "fakes/sysfs_tree.h"
#include "power/meters.h"

namespace rigbench::power {
namespace {

const MeterStatus* find(const OpenedMeters& m, const std::string& kind) {
  for (const auto& s : m.status)
    if (s.kind == kind) return &s;
  return nullptr;
}

TEST(PowerMetersFakeSysfs, ThisVmListsEveryKindUnavailableWithReasons) {
  testing::FakeSysfs empty;
  MeterConfig c;
  c.powercap_root = empty.class_dir();
  c.hwmon_root = empty.class_dir();
  c.nvml_library = "/nonexistent/libnvidia-ml.so.1";
  const OpenedMeters m = open_meters(c);
  EXPECT_TRUE(m.meters.empty());
  std::vector<std::string> kinds;
  for (const auto& s : m.status) {
    kinds.push_back(s.kind);
    EXPECT_FALSE(s.available) << s.kind;
    EXPECT_FALSE(s.detail.empty()) << s.kind;
  }
  // Only meters that can exist on this OS: no Apple powermetrics on Linux.
  EXPECT_EQ(kinds, (std::vector<std::string>{"rapl", "nvml", "amdgpu", "external", "constant", "estimate"}));
  EXPECT_NE(find(m, "rapl")->detail.find("no RAPL"), std::string::npos);
  EXPECT_NE(find(m, "nvml")->detail.find("no NVIDIA driver"), std::string::npos);
  EXPECT_NE(find(m, "estimate")->detail.find("never used silently"), std::string::npos);
  EXPECT_NE(find(m, "constant")->fix.find("--watts"), std::string::npos);
}

TEST(PowerMetersFakeSysfs, RaplAndStatedWattsOpenWhenPresent) {
  testing::FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 1000, 262143328850);
  MeterConfig c;
  c.powercap_root = sys.class_dir();
  c.hwmon_root = sys.class_dir();
  c.nvml_library = "/nonexistent/libnvidia-ml.so.1";
  c.watts = 65;
  const OpenedMeters m = open_meters(c);
  ASSERT_EQ(m.meters.size(), 2u);
  EXPECT_EQ(m.meters[0]->kind(), "rapl");
  EXPECT_EQ(m.meters[1]->kind(), "constant");
  EXPECT_TRUE(find(m, "rapl")->available);
  EXPECT_EQ(find(m, "rapl")->domains, std::vector<std::string>{"rapl:package-0"});
  EXPECT_TRUE(find(m, "constant")->available);
}

// What bench prints when nothing can be read: one short line, not every reason.
TEST(PowerMetersFakeSysfs, NoMeterIsOneShortLinePointingToHw) {
  testing::FakeSysfs empty;
  MeterConfig c;
  c.powercap_root = empty.class_dir();
  c.hwmon_root = empty.class_dir();
  c.nvml_library = "/nonexistent/libnvidia-ml.so.1";
  const std::string line = no_meter_line(list_meters(c));
  EXPECT_EQ(line,
            "rigbench: energy: no meter available (rapl, nvml, amdgpu); speed is still measured; details: rigbench hw");
  EXPECT_LE(line.size(), kNoMeterLineMax);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  c.power_log = empty.root().string() + "/no-such-log.csv";  // asked for, and failed: named too
  EXPECT_EQ(no_meter_line(list_meters(c)),
            "rigbench: energy: no meter available (rapl, nvml, amdgpu, external); speed is still measured; details: "
            "rigbench hw");
}

}  // namespace
}  // namespace rigbench::power
