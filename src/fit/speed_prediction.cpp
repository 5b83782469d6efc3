#include "fit/speed_prediction.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "core/significance.h"
#include "core/strings.h"

namespace rigbench::fit {

namespace {

struct LogStats {
  int n = 0;
  double mean = 0;
  double sd = 0;  // sample sd (n - 1); 0 when n < 2
};

LogStats log_stats(const std::vector<const SpeedPoint*>& pts) {
  LogStats s;
  s.n = static_cast<int>(pts.size());
  if (s.n == 0) return s;
  for (const SpeedPoint* p : pts) s.mean += std::log(efficiency(*p));
  s.mean /= s.n;
  if (s.n < 2) return s;
  double ss = 0;
  for (const SpeedPoint* p : pts) ss += std::pow(std::log(efficiency(*p)) - s.mean, 2);
  s.sd = std::sqrt(ss / (s.n - 1));
  return s;
}

// Each device's mean log efficiency, one value a device, in the order the devices first come
// (a prediction is for another device: a device's many rows are one draw).
std::vector<double> device_log_means(const std::vector<const SpeedPoint*>& pts) {
  std::vector<std::string> devices;
  std::vector<std::vector<const SpeedPoint*>> by_device;
  for (const SpeedPoint* p : pts) {
    const auto it = std::find(devices.begin(), devices.end(), p->device);
    if (it == devices.end()) {
      devices.push_back(p->device);
      by_device.push_back({p});
    } else {
      by_device[static_cast<std::size_t>(it - devices.begin())].push_back(p);
    }
  }
  std::vector<double> means;
  for (const auto& group : by_device) means.push_back(log_stats(group).mean);
  return means;
}

// The spread between devices: the statistics of their mean log efficiencies (device_log_means).
LogStats device_stats(const std::vector<double>& means) {
  LogStats s;
  s.n = static_cast<int>(means.size());
  for (double m : means) s.mean += m / s.n;
  if (s.n < 2) return s;
  double ss = 0;
  for (double m : means) ss += (m - s.mean) * (m - s.mean);
  s.sd = std::sqrt(ss / (s.n - 1));
  return s;
}

// The median of the devices' mean log efficiencies (of two, their mean); `means` not empty.
double median_device(std::vector<double> means) {
  std::sort(means.begin(), means.end());
  const std::size_t n = means.size();
  return n % 2 == 1 ? means[n / 2] : (means[n / 2 - 1] + means[n / 2]) / 2;
}

bool usable(const SpeedPoint& p, const SpeedQuery& q) {
  return p.phase == q.phase && efficiency(p) > 0 && (q.exclude_device.empty() || p.device != q.exclude_device);
}

bool recent(const SpeedPoint& p, const std::string& since) { return p.date.empty() || p.date >= since; }

// Keeps the points dated `since` or later (or undated) where there are any; else keeps them all
// and returns true (the basis is older results).
bool keep_recent(std::vector<const SpeedPoint*>& pts, const std::string& since) {
  std::vector<const SpeedPoint*> fresh;
  for (const SpeedPoint* p : pts) {
    if (recent(*p, since)) fresh.push_back(p);
  }
  if (fresh.empty()) return !pts.empty();
  pts = std::move(fresh);
  return false;
}

// Pooled sd of log efficiency over every class with two or more points, and its degrees of freedom.
std::pair<double, int> pooled_sd(const std::vector<SpeedPoint>& points, const SpeedQuery& q, const std::string& since) {
  std::vector<std::string> classes;
  for (const SpeedPoint& p : points) {
    if (usable(p, q) && recent(p, since) && std::find(classes.begin(), classes.end(), p.device_class) == classes.end())
      classes.push_back(p.device_class);
  }
  double ss = 0;
  int df = 0;
  for (const std::string& c : classes) {
    std::vector<const SpeedPoint*> in;
    for (const SpeedPoint& p : points) {
      if (usable(p, q) && recent(p, since) && p.device_class == c) in.push_back(&p);
    }
    const LogStats s = device_stats(device_log_means(in));
    if (s.n < 2) continue;
    ss += s.sd * s.sd * (s.n - 1);
    df += s.n - 1;
  }
  return {df > 0 ? std::sqrt(ss / df) : 0.0, df};
}

// "RTX 3090, llama 8B Q4_K - Medium (Q4_K_M) 115.42 t/s"; the type once where the model's name
// ends with it ("llama 7B Q8_0", never "llama 7B Q8_0 (Q8_0)").
std::string describe(const SpeedPoint& p) {
  const bool said = p.file_type.empty() || p.model.ends_with(" " + p.file_type);
  return p.device + ", " + p.model + (said ? "" : " (" + p.file_type + ")") + " " + format_fixed(p.tokens_per_s, 2) +
         " t/s";
}

}  // namespace

std::string recent_since(const std::vector<SpeedPoint>& points) {
  // The newest well-formed YYYY-MM-DD (the dataset's dates; any other text is as undated).
  auto parse = [](const std::string& d, int& y, int& m, int& day) {
    if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
    auto num = [&](std::size_t at, std::size_t n, int& out) {
      return std::from_chars(d.data() + at, d.data() + at + n, out).ptr == d.data() + at + n;
    };
    return num(0, 4, y) && num(5, 2, m) && num(8, 2, day) && m >= 1 && m <= 12 && day >= 1 && day <= 31;
  };
  std::string newest;
  int y = 0, m = 0, day = 0;
  for (const SpeedPoint& p : points) {
    int py = 0, pm = 0, pd = 0;
    if (parse(p.date, py, pm, pd) && p.date > newest) {
      newest = p.date;
      y = py, m = pm, day = pd;
    }
  }
  if (newest.empty()) return "";
  // kRecentMonths before it, the day kept where that month has it (at most the 28th).
  const int months = y * 12 + (m - 1) - kRecentMonths;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", months / 12, months % 12 + 1, std::min(day, 28));
  return buf;
}

double efficiency(const SpeedPoint& p) {
  if (!(p.tokens_per_s > 0) || !(p.work_per_token > 0) || !(p.peak_per_s > 0)) return 0;
  return p.tokens_per_s * p.work_per_token / p.peak_per_s;
}

std::string speed_class(const std::string& kind, const std::string& backend) {
  const std::string b = to_lower(backend);
  std::string be = "cpu";
  for (const char* name : {"cuda", "metal", "vulkan", "rocm", "sycl", "opencl"}) {
    if (b.find(name) != std::string::npos) {
      be = name;
      break;
    }
  }
  if (b.find("hip") != std::string::npos) be = "rocm";
  return to_lower(kind) + "/" + be;
}

SpeedPrediction predict_speed(const std::vector<SpeedPoint>& points, const SpeedQuery& q) {
  SpeedPrediction out;
  const std::string phase = q.phase == Phase::kPp ? "pp" : "tg";
  if (!(q.peak_per_s > 0) || !(q.work_per_token > 0)) {
    out.basis = "no basis (the device's " + std::string(q.phase == Phase::kPp ? "compute" : "bandwidth") +
                " is not in the catalog)";
    return out;
  }
  const std::string since = recent_since(points);
  // In this order: the device's own recent points, its class's recent ones, its own older ones,
  // its class's older ones (a class nobody published lately, such as the CUDA cards of this
  // dataset, keeps its older points, and says so).
  std::vector<const SpeedPoint*> own, cls;
  for (const SpeedPoint& p : points) {
    if (!usable(p, q)) continue;
    if (p.device == q.device && p.device_class == q.device_class) own.push_back(&p);
    if (p.device_class == q.device_class) cls.push_back(&p);
  }
  const bool own_old = keep_recent(own, since), cls_old = keep_recent(cls, since);
  const bool from_own = !own.empty() && (!own_old || cls_old);
  std::vector<const SpeedPoint*> basis = from_own ? own : cls;
  std::vector<const SpeedPoint*> same_type;  // of the device's own points, those of the query's type
  if (from_own && !q.file_type.empty()) {
    for (const SpeedPoint* p : basis) {
      if (p->file_type == q.file_type) same_type.push_back(p);
    }
  }
  if (!same_type.empty()) basis = same_type;
  if (basis.empty()) {
    out.basis = "no basis (no " + phase + " result of " + q.device_class + ")";
    return out;
  }
  const LogStats s = log_stats(basis);
  // The center: of the device's own points their geometric mean; of its class the median device
  // (one odd device, such as a build with a slow path, does not move it).
  const std::vector<double> class_means = device_log_means(cls);  // each device of the class one value
  const double center = from_own ? s.mean : median_device(class_means);
  // The interval's spread: from the device's own points, theirs (a second point: the class's);
  // else the spread between the class's devices (each device one value), or, with one device,
  // the pooled spread between devices of the classes that have two or more.
  const LogStats spread = from_own && s.n >= 2 ? s : device_stats(class_means);
  double sd = spread.sd;
  int df = spread.n - 1;
  if (spread.n < 2) std::tie(sd, df) = pooled_sd(points, q, since);
  const int n_draws = std::max(from_own ? s.n : spread.n, 1);  // what the center is the mean of
  const double roofline = q.peak_per_s / q.work_per_token;
  out.has_basis = true;
  out.from_own_device = from_own;
  out.n_points = s.n;
  out.efficiency = std::exp(center);
  out.mean_tps = roofline * out.efficiency;
  out.low_tps = out.high_tps = out.mean_tps;
  if (df > 0 && sd > 0) {
    const double half = student_t_quantile(0.95, df) * sd * std::sqrt(1.0 + 1.0 / n_draws);
    out.low_tps = roofline * std::exp(center - half);
    out.high_tps = roofline * std::exp(center + half);
  }
  // No device runs past its roofline (all the bytes or FLOPs of a token at the peak): an
  // interval that would reach above it is cut there, and so said.
  const bool capped = q.roofline_known && out.high_tps > roofline;
  if (capped) {
    out.mean_tps = std::min(out.mean_tps, roofline);
    out.low_tps = std::min(out.low_tps, roofline);
    out.high_tps = roofline;
  }
  const auto nearest = std::min_element(basis.begin(), basis.end(), [&](const SpeedPoint* a, const SpeedPoint* b) {
    const double da = std::abs(std::log(a->work_per_token / q.work_per_token));
    const double db = std::abs(std::log(b->work_per_token / q.work_per_token));
    if (da != db) return da < db;
    return a->own && !b->own;
  });
  out.nearest = **nearest;
  const std::size_t n_devices = class_means.size();
  out.basis = std::to_string(s.n) + (s.n == 1 ? " point" : " points") + " of " +
              (from_own ? q.device + " itself" : q.device_class) + (same_type.empty() ? "" : " at " + q.file_type) +
              (from_own ? ""
                        : " on " + std::to_string(n_devices) + (n_devices == 1 ? " device" : " devices") +
                              " (the median device's efficiency)") +
              ((from_own ? own_old : cls_old) ? ", all published before " + since + " (none since)" : "") +
              "; nearest: " + describe(out.nearest) + (capped ? "; capped at the roofline bound" : "");
  return out;
}

}  // namespace rigbench::fit
