#include "hw/bandwidth.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "hw/activity.h"
#include "hw/machine.h"

namespace rigbench::hw {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// Runs fn(begin, end) over [0, n) split across threads; returns elapsed seconds.
template <typename Fn>
double timed_parallel(int threads, std::size_t n, Fn fn) {
  std::vector<std::thread> pool;
  const auto t0 = Clock::now();
  for (int t = 0; t < threads; ++t) {
    const std::size_t b = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
    const std::size_t e = n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
    pool.emplace_back([=] { fn(b, e); });
  }
  for (auto& th : pool) th.join();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

fs::path cache_file() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "rigbench" / "bandwidth.json";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "rigbench" / "bandwidth.json";
  return {};
}

std::string bandwidth_key(const MachineInfo& machine) {
  return machine.cpu + " / " + std::to_string(machine.cores) + " threads";
}

// The cache file for this machine's key; an empty object when there is none (or another machine's).
nlohmann::json cached_json(const fs::path& file, const std::string& key) {
  if (file.empty()) return nlohmann::json::object();
  std::ifstream in(file);
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.value("key", "") == key) return j;
  return nlohmann::json::object();
}

// The cached read bandwidth for this machine, GB/s; 0 when none is cached for its key.
double cached_bandwidth(const fs::path& file, const std::string& key) {
  return cached_json(file, key).value("read_gbps", 0.0);
}

std::string iso8601(int64_t t) {
  const std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

BandwidthResult measure_bandwidth(int threads, std::size_t array_bytes) {
  BandwidthResult r;
  r.threads = threads > 0 ? threads : default_threads();
  r.array_bytes = array_bytes;
  r.repetitions = 5;
  const std::size_t n = array_bytes / sizeof(double);
  std::unique_ptr<double[]> a(new (std::nothrow) double[n]), b(new (std::nothrow) double[n]),
      c(new (std::nothrow) double[n]);
  if (!a || !b || !c) {
    r.method = "not measured: cannot allocate 3 arrays of " + std::to_string(array_bytes >> 20) + " MiB";
    return r;
  }
  // First touch from the threads that will use the pages.
  timed_parallel(r.threads, n, [&](std::size_t s, std::size_t e) {
    std::fill(a.get() + s, a.get() + e, 1.0);
    std::fill(b.get() + s, b.get() + e, 2.0);
    std::fill(c.get() + s, c.get() + e, 0.5);
  });
  // What else ran meanwhile: a probe beside a busy machine reads low (store_bandwidth keeps the better one).
  const auto cpu_before = read_cpu_times("/proc");
  const double own_before = own_cpu_seconds();
  std::vector<double> sums(static_cast<std::size_t>(r.threads));
  double best_read = 1e30, best_triad = 1e30;
  for (int rep = 0; rep < r.repetitions; ++rep) {
    best_read = std::min(best_read, timed_parallel(r.threads, n, [&](std::size_t s, std::size_t e) {
                           // An XOR of the bits: associative, so the compiler vectorizes it and the loads, not the
                           // arithmetic, set the pace.
                           const auto* words = reinterpret_cast<const uint64_t*>(a.get());
                           uint64_t acc = 0;
                           for (std::size_t i = s; i < e; ++i) acc ^= words[i];
                           sums[s * sums.size() / std::max<std::size_t>(n, 1)] = static_cast<double>(acc & 0xff);
                         }));
    best_triad = std::min(best_triad, timed_parallel(r.threads, n, [&](std::size_t s, std::size_t e) {
                            for (std::size_t i = s; i < e; ++i) a[i] = b[i] + 3.0 * c[i];
                          }));
  }
  volatile double sink = 0;
  for (double v : sums) sink = sink + v;
  if (const auto cpu_after = read_cpu_times("/proc"); cpu_before && cpu_after) {
    r.others_cpu_pct =
        cpu_activity(*cpu_before, *cpu_after, own_cpu_seconds() - own_before, clock_ticks_per_second()).others_pct;
    r.disturbed = r.others_cpu_pct > kProbeBusyPct;
  }
  r.read_gbps = static_cast<double>(array_bytes) / best_read / 1e9;
  r.triad_gbps = 3.0 * static_cast<double>(array_bytes) / best_triad / 1e9;
  r.method = "best of " + std::to_string(r.repetitions) + " passes over " + std::to_string(array_bytes >> 20) +
             " MiB arrays with " + std::to_string(r.threads) +
             " threads (steady clock); read = XOR over one array, "
             "triad = a = b + s*c counted as 3 arrays (STREAM convention, write-allocate traffic not counted)";
  return r;
}

double host_bandwidth_gbps(const MachineInfo& machine) {
  if (const double cached = cached_bandwidth(cache_file(), bandwidth_key(machine)); cached > 0) return cached;
  const BandwidthResult r = measure_bandwidth(machine.cores, 128u << 20);
  return store_bandwidth(machine, r).figure_gbps;
}

double cached_bandwidth_gbps(const MachineInfo& machine) {
  return cached_bandwidth(cache_file(), bandwidth_key(machine));
}

StoredBandwidth store_bandwidth(const MachineInfo& machine, const BandwidthResult& r, int64_t now) {
  StoredBandwidth out;
  const fs::path file = cache_file();
  const std::string key = bandwidth_key(machine);
  nlohmann::json old = cached_json(file, key);
  out.figure_gbps = old.value("read_gbps", 0.0);
  if (file.empty() || r.read_gbps <= 0) return out;
  if (now == 0) now = static_cast<int64_t>(std::time(nullptr));
  // The recent readings, oldest first; a file from before the readings counts its figure as one.
  nlohmann::json readings = nlohmann::json::array();
  if (old.contains("readings") && old["readings"].is_array()) {
    for (const auto& x : old["readings"]) {
      if (x.is_object() && x.value("time_s", int64_t{0}) >= now - static_cast<int64_t>(kBandwidthRecentDays * 86400))
        readings.push_back(x);
    }
  } else if (out.figure_gbps > 0) {
    readings.push_back({{"read_gbps", out.figure_gbps},
                        {"triad_gbps", old.value("triad_gbps", 0.0)},
                        {"time_s", now},
                        {"time", iso8601(now)},
                        {"disturbed", false}});
  }
  readings.push_back({{"read_gbps", r.read_gbps},
                      {"triad_gbps", r.triad_gbps},
                      {"time_s", now},
                      {"time", iso8601(now)},
                      {"others_cpu_pct", r.others_cpu_pct},
                      {"disturbed", r.disturbed}});
  while (readings.size() > 10) readings.erase(readings.begin());
  const nlohmann::json* best = &readings.back();
  for (const auto& x : readings) {
    if (x.value("read_gbps", 0.0) > best->value("read_gbps", 0.0)) best = &x;
  }
  if (best != &readings.back()) {
    out.kept_better = true;
    out.better_gbps = best->value("read_gbps", 0.0);
    out.better_time = best->value("time", "");
  }
  out.figure_gbps = best->value("read_gbps", 0.0);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // Written beside (a name of this process's own) and renamed, so a concurrent reader sees the
  // old figure or the new one, never a half-written file.
  const fs::path tmp = file.string() + "." + std::to_string(getpid()) + ".partial";
  {
    std::ofstream o(tmp);
    o << nlohmann::json{{"key", key},
                        {"read_gbps", out.figure_gbps},
                        {"triad_gbps", best->value("triad_gbps", 0.0)},
                        {"method", r.method},
                        {"readings", readings}}
             .dump(2);
    if (!o) {
      fs::remove(tmp, ec);
      return out;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
  return out;
}

}  // namespace rigbench::hw
