// The cached host bandwidth behind the tg bound: measured on first use, replaced by what
// `rigbench hw --bandwidth` measures, per machine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "hw/bandwidth.h"
#include "support/temp_dir.h"

namespace rigbench::hw {
namespace {

class BandwidthCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* old = std::getenv("XDG_CACHE_HOME")) saved_ = old;
    setenv("XDG_CACHE_HOME", dir_.path().c_str(), 1);
  }
  void TearDown() override {
    if (saved_) setenv("XDG_CACHE_HOME", saved_->c_str(), 1);
    else unsetenv("XDG_CACHE_HOME");
  }
  nlohmann::json cached() const {
    std::ifstream in(std::filesystem::path(dir_.path()) / "rigbench" / "bandwidth.json");
    return nlohmann::json::parse(in);
  }
  testing::TempDir dir_;
  std::optional<std::string> saved_;
};

BandwidthResult probe(double read_gbps) {
  BandwidthResult r;
  r.read_gbps = read_gbps;
  r.triad_gbps = 1.5 * read_gbps;
  r.method = "test";
  return r;
}

TEST_F(BandwidthCache, HwMeasurementReplacesTheFigureTheBoundUses) {
  MachineInfo m;
  m.cpu = "Test CPU";
  m.cores = 2;
  store_bandwidth(m, probe(8.5));                 // a probe on a busy machine
  EXPECT_DOUBLE_EQ(host_bandwidth_gbps(m), 8.5);  // cached: no new probe
  store_bandwidth(m, probe(20.0));
  EXPECT_DOUBLE_EQ(host_bandwidth_gbps(m), 20.0);
  EXPECT_DOUBLE_EQ(cached()["triad_gbps"].get<double>(), 30.0);
  EXPECT_EQ(cached()["key"], "Test CPU / 2 threads");
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(dir_.path()) / "rigbench" / "bandwidth.json.partial"));
  store_bandwidth(m, probe(0.0));  // a failed probe keeps the figure
  EXPECT_DOUBLE_EQ(host_bandwidth_gbps(m), 20.0);
}

TEST_F(BandwidthCache, AnotherMachineHasItsOwnFigure) {
  MachineInfo a, b;
  a.cpu = b.cpu = "Test CPU";
  a.cores = 2;
  b.cores = 8;
  store_bandwidth(a, probe(20.0));
  store_bandwidth(b, probe(9.0));
  EXPECT_EQ(cached()["key"], "Test CPU / 8 threads");
  EXPECT_DOUBLE_EQ(host_bandwidth_gbps(b), 9.0);
}

}  // namespace
}  // namespace rigbench::hw
