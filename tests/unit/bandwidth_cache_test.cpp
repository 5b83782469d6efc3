// The cached host bandwidth behind the tg bound: the best measurement stands, per machine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/targets.h"
#include "support/temp_dir.h"

namespace rigbench::cli {
namespace {

class BandwidthCache : public ::testing::Test {
 protected:
  void SetUp() override { setenv("XDG_CACHE_HOME", dir_.path().c_str(), 1); }
  void TearDown() override { unsetenv("XDG_CACHE_HOME"); }
  double cached_read_gbps() const {
    std::ifstream in(std::filesystem::path(dir_.path()) / "rigbench" / "bandwidth.json");
    return nlohmann::json::parse(in).value("read_gbps", 0.0);
  }
  testing::TempDir dir_;
};

hw::BandwidthResult probe(double read_gbps) {
  hw::BandwidthResult r;
  r.read_gbps = read_gbps;
  r.triad_gbps = 1.5 * read_gbps;
  r.method = "test";
  return r;
}

TEST_F(BandwidthCache, BestMeasurementStandsAndIsWhatTheBoundUses) {
  MachineInfo m;
  m.cpu = "Test CPU";
  m.cores = 2;
  EXPECT_DOUBLE_EQ(record_bandwidth(m, probe(20.0)), 20.0);
  EXPECT_DOUBLE_EQ(record_bandwidth(m, probe(8.5)), 20.0);  // a probe on a busy machine reads low
  EXPECT_DOUBLE_EQ(cached_read_gbps(), 20.0);
  EXPECT_DOUBLE_EQ(host_bandwidth_gbps(m), 20.0);  // cached: no new probe
  EXPECT_DOUBLE_EQ(record_bandwidth(m, probe(27.0)), 27.0);
  EXPECT_DOUBLE_EQ(host_bandwidth_gbps(m), 27.0);
}

TEST_F(BandwidthCache, AnotherMachineReplacesTheFigure) {
  MachineInfo a, b;
  a.cpu = b.cpu = "Test CPU";
  a.cores = 2;
  b.cores = 8;
  EXPECT_DOUBLE_EQ(record_bandwidth(a, probe(20.0)), 20.0);
  EXPECT_DOUBLE_EQ(record_bandwidth(b, probe(9.0)), 9.0);  // different key: not compared with a's
  EXPECT_DOUBLE_EQ(cached_read_gbps(), 9.0);
}

}  // namespace
}  // namespace rigbench::cli
