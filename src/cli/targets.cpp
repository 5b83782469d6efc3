#include "cli/targets.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "hw/bandwidth.h"
#include "hw/machine.h"

namespace rigbench::cli {

namespace fs = std::filesystem;

namespace {

fs::path cache_file() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "rigbench" / "bandwidth.json";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "rigbench" / "bandwidth.json";
  return {};
}

std::string backend_of(const std::string& device_name) {
  const std::string n = to_lower(device_name);
  for (const char* b : {"cuda", "metal", "vulkan", "rocm", "sycl"}) {
    if (n.rfind(b, 0) == 0) return b;
  }
  return "gpu";
}

std::string bandwidth_key(const MachineInfo& machine) {
  return machine.cpu + " / " + std::to_string(machine.cores) + " threads";
}

// The cached read bandwidth for this machine, GB/s; 0 when none is cached for its key.
double cached_bandwidth(const fs::path& file, const std::string& key) {
  if (file.empty()) return 0;
  std::ifstream in(file);
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.value("key", "") == key) return j.value("read_gbps", 0.0);
  return 0;
}

}  // namespace

double host_bandwidth_gbps(const MachineInfo& machine) {
  if (const double cached = cached_bandwidth(cache_file(), bandwidth_key(machine)); cached > 0) return cached;
  const hw::BandwidthResult r = hw::measure_bandwidth(machine.cores, 128u << 20);
  store_bandwidth(machine, r);
  return r.read_gbps;
}

void store_bandwidth(const MachineInfo& machine, const hw::BandwidthResult& r) {
  const fs::path file = cache_file();
  if (file.empty() || r.read_gbps <= 0) return;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // Written beside and renamed, so a concurrent reader sees the old figure or the new one.
  const fs::path tmp = file.string() + ".partial";
  {
    std::ofstream out(tmp);
    out << nlohmann::json{{"key", bandwidth_key(machine)}, {"read_gbps", r.read_gbps}, {"triad_gbps", r.triad_gbps},
                          {"method", r.method}}.dump(2);
    if (!out) return (void)fs::remove(tmp, ec);
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

fit::Target this_machine(const MachineInfo& machine, double host_bw) {
  fit::Target t;
  t.host_ram_bytes = hw::available_ram_bytes();
  t.host_bandwidth_gbps = host_bw;
  if (!machine.gpus.empty()) {
    const DeviceInfo& g = machine.gpus.front();
    t.name = "this machine: " + g.name + " (" + g.description + ")";
    t.backend = backend_of(g.name);
    t.unified = t.backend == "metal";
    t.capacity_bytes = g.memory_free_bytes;
    t.bandwidth_gbps = 0;  // unknown without a probe on the device; the bound then says 0
    return t;
  }
  t.name = "this machine: " + machine.cpu + " (RAM available)";
  t.backend = "cpu";
  t.capacity_bytes = t.host_ram_bytes;
  t.bandwidth_gbps = host_bw;
  return t;
}

fit::Target catalog_target(const hw::CatalogDevice& d, uint64_t host_ram_bytes, double host_bw) {
  fit::Target t;
  t.name = d.name;
  t.backend = d.backend;
  t.unified = d.kind == "apple";
  t.capacity_bytes = d.usable_bytes();
  t.host_ram_bytes = d.kind == "gpu" ? host_ram_bytes : 0;
  t.bandwidth_gbps = d.bandwidth_gbps;
  t.host_bandwidth_gbps = host_bw;
  return t;
}

}  // namespace rigbench::cli
