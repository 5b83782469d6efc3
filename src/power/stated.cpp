#include "power/stated.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "power/sysfs.h"

namespace rigbench::power {

namespace {

std::string watts_text(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g W", w);
  return buf;
}

class ConstantMeter final : public Meter {
 public:
  explicit ConstantMeter(double watts) : watts_(watts) {
    DomainInfo d;
    d.name = "stated:watts";
    d.source = "constant " + watts_text(watts) + " stated with --watts (not measured)";
    d.integrated_method = Method::kEstimated;
    d.whole_system = true;
    domains_.push_back(std::move(d));
  }
  std::string_view kind() const override { return "constant"; }
  const std::vector<DomainInfo>& domains() const override { return domains_; }
  double sample_period_s() const override { return INFINITY; }
  bool reads_after_the_fact() const override { return true; }
  std::vector<DomainReading> read(const TimePoint& now) override {
    DomainReading r;
    r.power_w = watts_;
    // Energy since the first read, not since the clock's origin: days after boot the
    // clock's joules reach 1e8 and a few-ms window's difference keeps too few digits for a
    // stated idle and active to come back as one figure.
    if (!origin_ns_) origin_ns_ = now.steady_ns;
    r.integrated_j = watts_ * static_cast<double>(now.steady_ns - *origin_ns_) * 1e-9;
    return {r};
  }

 private:
  double watts_;
  std::optional<int64_t> origin_ns_;  // steady time of the first read
  std::vector<DomainInfo> domains_;
};

struct CpuTimes {
  uint64_t busy = 0;
  uint64_t total = 0;
};

// The aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal ...
std::optional<CpuTimes> read_cpu_times(const std::string& path) {
  auto text = read_attribute(path);
  if (!text || text->rfind("cpu ", 0) != 0) return std::nullopt;
  std::istringstream in(text->substr(4, text->find('\n') - 4));
  std::vector<uint64_t> v;
  uint64_t x = 0;
  while (in >> x) v.push_back(x);
  if (v.size() < 5) return std::nullopt;
  CpuTimes t;
  for (std::size_t i = 0; i < v.size() && i < 8; ++i) t.total += v[i];  // guest time is inside user
  t.busy = t.total - v[3] - v[4];
  return t;
}

class UtilizationMeter final : public Meter {
 public:
  UtilizationMeter(double tdp_w, std::string stat_path, CpuTimes first)
      : tdp_w_(tdp_w), stat_path_(std::move(stat_path)), prev_(first) {
    DomainInfo d;
    d.name = kUtilizationEstimateDomain;
    d.source = "estimated: TDP " + watts_text(tdp_w) + " x CPU utilization (" + stat_path_ +
               "), a model asked for with --estimate-power, not a measurement";
    d.integrated_method = Method::kEstimated;
    domains_.push_back(std::move(d));
  }
  std::string_view kind() const override { return "estimate"; }
  const std::vector<DomainInfo>& domains() const override { return domains_; }
  double sample_period_s() const override { return 0.1; }
  std::vector<DomainReading> read(const TimePoint& now) override {
    DomainReading r;
    auto t = read_cpu_times(stat_path_);
    if (!t) {
      r.error = stat_path_ + ": unreadable";
      return {r};
    }
    const double u = t->total > prev_.total
                         ? static_cast<double>(t->busy - prev_.busy) / static_cast<double>(t->total - prev_.total)
                         : 0.0;
    r.power_w = tdp_w_ * u;
    // The utilization is the interval's average, so the interval's energy is a rectangle.
    if (started_) joules_ += r.power_w * static_cast<double>(now.steady_ns - prev_ns_) * 1e-9;
    started_ = true;
    prev_ns_ = now.steady_ns;
    prev_ = *t;
    r.integrated_j = joules_;
    return {r};
  }

 private:
  double tdp_w_;
  std::string stat_path_;
  CpuTimes prev_;
  bool started_ = false;
  int64_t prev_ns_ = 0;
  double joules_ = 0;
  std::vector<DomainInfo> domains_;
};

}  // namespace

std::unique_ptr<Meter> make_constant_meter(double watts) { return std::make_unique<ConstantMeter>(watts); }

MeterOpen open_utilization_estimate(double tdp_w, const std::string& proc_root) {
  const std::string path = proc_root + "/stat";
  auto first = read_cpu_times(path);
  if (!first) return std::unexpected(Unavailable{path + ": unreadable or not a Linux /proc/stat", ""});
  return std::make_unique<UtilizationMeter>(tdp_w, path, *first);
}

}  // namespace rigbench::power
