// AMD GPUs from a fake /sys/class/drm tree in a temp dir.
#include "hw/gpus_sysfs.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace rigbench::hw {
namespace {

void card(const testing::TempDir& root, const std::string& name, const std::string& vendor, const std::string& total,
          const std::string& used, const std::string& product) {
  const auto dev = root.path() / name / "device";
  std::filesystem::create_directories(dev);
  testing::write_file((dev / "vendor").string(), vendor + "\n");
  testing::write_file((dev / "device").string(), "0x73ff\n");
  if (!total.empty()) testing::write_file((dev / "mem_info_vram_total").string(), total + "\n");
  if (!used.empty()) testing::write_file((dev / "mem_info_vram_used").string(), used + "\n");
  if (!product.empty()) testing::write_file((dev / "product_name").string(), product + "\n");
}

TEST(AmdGpusFakeSysfs, ListsAmdCardsWithVramAndSkipsTheRest) {
  testing::TempDir root;
  card(root, "card0", "0x1002", "8573157376", "1073741824", "Radeon RX 6600 XT");  // 8 GiB VRAM, 1 GiB used
  card(root, "card1", "0x8086", "0", "", "");                                      // an Intel iGPU: not AMD
  card(root, "card2", "0x1002", "", "", "");                                       // no VRAM figure
  std::filesystem::create_directories(root.path() / "card0-DP-1");                 // a connector, not a card
  const auto gpus = amd_gpus(root.path().string());
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].name, "amdgpu:card0");
  EXPECT_EQ(gpus[0].description, "Radeon RX 6600 XT");
  EXPECT_EQ(gpus[0].memory_total_bytes, 8573157376u);
  EXPECT_EQ(gpus[0].memory_free_bytes, 8573157376u - 1073741824u);
}

TEST(AmdGpusFakeSysfs, MissingTreeGivesNoGpus) { EXPECT_TRUE(amd_gpus("/nonexistent/drm").empty()); }

}  // namespace
}  // namespace rigbench::hw
