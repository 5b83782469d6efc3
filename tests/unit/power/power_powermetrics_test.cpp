// Apple powermetrics text, parsed: samples written in the documented format (Apple Silicon
// and Intel Mac lines), with the energy each holds.
#include <gtest/gtest.h>

#include "power/powermetrics.h"

namespace rigbench::power {
namespace {

constexpr const char* kAppleSilicon = R"(Machine model: Mac14,9
OS version: 23A344

*** Sampled system activity (Wed Nov 29 14:08:04 2026 +0100) (200.00ms elapsed) ***

**** Processor usage ****

E-Cluster HW active frequency: 1236 MHz
P-Cluster HW active frequency: 3228 MHz

CPU Power: 5000 mW
GPU Power: 12000 mW
ANE Power: 0 mW
Combined Power (CPU + GPU + ANE): 17000 mW

**** GPU usage ****

GPU HW active frequency: 1398 MHz
GPU Power: 12000 mW

*** Sampled system activity (Wed Nov 29 14:08:04 2026 +0100) (300.00ms elapsed) ***

CPU Power: 4000 mW
GPU Power: 16000 mW
ANE Power: 100 mW
Combined Power (CPU + GPU + ANE): 20100 mW
)";

TEST(PowermetricsText, AppleSiliconSamplesAndTheirEnergy) {
  auto samples = parse_powermetrics(kAppleSilicon, "sample.txt");
  ASSERT_TRUE(samples) << samples.error().message;
  ASSERT_EQ(samples->size(), 2u);
  EXPECT_EQ((*samples)[0].time_text, "Wed Nov 29 14:08:04 2026 +0100");
  EXPECT_DOUBLE_EQ((*samples)[0].elapsed_s, 0.2);
  EXPECT_DOUBLE_EQ((*samples)[0].cpu_w, 5.0);
  EXPECT_DOUBLE_EQ((*samples)[0].gpu_w, 12.0);
  EXPECT_DOUBLE_EQ((*samples)[1].ane_w, 0.1);
  EXPECT_DOUBLE_EQ((*samples)[1].combined_w, 20.1);
  const PowermetricsEnergy e = powermetrics_energy(*samples);
  EXPECT_NEAR(e.seconds, 0.5, 1e-12);
  EXPECT_NEAR(e.cpu_j, 5.0 * 0.2 + 4.0 * 0.3, 1e-12);         // 1.0 + 1.2 = 2.2 J
  EXPECT_NEAR(e.gpu_j, 12.0 * 0.2 + 16.0 * 0.3, 1e-12);       // 2.4 + 4.8 = 7.2 J
  EXPECT_NEAR(e.combined_j, 17.0 * 0.2 + 20.1 * 0.3, 1e-12);  // 3.4 + 6.03 = 9.43 J
}

TEST(PowermetricsText, IntelPackagePowerInWatts) {
  const char* text =
      "*** Sampled system activity (Thu Nov 30 09:00:00 2026 -0800) (1000.5ms elapsed) ***\n"
      "Intel energy model derived package power (CPUs+GT+SA): 1.53W\n";
  auto samples = parse_powermetrics(text, "intel.txt");
  ASSERT_TRUE(samples) << samples.error().message;
  ASSERT_EQ(samples->size(), 1u);
  EXPECT_DOUBLE_EQ((*samples)[0].combined_w, 1.53);
  EXPECT_TRUE(std::isnan((*samples)[0].cpu_w));
  EXPECT_NEAR(powermetrics_energy(*samples).combined_j, 1.53 * 1.0005, 1e-12);
}

TEST(PowermetricsText, NoSampleOrABadValueIsAnErrorNamingTheInput) {
  auto none = parse_powermetrics("CPU Power: 5 mW\n", "empty.txt");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("'empty.txt'"), std::string::npos);
  auto bad = parse_powermetrics("*** Sampled system activity (x) (10ms elapsed) ***\nCPU Power: lots mW\n", "bad.txt");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("bad.txt' line 2"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace rigbench::power
