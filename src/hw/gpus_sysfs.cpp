#include "hw/gpus_sysfs.h"

#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/strings.h"
#include "power/sysfs.h"

namespace rigbench::hw {

namespace fs = std::filesystem;

namespace {

// One-line sysfs attribute, "" when unreadable.
std::string first_line(const fs::path& p) { return power::read_attribute(p.string()).value_or(""); }

// Decimal sysfs number, 0 when unreadable or not a number.
uint64_t number(const fs::path& p) { return power::read_u64_attribute(p.string()).value_or(0); }

}  // namespace

std::vector<DeviceInfo> amd_gpus(std::string drm_root) {
  if (drm_root.empty()) {
    const char* env = std::getenv("RIGBENCH_DRM_ROOT");
    drm_root = env && *env ? env : "/sys/class/drm";
  }
  std::vector<DeviceInfo> out;
  std::set<std::string> cards;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(drm_root, ec)) {
    const std::string name = entry.path().filename().string();
    // card0, card1 (not card0-DP-1 connectors or renderD nodes)
    if (name.rfind("card", 0) == 0 && name.find('-') == std::string::npos) cards.insert(name);
  }
  for (const auto& card : cards) {
    const fs::path dev = fs::path(drm_root) / card / "device";
    if (to_lower(first_line(dev / "vendor")) != "0x1002") continue;
    const uint64_t total = number(dev / "mem_info_vram_total");
    if (total == 0) continue;
    const uint64_t used = number(dev / "mem_info_vram_used");
    DeviceInfo d;
    d.name = "amdgpu:" + card;
    d.description = first_line(dev / "product_name");
    if (d.description.empty()) d.description = "AMD GPU " + first_line(dev / "device");
    d.type = "gpu";
    d.memory_total_bytes = total;
    d.memory_free_bytes = used <= total ? total - used : 0;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace rigbench::hw
