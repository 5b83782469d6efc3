#include "power/power_log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/strings.h"
#include "power/sysfs.h"

namespace rigbench::power {

namespace {

constexpr std::size_t kMaxLogBytes = std::size_t{256} << 20;  // a day at 10 Hz is ~30 MB

std::optional<double> to_double(std::string_view s) {
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// "YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)" (a space may replace the T) -> ns since 1970 UTC.
std::optional<int64_t> parse_iso8601(std::string_view s) {
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  auto y = to_int(s.substr(0, 4)), mo = to_int(s.substr(5, 2)), d = to_int(s.substr(8, 2));
  auto h = to_int(s.substr(11, 2)), mi = to_int(s.substr(14, 2)), se = to_int(s.substr(17, 2));
  if (!y || !mo || !d || !h || !mi || !se || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 || *se > 60) {
    return std::nullopt;
  }
  std::size_t i = 19;
  double frac = 0;
  if (i < s.size() && s[i] == '.') {
    std::size_t j = i + 1;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    auto f = to_double(std::string("0") + std::string(s.substr(i, j - i)));
    if (!f || j == i + 1) return std::nullopt;
    frac = *f;
    i = j;
  }
  int64_t offset_s = 0;
  const std::string_view zone = s.substr(i);
  if (zone == "Z") {
    offset_s = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    auto zh = to_int(zone.substr(1, 2)), zm = to_int(zone.substr(4, 2));
    if (!zh || !zm) return std::nullopt;
    offset_s = (zone[0] == '-' ? -1 : 1) * (*zh * 3600 + *zm * 60);
  } else {
    return std::nullopt;
  }
  const int64_t secs = days_from_civil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *se - offset_s;
  return secs * 1'000'000'000 + static_cast<int64_t>(std::llround(frac * 1e9));
}

// A log already parsed, with the cumulative trapezoid integral at each sample.
struct Integrated {
  std::vector<PowerLogSample> samples;
  std::vector<double> cumulative_j;  // joules from the first sample to sample i
};

Integrated integrate(std::vector<PowerLogSample> samples) {
  Integrated in;
  in.cumulative_j.assign(samples.size(), 0.0);
  for (std::size_t i = 1; i < samples.size(); ++i) {
    const double dt = static_cast<double>(samples[i].unix_ns - samples[i - 1].unix_ns) * 1e-9;
    in.cumulative_j[i] = in.cumulative_j[i - 1] + 0.5 * (samples[i].power_w + samples[i - 1].power_w) * dt;
  }
  in.samples = std::move(samples);
  return in;
}

class PowerLogMeter final : public Meter {
 public:
  PowerLogMeter(std::string path, Integrated log, std::size_t size) : path_(std::move(path)), log_(std::move(log)), size_(size) {
    DomainInfo d;
    d.name = "external:wall";
    d.source = "external power log " + path_ + " (timestamp,watts), integrated";
    d.whole_system = true;
    const auto& s = log_.samples;
    d.update_interval_s = static_cast<double>(s.back().unix_ns - s.front().unix_ns) * 1e-9 / static_cast<double>(s.size() - 1);
    domains_.push_back(std::move(d));
  }

  std::string_view kind() const override { return "external"; }
  const std::vector<DomainInfo>& domains() const override { return domains_; }
  double sample_period_s() const override { return INFINITY; }
  bool reads_after_the_fact() const override { return true; }

  std::vector<DomainReading> read(const TimePoint& now) override {
    DomainReading r;
    if (now.unix_ns > log_.samples.back().unix_ns) reload();
    const auto& s = log_.samples;
    if (now.unix_ns < s.front().unix_ns || now.unix_ns > s.back().unix_ns) {
      r.error = path_ + ": the log does not cover this time";
      return {r};
    }
    // The sample at or after `now`, and linear power between it and the one before.
    const auto it = std::lower_bound(s.begin(), s.end(), now.unix_ns,
                                     [](const PowerLogSample& a, int64_t t) { return a.unix_ns < t; });
    const std::size_t j = static_cast<std::size_t>(it - s.begin());
    if (s[j].unix_ns == now.unix_ns || j == 0) {
      r.power_w = s[j].power_w;
      r.integrated_j = log_.cumulative_j[j];
      return {r};
    }
    const auto& a = s[j - 1];
    const auto& b = s[j];
    const double dt = static_cast<double>(now.unix_ns - a.unix_ns) * 1e-9;
    const double frac = static_cast<double>(now.unix_ns - a.unix_ns) / static_cast<double>(b.unix_ns - a.unix_ns);
    r.power_w = a.power_w + frac * (b.power_w - a.power_w);
    r.integrated_j = log_.cumulative_j[j - 1] + 0.5 * (a.power_w + r.power_w) * dt;
    return {r};
  }

 private:
  // Reads the file again when it has grown (a logger still writing); keeps the old log on error.
  void reload() {
    auto text = read_attribute(path_, kMaxLogBytes);
    if (!text || text->size() == size_) return;
    auto parsed = parse_power_log(*text, path_);
    if (!parsed) return;
    size_ = text->size();
    log_ = integrate(std::move(*parsed));
  }

  std::string path_;
  Integrated log_;
  std::size_t size_;
  std::vector<DomainInfo> domains_;
};

}  // namespace

Result<std::vector<PowerLogSample>> parse_power_log(std::string_view text, const std::string& input_name) {
  std::vector<PowerLogSample> samples;
  int line_no = 0;
  bool first_content = true;
  for (const auto& raw : split(text, '\n')) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const bool header_allowed = first_content;
    first_content = false;
    auto where = [&] { return "power log '" + input_name + "' line " + std::to_string(line_no) + ": "; };
    const auto fields = split(line, ',');
    if (fields.size() != 2) {
      if (header_allowed) continue;
      return fail(ErrorCode::kInvalidInput, where() + "expected 'timestamp,watts', got '" + line + "'");
    }
    const std::string ts = trim(fields[0]), watts_text = trim(fields[1]);
    auto watts = to_double(watts_text);
    std::optional<int64_t> unix_ns;
    if (auto secs = to_double(ts)) unix_ns = static_cast<int64_t>(std::llround(*secs * 1e9));
    else unix_ns = parse_iso8601(ts);
    if (!watts && header_allowed) continue;  // a header line such as "timestamp,watts"
    if (!watts || !unix_ns) {
      if (!unix_ns) {
        return fail(ErrorCode::kInvalidInput, where() + "timestamp '" + ts +
                                                  "' is neither Unix seconds nor ISO 8601 with a zone (Z or +hh:mm)");
      }
      return fail(ErrorCode::kInvalidInput, where() + "watts '" + watts_text + "' is not a number");
    }
    if (*watts < 0 || !std::isfinite(*watts)) {
      return fail(ErrorCode::kInvalidInput, where() + "watts " + watts_text + " is negative or not finite");
    }
    samples.push_back({*unix_ns, *watts});
  }
  std::stable_sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.unix_ns < b.unix_ns; });
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if (samples[i].unix_ns == samples[i - 1].unix_ns) {
      return fail(ErrorCode::kInvalidInput, "power log '" + input_name + "': two samples at the same time");
    }
  }
  if (samples.size() < 2) {
    return fail(ErrorCode::kInvalidInput, "power log '" + input_name + "': fewer than 2 samples");
  }
  return samples;
}

MeterOpen open_power_log(const std::string& path) {
  auto text = read_attribute(path, kMaxLogBytes);
  if (!text) return std::unexpected(Unavailable{"power log '" + path + "': " + errno_text(text.error()), ""});
  auto parsed = parse_power_log(*text, path);
  if (!parsed) return std::unexpected(Unavailable{parsed.error().message, "write lines 'timestamp,watts' (Unix seconds or ISO 8601 with a zone)"});
  return std::make_unique<PowerLogMeter>(path, integrate(std::move(*parsed)), text->size());
}

}  // namespace rigbench::power
