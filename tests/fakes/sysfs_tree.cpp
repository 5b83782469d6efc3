#include "fakes/sysfs_tree.h"

#include <filesystem>

namespace rigbench::testing {

void FakeSysfs::add_entry(const std::string& entry) {
  std::filesystem::create_directories(dir_.path() / "devices" / entry);
  std::filesystem::create_directories(dir_.path() / "class");
  std::filesystem::create_directory_symlink("../devices/" + entry, dir_.path() / "class" / entry);
}

std::string FakeSysfs::path(const std::string& entry, const std::string& attribute) const {
  return (dir_.path() / "devices" / entry / attribute).string();
}

void FakeSysfs::add_rapl_zone(const std::string& zone, const std::string& name, uint64_t energy_uj,
                              std::optional<uint64_t> max_energy_range_uj) {
  add_entry(zone);
  write_file(path(zone, "name"), name + "\n");
  set_energy_uj(zone, energy_uj);
  if (max_energy_range_uj) set(zone, "max_energy_range_uj", *max_energy_range_uj);
}

void FakeSysfs::set_energy_uj(const std::string& zone, uint64_t energy_uj) { set(zone, "energy_uj", energy_uj); }

void FakeSysfs::add_hwmon(const std::string& hwmon, const std::string& name) {
  add_entry(hwmon);
  write_file(path(hwmon, "name"), name + "\n");
}

void FakeSysfs::set(const std::string& entry, const std::string& attribute, uint64_t value) {
  write_file(path(entry, attribute), std::to_string(value) + "\n");
}

}  // namespace rigbench::testing
