#include "hw/activity.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace rigbench::hw {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

std::optional<uint64_t> read_number(const fs::path& file) {
  const auto line = read_line(file);
  if (!line) return std::nullopt;
  try {
    return std::stoull(*line);
  } catch (...) {
    return std::nullopt;
  }
}

// The cpuN directories (N a number) under <sys>/devices/system/cpu.
std::vector<fs::path> cpu_dirs(const std::string& sys_root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(sys_root) / "devices/system/cpu", ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 3 && name.rfind("cpu", 0) == 0 &&
        std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<CpuTimes> read_cpu_times(const std::string& proc_root) {
  std::ifstream in(fs::path(proc_root) / "stat");
  std::string line;
  std::optional<CpuTimes> out;
  int cpus = 0;
  while (in && std::getline(in, line)) {
    std::istringstream fields(line);
    std::string label;
    fields >> label;
    if (label.size() > 3 && label.rfind("cpu", 0) == 0) ++cpus;
    if (label != "cpu") continue;
    uint64_t v[8] = {};  // user nice system idle iowait irq softirq steal
    int n = 0;
    while (n < 8 && fields >> v[n]) ++n;
    if (n < 4) return std::nullopt;
    CpuTimes t;
    t.busy = v[0] + v[1] + v[2] + v[5] + v[6];
    t.idle = v[3] + v[4];
    t.steal = v[7];
    out = t;
  }
  if (out) out->cpus = std::max(1, cpus);
  return out;
}

double read_load_average(const std::string& proc_root) {
  const auto line = read_line(fs::path(proc_root) / "loadavg");
  if (!line) return std::numeric_limits<double>::quiet_NaN();
  try {
    return std::stod(*line);
  } catch (...) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

double own_cpu_seconds() {
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  auto s = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

int allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

double clock_ticks_per_second() {
  const long t = sysconf(_SC_CLK_TCK);
  return t > 0 ? static_cast<double>(t) : 100.0;
}

CpuActivity cpu_activity(const CpuTimes& before, const CpuTimes& after, double own_cpu_s, double ticks_per_s) {
  CpuActivity a;
  if (after.total() <= before.total() || !(ticks_per_s > 0)) return a;
  const double total = static_cast<double>(after.total() - before.total());
  const double busy = after.busy > before.busy ? static_cast<double>(after.busy - before.busy) : 0;
  const double steal = after.steal > before.steal ? static_cast<double>(after.steal - before.steal) : 0;
  const double own = std::max(0.0, own_cpu_s) * ticks_per_s;
  a.others_pct = std::clamp(100 * (busy - own) / total, 0.0, 100.0);
  a.steal_pct = 100 * steal / total;
  a.own_pct = std::min(100.0, 100 * own / total);
  a.seconds = total / ticks_per_s;
  a.ticks_per_cpu = total / std::max(1, after.cpus);
  return a;
}

std::optional<std::map<int, ThreadSched>> read_thread_sched(const std::string& proc_root) {
  std::map<int, ThreadSched> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(proc_root) / "self/task", ec)) {
    int tid = 0;
    try {
      tid = std::stoi(e.path().filename().string());
    } catch (...) {
      continue;
    }
    std::ifstream in(e.path() / "schedstat");
    ThreadSched t;
    if (in >> t.run_ns >> t.wait_ns) out[tid] = t;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

double run_queue_wait_pct(const std::map<int, ThreadSched>& before, const std::map<int, ThreadSched>& after) {
  double run = 0, wait = 0;
  for (const auto& [tid, a] : after) {
    ThreadSched b;
    if (const auto it = before.find(tid); it != before.end()) b = it->second;
    if (a.run_ns >= b.run_ns) run += static_cast<double>(a.run_ns - b.run_ns);
    if (a.wait_ns >= b.wait_ns) wait += static_cast<double>(a.wait_ns - b.wait_ns);
  }
  if (!(run + wait > 0)) return std::numeric_limits<double>::quiet_NaN();
  return 100 * wait / (run + wait);
}

std::vector<std::string> cpu_governors(const std::string& sys_root) {
  std::set<std::string> seen;
  for (const auto& dir : cpu_dirs(sys_root)) {
    if (const auto g = read_line(dir / "cpufreq/scaling_governor"); g && !g->empty()) seen.insert(*g);
  }
  return {seen.begin(), seen.end()};
}

ThermalState read_thermal(const std::string& sys_root) {
  ThermalState t;
  for (const auto& dir : cpu_dirs(sys_root)) {
    for (const char* f : {"thermal_throttle/core_throttle_count", "thermal_throttle/package_throttle_count"}) {
      if (const auto v = read_number(dir / f)) t.throttle_count += *v;
    }
  }
  std::error_code ec;
  std::vector<fs::path> devices;
  for (const auto& e : fs::directory_iterator(fs::path(sys_root) / "class/thermal", ec)) {
    if (e.path().filename().string().rfind("cooling_device", 0) == 0) devices.push_back(e.path());
  }
  std::sort(devices.begin(), devices.end());
  for (const auto& d : devices) {
    const auto type = read_line(d / "type");
    if (!type || (*type != "Processor" && *type != "intel_powerclamp")) continue;
    if (const auto state = read_number(d / "cur_state"); state && *state > 0)
      t.cooling_active.push_back(d.filename().string());
  }
  return t;
}

}  // namespace rigbench::hw
