// RAPL through powercap sysfs, on fake sysfs trees (this VM has no RAPL). Each test writes
// the counters a real kernel would show and holds the joules a correct meter reports.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "fakes/drive.h"
#include "fakes/sysfs_tree.h"
#include "power/rapl.h"

namespace rigbench::power {
namespace {

using testing::drive;
using testing::energy;
using testing::FakeSysfs;
using testing::window;

constexpr uint64_t kRange = 262143328850;  // max_energy_range_uj of a common Intel package

std::vector<std::string> names(const Meter& m) {
  std::vector<std::string> n;
  for (const auto& d : m.domains()) n.push_back(d.name);
  return n;
}

// Runs `body` as an unprivileged user (nobody) when the tests run as root, so that a file with
// mode 000 really is unreadable; returns what the body returns.
std::string as_unprivileged(const std::filesystem::path& tree, const std::function<std::string()>& body) {
  if (geteuid() != 0) return body();
  for (const auto& e : std::filesystem::recursive_directory_iterator(tree)) {
    if (e.is_directory() && !e.is_symlink()) chmod(e.path().c_str(), 0755);
  }
  chmod(tree.c_str(), 0755);
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(2);
    const std::string out = body();
    (void)!write(fds[1], out.data(), out.size());
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

TEST(RaplFakeSysfs, WrapMidRunAddsTheRestOfTheRangeOnce) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 262142000000, kRange);
  auto meter = open_rapl(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  // Reads at 0, 1, 2, 3 s; the counter wraps between 1 s and 2 s.
  const std::vector<uint64_t> raw = {262142000000, 262143000000, 671150, 1671150};
  const auto ticks = drive(**meter, {0, 1, 2, 3}, [&](std::size_t i) { sys.set_energy_uj("intel-rapl:0", raw[i]); });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 3)});
  // 0→1 s: 262143000000 - 262142000000 = 1,000,000 µJ;
  // 1→2 s: (262143328850 - 262143000000) + 671150 = 328,850 + 671,150 = 1,000,000 µJ (the wrap);
  // 2→3 s: 1671150 - 671150 = 1,000,000 µJ. Total 3,000,000 µJ = 3 J.
  EXPECT_EQ(energy(r, "tg", 0).method, Method::kCounter);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 3.0, 1e-9);
  EXPECT_NEAR(energy(r, "tg", 0).power_w, 1.0, 1e-9);
}

TEST(RaplFakeSysfs, MaxEnergyRangeUnreadableStillCountsAndAWrapMakesItsWindowUnavailable) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 5000000, std::nullopt);  // no max_energy_range_uj
  auto meter = open_rapl(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_NE((*meter)->domains()[0].source.find("max_energy_range_uj unreadable"), std::string::npos);
  // 0-2 s: +1.5 J and +1 J; between 2 and 3 s the counter goes back (a wrap of unknown range);
  // 3-4 s: +0.5 J.
  const std::vector<uint64_t> raw = {5000000, 6500000, 7500000, 200000, 700000};
  const auto ticks = drive(**meter, {0, 1, 2, 3, 4}, [&](std::size_t i) { sys.set_energy_uj("intel-rapl:0", raw[i]); });
  const auto r =
      summarize((*meter)->domains(), ticks, {window("pp", 0, 2), window("wrapped", 1, 4), window("tg", 3, 4)});
  EXPECT_NEAR(energy(r, "pp", 0).energy_j, 2.5, 1e-9);  // (6500000 - 5000000) + (7500000 - 6500000) µJ
  EXPECT_EQ(energy(r, "pp", 0).method, Method::kCounter);
  EXPECT_TRUE(std::isnan(energy(r, "wrapped", 0).energy_j));
  EXPECT_EQ(energy(r, "wrapped", 0).method, Method::kUnavailable);
  EXPECT_NE(energy(r, "wrapped", 0).note.find("range is unknown"), std::string::npos);
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 0.5, 1e-9);  // 700000 - 200000 µJ, after the gap
}

TEST(RaplFakeSysfs, PermissionDeniedIsExplainedWithTheFix) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 1000000, kRange);
  chmod(sys.path("intel-rapl:0", "energy_uj").c_str(), 0);
  const std::string out = as_unprivileged(sys.root(), [&] {
    auto m = open_rapl(sys.class_dir());
    return m ? std::string("available") : m.error().reason + "\n" + m.error().fix;
  });
  EXPECT_NE(out.find("energy_uj: permission denied"), std::string::npos) << out;
  EXPECT_NE(out.find("CVE-2020-8694"), std::string::npos) << out;
  EXPECT_NE(out.find("run as root"), std::string::npos) << out;
  EXPECT_NE(out.find("chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj"), std::string::npos) << out;
  EXPECT_NE(out.find("udev"), std::string::npos) << out;
}

TEST(RaplFakeSysfs, PermissionDeniedOnDramOnlyStillCountsThePackage) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 1000000, kRange);
  sys.add_rapl_zone("intel-rapl:0:0", "dram", 1000000, kRange);
  chmod(sys.path("intel-rapl:0:0", "energy_uj").c_str(), 0);
  chmod(sys.path("intel-rapl:0", "energy_uj").c_str(), 0666);
  const std::string out = as_unprivileged(sys.root(), [&] {
    auto m = open_rapl(sys.class_dir());
    if (!m) return "unavailable: " + m.error().reason;
    const auto ticks =
        drive(**m, {0, 2}, [&](std::size_t i) { sys.set_energy_uj("intel-rapl:0", i ? 5000000 : 1000000); });
    const auto r = summarize((*m)->domains(), ticks, {window("tg", 0, 2)});
    return names(**m)[0] + " " + std::to_string(names(**m).size()) + " " + std::to_string(energy(r, "tg", 0).energy_j);
  });
  EXPECT_EQ(out, "rapl:package-0 1 4.000000");  // 5000000 - 1000000 µJ; dram left out
}

TEST(RaplFakeSysfs, PsysPackageCoreUncoreAndDramCountPackageAndDramOnly) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 1000000, kRange);
  sys.add_rapl_zone("intel-rapl:0:0", "core", 1000000, kRange);
  sys.add_rapl_zone("intel-rapl:0:1", "uncore", 1000000, kRange);
  sys.add_rapl_zone("intel-rapl:0:2", "dram", 1000000, kRange);
  sys.add_rapl_zone("intel-rapl:1", "psys", 1000000, kRange);
  auto meter = open_rapl(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_EQ(names(**meter), (std::vector<std::string>{"rapl:package-0", "rapl:dram-0"}));
  const auto ticks = drive(**meter, {0, 1}, [&](std::size_t i) {
    if (i == 0) return;
    sys.set_energy_uj("intel-rapl:0", 4000000);    // package +3 J
    sys.set_energy_uj("intel-rapl:0:0", 3000000);  // core +2 J (inside package)
    sys.set_energy_uj("intel-rapl:0:1", 1500000);  // uncore +0.5 J (inside package)
    sys.set_energy_uj("intel-rapl:0:2", 2000000);  // dram +1 J
    sys.set_energy_uj("intel-rapl:1", 11000000);   // psys +10 J (contains the package)
  });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 1)});
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 3.0, 1e-9);
  EXPECT_NEAR(energy(r, "tg", 1).energy_j, 1.0, 1e-9);  // 3 + 1 = 4 J in all, not 16.5
  std::string notes;
  for (const auto& n : (*meter)->notes()) notes += n + "\n";
  EXPECT_NE(notes.find("psys"), std::string::npos) << notes;
  EXPECT_NE(notes.find("(core) not counted: inside package 0"), std::string::npos) << notes;
}

TEST(RaplFakeSysfs, TwoDiesMirroringOneCounterAreCountedOnce) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 5000000, kRange);
  sys.add_rapl_zone("intel-rapl:1", "package-1", 5000000, kRange);  // the same counter, per die
  auto meter = open_rapl(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_EQ(names(**meter), (std::vector<std::string>{"rapl:package-0"}));
  const auto ticks = drive(**meter, {0, 1}, [&](std::size_t i) {
    sys.set_energy_uj("intel-rapl:0", i ? 7000000 : 5000000);
    sys.set_energy_uj("intel-rapl:1", i ? 7000000 : 5000000);
  });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 1)});
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 2.0, 1e-9);  // 7000000 - 5000000 µJ once, not 4 J
  ASSERT_FALSE((*meter)->notes().empty());
  EXPECT_NE((*meter)->notes()[0].find("the same counter as rapl:package-0"), std::string::npos);
}

TEST(RaplFakeSysfs, TwoRealPackagesAreBothCounted) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 5000000, kRange);
  sys.add_rapl_zone("intel-rapl:1", "package-1", 9000000, kRange);
  auto meter = open_rapl(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  const auto ticks = drive(**meter, {0, 1}, [&](std::size_t i) {
    sys.set_energy_uj("intel-rapl:0", i ? 7000000 : 5000000);
    sys.set_energy_uj("intel-rapl:1", i ? 12000000 : 9000000);
  });
  const auto r = summarize((*meter)->domains(), ticks, {window("tg", 0, 1)});
  EXPECT_NEAR(energy(r, "tg", 0).energy_j, 2.0, 1e-9);
  EXPECT_NEAR(energy(r, "tg", 1).energy_j, 3.0, 1e-9);
}

TEST(RaplFakeSysfs, MmioTwinOfAnMsrZoneIsNotCounted) {
  FakeSysfs sys;
  sys.add_rapl_zone("intel-rapl:0", "package-0", 5000000, kRange);
  sys.add_rapl_zone("intel-rapl-mmio:0", "package-0", 5000123, kRange);
  auto meter = open_rapl(sys.class_dir());
  ASSERT_TRUE(meter) << meter.error().reason;
  EXPECT_EQ(names(**meter), (std::vector<std::string>{"rapl:package-0"}));
}

TEST(RaplFakeSysfs, NoPowercapDirectorySaysWhy) {
  FakeSysfs sys;  // nothing under it: a VM
  auto meter = open_rapl(sys.class_dir());
  ASSERT_FALSE(meter);
  EXPECT_NE(meter.error().reason.find("no RAPL"), std::string::npos) << meter.error().reason;
  EXPECT_NE(meter.error().fix.find("VM"), std::string::npos) << meter.error().fix;
}

}  // namespace
}  // namespace rigbench::power
