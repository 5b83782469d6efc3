#include "power/rapl.h"

#include <cerrno>
#include <optional>
#include <set>

#include "power/sysfs.h"

namespace rigbench::power {

namespace {

// One powercap zone directory: intel-rapl:N, intel-rapl:N:M or intel-rapl-mmio:N.
struct Zone {
  std::string dir_name;   // "intel-rapl:0:2"
  std::string path;       // <root>/<dir_name>
  std::string zone_name;  // contents of <path>/name: "package-0", "dram", "psys", "core", "uncore"
  bool mmio = false;      // intel-rapl-mmio (a second interface to the same package counter)
  int index = 0;          // N: the top-level zone (the package for package and its subzones)
  bool subzone = false;   // true for intel-rapl:N:M
};

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::optional<Zone> parse_zone(const std::string& root, const std::string& dir_name) {
  Zone z;
  std::string rest;
  if (dir_name.rfind("intel-rapl-mmio:", 0) == 0) {
    z.mmio = true;
    rest = dir_name.substr(16);
  } else if (dir_name.rfind("intel-rapl:", 0) == 0) {
    rest = dir_name.substr(11);
  } else {
    return std::nullopt;
  }
  const auto colon = rest.find(':');
  const std::string first = rest.substr(0, colon);
  if (!all_digits(first)) return std::nullopt;
  if (colon != std::string::npos && !all_digits(rest.substr(colon + 1))) return std::nullopt;
  z.dir_name = dir_name;
  z.path = root + "/" + dir_name;
  z.index = std::stoi(first);
  z.subzone = colon != std::string::npos;
  return z;
}

enum class Kind { kPackage, kDram, kSkipped };

// A zone that is counted: its counter state.
struct Counter {
  Kind kind = Kind::kPackage;
  std::string energy_path;
  uint64_t range_uj = 0;  // max_energy_range_uj; 0 = unreadable
  uint64_t prev_raw = 0;  // last energy_uj read
  uint64_t total_uj = 0;  // microjoules since open, wraps undone
};

class RaplMeter final : public Meter {
 public:
  RaplMeter(std::vector<Counter> counters, std::vector<DomainInfo> domains, std::vector<std::string> notes)
      : counters_(std::move(counters)), domains_(std::move(domains)), notes_(std::move(notes)) {}

  std::string_view kind() const override { return "rapl"; }
  const std::vector<DomainInfo>& domains() const override { return domains_; }
  double sample_period_s() const override { return 1.0; }
  std::vector<std::string> notes() const override { return notes_; }

  std::vector<DomainReading> read(const TimePoint&) override {
    std::vector<DomainReading> out(counters_.size());
    for (std::size_t i = 0; i < counters_.size(); ++i) {
      Counter& c = counters_[i];
      DomainReading& r = out[i];
      auto raw = read_u64_attribute(c.energy_path);
      if (!raw) {
        r.error = c.energy_path + ": " + errno_text(raw.error());
        continue;
      }
      if (*raw >= c.prev_raw) {
        c.total_uj += *raw - c.prev_raw;
      } else if (c.range_uj > 0 && c.prev_raw <= c.range_uj) {
        // One wrap: up to the range, then from zero (Linux: energy_uj wraps at max_energy_range_uj).
        c.total_uj += (c.range_uj - c.prev_raw) + *raw;
      } else {
        r.counter_gap = true;
        r.error = c.energy_path + ": counter went back and max_energy_range_uj is unknown";
      }
      c.prev_raw = *raw;
      r.counter_j = static_cast<double>(c.total_uj) * 1e-6;
    }
    return out;
  }

 private:
  std::vector<Counter> counters_;
  std::vector<DomainInfo> domains_;
  std::vector<std::string> notes_;
};

// True when `b` reads the same counter as `a`: b's value equals a's read just before or just
// after it (the counter may tick once between reads; distinct counters never agree to the µJ).
bool mirrors(const std::string& a_path, const std::string& b_path) {
  auto a1 = read_u64_attribute(a_path);
  auto b = read_u64_attribute(b_path);
  auto a2 = read_u64_attribute(a_path);
  return a1 && b && a2 && (*b == *a1 || *b == *a2);
}

}  // namespace

std::string rapl_permission_fix() {
  return "run as root, or allow reading until reboot: sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj "
         "/sys/class/powercap/intel-rapl:*:*/energy_uj; to keep it, a udev rule such as "
         "ACTION==\"add\", SUBSYSTEM==\"powercap\", RUN+=\"/bin/chmod o+r /sys%p/energy_uj\"";
}

MeterOpen open_rapl(const std::string& root) {
  auto entries = list_directory(root);
  if (!entries) {
    const bool missing = entries.error() == ENOENT;
    return std::unexpected(Unavailable{
        "no RAPL powercap interface (" + (missing ? "no " + root : root + ": " + errno_text(entries.error())) +
            "): a VM or a CPU without RAPL",
        missing ? "none inside most VMs; on bare-metal Linux load the driver: sudo modprobe intel_rapl_msr" : ""});
  }

  std::vector<Zone> zones;
  std::set<std::string> msr_names;  // zone names of the MSR interface, to skip their mmio twins
  for (const auto& e : *entries) {
    auto z = parse_zone(root, e);
    if (!z) continue;
    auto name = read_attribute(z->path + "/name");
    if (!name) continue;
    z->zone_name = *name;
    if (!z->mmio) msr_names.insert(z->zone_name);
    zones.push_back(*z);
  }
  if (zones.empty()) {
    return std::unexpected(Unavailable{"no RAPL zone under " + root + ": a VM or a CPU without RAPL",
                                       "none inside most VMs; on bare-metal Linux: sudo modprobe intel_rapl_msr"});
  }

  std::vector<std::string> notes;
  std::vector<Counter> counters;
  std::vector<DomainInfo> domains;
  std::set<std::string> domain_names;
  std::string denied_path;
  for (const auto& z : zones) {
    Kind kind = Kind::kSkipped;
    if (z.zone_name == "dram") kind = Kind::kDram;
    else if (!z.subzone && z.zone_name.rfind("package", 0) == 0) kind = Kind::kPackage;
    if (kind == Kind::kSkipped) {
      if (z.zone_name == "psys")
        notes.push_back(z.dir_name + " (psys) not counted: the platform zone contains the packages");
      else if (z.subzone)
        notes.push_back(z.dir_name + " (" + z.zone_name + ") not counted: inside package " + std::to_string(z.index));
      else notes.push_back(z.dir_name + " (" + z.zone_name + ") not counted: unknown zone");
      continue;
    }
    if (z.mmio && msr_names.count(z.zone_name)) {
      notes.push_back(z.dir_name + " (" + z.zone_name + ") not counted: the MMIO twin of the MSR zone of that name");
      continue;
    }
    Counter c;
    c.kind = kind;
    c.energy_path = z.path + "/energy_uj";
    auto raw = read_u64_attribute(c.energy_path);
    if (!raw) {
      if (raw.error() == EACCES || raw.error() == EPERM) denied_path = c.energy_path;
      notes.push_back(c.energy_path + ": " + errno_text(raw.error()) + "; " + z.zone_name + " not counted");
      continue;
    }
    c.prev_raw = *raw;
    bool mirrored = false;
    for (std::size_t i = 0; i < counters.size() && !mirrored; ++i) {
      if (counters[i].kind == kind && mirrors(counters[i].energy_path, c.energy_path)) {
        notes.push_back(z.dir_name + " (" + z.zone_name + ") not counted: the same counter as " + domains[i].name +
                        " (one counter mirrored per die)");
        mirrored = true;
      }
    }
    if (mirrored) continue;

    DomainInfo d;
    d.name = kind == Kind::kPackage ? "rapl:" + z.zone_name : "rapl:dram-" + std::to_string(z.index);
    if (domain_names.count(d.name)) d.name += "@" + z.dir_name;
    domain_names.insert(d.name);
    d.source = "RAPL energy_uj counter, " + z.path + " (" + z.zone_name + ")";
    auto range = read_u64_attribute(z.path + "/max_energy_range_uj");
    if (range && *range > 0) {
      c.range_uj = *range;
      d.source += ", wraps at " + std::to_string(*range) + " uJ";
    } else {
      const std::string why = range ? "reads 0" : errno_text(range.error());
      d.source += ", max_energy_range_uj unreadable (" + why + "): a wrap leaves its window unavailable";
      notes.push_back(z.path + "/max_energy_range_uj: " + why + "; a counter wrap cannot be undone");
    }
    counters.push_back(c);
    domains.push_back(std::move(d));
  }

  if (counters.empty()) {
    if (!denied_path.empty()) {
      return std::unexpected(Unavailable{denied_path +
                                             ": permission denied (RAPL energy is readable only by root since "
                                             "Linux 5.10, after CVE-2020-8694)",
                                         rapl_permission_fix()});
    }
    return std::unexpected(Unavailable{root + ": no package or dram zone with a readable energy_uj", ""});
  }
  return std::make_unique<RaplMeter>(std::move(counters), std::move(domains), std::move(notes));
}

}  // namespace rigbench::power
