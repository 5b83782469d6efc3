#include "power/power_log.h"

#include <date/date.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "core/csv.h"
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

// "YYYY-MM-DDTHH:MM:SS[.fff](Z|+hh:mm|-hh:mm)" (a space may replace the T) -> ns since 1970
// UTC, read by Howard Hinnant's date (the basis of C++20's chrono calendar; header-only).
// (GCC 12 sees date.h's seconds parser as maybe reading an uninitialized value; it does not.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
std::optional<int64_t> parse_iso8601(std::string_view s) {
  std::string text(s);
  if (text.size() > 10 && text[10] == ' ') text[10] = 'T';
  if (!text.empty() && text.back() == 'Z') text.replace(text.size() - 1, 1, "+00:00");
  std::istringstream in(text);
  date::sys_time<std::chrono::nanoseconds> t;
  in >> date::parse("%FT%T%Ez", t);
  if (!in || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
  return t.time_since_epoch().count();
}
#pragma GCC diagnostic pop

// A log already parsed, with the cumulative trapezoid integral at each sample. An interval
// between two samples longer than kGapIntervals sampling intervals is a gap: the logger was
// off, and its energy is unknown, so it adds nothing and reads inside it have no figure.
struct Integrated {
  std::vector<PowerLogSample> samples;
  std::vector<double> cumulative_j;  // joules from the first sample to sample i, gaps left out
  std::vector<bool> gap_before;      // true when the interval from sample i-1 to i is a gap
  double interval_s = 0;             // the sampling interval: median spacing of the samples
};

Integrated integrate(std::vector<PowerLogSample> samples) {
  Integrated in;
  std::vector<double> spacing;
  for (std::size_t i = 1; i < samples.size(); ++i)
    spacing.push_back(static_cast<double>(samples[i].unix_ns - samples[i - 1].unix_ns) * 1e-9);
  std::nth_element(spacing.begin(), spacing.begin() + static_cast<std::ptrdiff_t>(spacing.size() / 2), spacing.end());
  in.interval_s = spacing.empty() ? 0 : spacing[spacing.size() / 2];
  in.cumulative_j.assign(samples.size(), 0.0);
  in.gap_before.assign(samples.size(), false);
  for (std::size_t i = 1; i < samples.size(); ++i) {
    const double dt = static_cast<double>(samples[i].unix_ns - samples[i - 1].unix_ns) * 1e-9;
    in.gap_before[i] = dt > kGapIntervals * in.interval_s;
    in.cumulative_j[i] =
        in.cumulative_j[i - 1] + (in.gap_before[i] ? 0.0 : 0.5 * (samples[i].power_w + samples[i - 1].power_w) * dt);
  }
  in.samples = std::move(samples);
  return in;
}

class PowerLogMeter final : public Meter {
 public:
  PowerLogMeter(std::string path, Integrated log, std::size_t size)
      : path_(std::move(path)), log_(std::move(log)), size_(size) {
    DomainInfo d;
    d.name = "external:wall";
    d.source = "external power log " + path_ + " (timestamp,watts), integrated";
    d.whole_system = true;
    d.update_interval_s = log_.interval_s;
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
    const int64_t prev = prev_read_ns_;
    prev_read_ns_ = now.unix_ns;
    if (now.unix_ns < s.front().unix_ns || now.unix_ns > s.back().unix_ns) {
      r.error = path_ + ": the log does not cover this time";
      return {r};
    }
    // The sample at or after `now`, and linear power between it and the one before.
    const auto it = std::lower_bound(s.begin(), s.end(), now.unix_ns,
                                     [](const PowerLogSample& a, int64_t t) { return a.unix_ns < t; });
    const std::size_t j = static_cast<std::size_t>(it - s.begin());
    // A gap of the log overlapping the interval since the previous read: its energy is unknown.
    for (std::size_t k = j; k > 0 && prev != kNoRead && s[k].unix_ns > prev; --k) {
      if (log_.gap_before[k] && s[k - 1].unix_ns < now.unix_ns) r.integrated_gap = true;
    }
    if (j > 0 && log_.gap_before[j] && s[j].unix_ns != now.unix_ns) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "no reading for %.1f s around this time (the log is sampled every %.3g s)",
                    static_cast<double>(s[j].unix_ns - s[j - 1].unix_ns) * 1e-9, log_.interval_s);
      r.error = path_ + ": " + buf;
      r.integrated_gap = true;
      r.integrated_j = log_.cumulative_j[j - 1];
      return {r};
    }
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

  static constexpr int64_t kNoRead = INT64_MIN;
  std::string path_;
  Integrated log_;
  std::size_t size_;
  std::vector<DomainInfo> domains_;
  int64_t prev_read_ns_ = kNoRead;  // Unix ns of the previous read (reads come in time order)
};

// Unix seconds beyond this (about the year 5138) are another unit: a logger writing
// milliseconds (1795961284250), microseconds or nanoseconds since 1970.
constexpr double kMaxUnixSeconds = 1e11;

// Why a numeric timestamp is not Unix seconds, naming the unit it looks like.
std::string timestamp_unit_problem(const std::string& ts, double secs) {
  const double a = std::fabs(secs);
  const char* unit = a < 1e14 ? "milliseconds" : a < 1e17 ? "microseconds" : "nanoseconds";
  const char* divide = a < 1e14 ? "1000" : a < 1e17 ? "1000000" : "1000000000";
  return "timestamp '" + ts + "' is too large for Unix seconds: it looks like " + unit +
         " since 1970; the log needs seconds (divide by " + divide + "; fractions allowed) or ISO 8601";
}

}  // namespace

Result<std::vector<PowerLogSample>> parse_power_log(std::string_view text, const std::string& input_name) {
  std::vector<PowerLogSample> samples;
  auto records = parse_csv(text, {.comment = '#'});
  if (!records) return fail(ErrorCode::kInvalidInput, "power log '" + input_name + "' " + records.error().message);
  bool first_content = true;
  for (const CsvRecord& record : *records) {
    const auto& fields = record.fields;
    if (fields.size() == 1 && trim(fields[0]).empty()) continue;  // a line of blanks
    const bool header_allowed = first_content;
    first_content = false;
    auto where = [&] { return "power log '" + input_name + "' line " + std::to_string(record.line) + ": "; };
    if (fields.size() != 2) {
      if (header_allowed) continue;
      return fail(ErrorCode::kInvalidInput, where() + "expected 'timestamp,watts', got '" + join(fields, ",") + "'");
    }
    const std::string ts = trim(fields[0]), watts_text = trim(fields[1]);
    auto watts = to_double(watts_text);
    std::optional<int64_t> unix_ns;
    const auto secs = to_double(ts);
    if (secs && std::fabs(*secs) < kMaxUnixSeconds) unix_ns = static_cast<int64_t>(std::llround(*secs * 1e9));
    else if (!secs) unix_ns = parse_iso8601(ts);
    if (!watts && header_allowed) continue;  // a header line such as "timestamp,watts"
    if (secs && !unix_ns) return fail(ErrorCode::kInvalidInput, where() + timestamp_unit_problem(ts, *secs));
    if (!watts || !unix_ns) {
      if (!unix_ns) {
        return fail(ErrorCode::kInvalidInput,
                    where() + "timestamp '" + ts + "' is neither Unix seconds nor ISO 8601 with a zone (Z or +hh:mm)");
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
  if (!parsed)
    return std::unexpected(
        Unavailable{parsed.error().message, "write lines 'timestamp,watts' (Unix seconds or ISO 8601 with a zone)"});
  return std::make_unique<PowerLogMeter>(path, integrate(std::move(*parsed)), text->size());
}

}  // namespace rigbench::power
