// Test support: fake sysfs trees in a temp dir, laid out as the kernel lays them out, for the
// meters whose hardware this machine lacks (RAPL powercap zones, amdgpu hwmon devices).
// Class entries are symlinks to device directories, as under /sys/class.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "support/temp_dir.h"

namespace rigbench::testing {

class FakeSysfs {
 public:
  // The class directory to hand to the meter (e.g. as powercap_root or hwmon_root).
  std::string class_dir() const { return dir_.file("class"); }

  // A powercap zone: class/<zone> -> devices/<zone>, with name, energy_uj and, when given,
  // max_energy_range_uj.
  void add_rapl_zone(const std::string& zone, const std::string& name, uint64_t energy_uj,
                     std::optional<uint64_t> max_energy_range_uj);
  // Rewrites <zone>/energy_uj (what the counter reads next).
  void set_energy_uj(const std::string& zone, uint64_t energy_uj);

  // An hwmon device: class/<hwmon> -> devices/<hwmon>, with name and the files given.
  void add_hwmon(const std::string& hwmon, const std::string& name);
  // Writes an attribute of a zone or hwmon device (e.g. "power1_input", "energy1_input").
  void set(const std::string& entry, const std::string& attribute, uint64_t value);

  // The path of an attribute, for chmod and the like.
  std::string path(const std::string& entry, const std::string& attribute) const;

  const std::filesystem::path& root() const { return dir_.path(); }

 private:
  void add_entry(const std::string& entry);
  TempDir dir_;
};

}  // namespace rigbench::testing
