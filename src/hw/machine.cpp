#include "hw/machine.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include "core/strings.h"
#include "power/sysfs.h"

namespace rigbench::hw {

namespace fs = std::filesystem;

namespace {

// One-line sysfs attribute, "" when unreadable.
std::string read_first_line(const fs::path& p) { return power::read_attribute(p.string()).value_or(""); }

// Value of the first "key : value" line whose key is one of `keys`.
std::string cpuinfo_value(std::initializer_list<const char*> keys) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    for (const char* k : keys) {
      if (key == k) return trim(line.substr(colon + 1));
    }
  }
  return {};
}

std::string os_pretty_name() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      return v;
    }
  }
  return {};
}

int physical_cores() {
  std::set<std::pair<std::string, std::string>> cores;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || !std::isdigit(static_cast<unsigned char>(name[3]))) continue;
    const fs::path topo = entry.path() / "topology";
    const std::string core = read_first_line(topo / "core_id");
    if (core.empty()) continue;
    cores.emplace(read_first_line(topo / "physical_package_id"), core);
  }
  return static_cast<int>(cores.size());
}

}  // namespace

MachineInfo detect_machine() {
  MachineInfo m;
  struct utsname u {};
  if (uname(&u) == 0) {
    m.hostname = u.nodename;
    m.kernel = std::string(u.sysname) + " " + u.release;
  }
  m.cpu = cpuinfo_value({"model name", "Hardware", "Processor", "cpu model"});
  m.threads = static_cast<int>(std::thread::hardware_concurrency());
  m.cores = physical_cores();
  if (m.cores == 0) m.cores = m.threads;
  m.ram_bytes = meminfo_bytes("MemTotal");
  m.os = os_pretty_name();
  return m;
}

uint64_t meminfo_bytes(const std::string& field) {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t value = 0;
  while (in >> key >> value >> unit) {
    if (key == field + ":") return value * 1024;
  }
  return 0;
}

uint64_t available_ram_bytes() { return meminfo_bytes("MemAvailable"); }

int default_threads() {
  const int cores = physical_cores();
  if (cores > 0) return cores;
  const int threads = static_cast<int>(std::thread::hardware_concurrency());
  return threads > 0 ? threads : 1;
}

uint64_t peak_rss_bytes() {
  struct rusage ru {};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace rigbench::hw
