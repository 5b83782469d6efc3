#include "power/powermetrics.h"

#include <charconv>
#include <cmath>
#include <optional>

#include "core/strings.h"

namespace rigbench::power {

namespace {

constexpr std::string_view kHeader = "*** Sampled system activity (";

// "1234 mW", "1.53W", "0 mW" -> watts; nullopt when not a number with a known unit.
std::optional<double> parse_power(std::string_view text) {
  const std::string t = trim(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc()) return std::nullopt;
  const std::string unit = trim(std::string_view(end, t.data() + t.size() - end));
  if (unit == "mW") return v * 1e-3;
  if (unit == "W") return v;
  return std::nullopt;
}

}  // namespace

Result<std::vector<PowermetricsSample>> parse_powermetrics(std::string_view text, const std::string& input_name) {
  std::vector<PowermetricsSample> samples;
  int line_no = 0;
  for (const auto& raw : split(text, '\n')) {
    ++line_no;
    const std::string line = trim(raw);
    auto where = [&] { return "powermetrics output '" + input_name + "' line " + std::to_string(line_no) + ": "; };
    if (line.rfind(kHeader, 0) == 0) {
      // *** Sampled system activity (DATE) (N ms elapsed) ***
      const auto date_end = line.find(") (", kHeader.size());
      const auto ms_end = line.find("ms elapsed)", date_end == std::string::npos ? 0 : date_end);
      if (date_end == std::string::npos || ms_end == std::string::npos) {
        return fail(ErrorCode::kInvalidInput, where() + "a sample header without '(N ms elapsed)'");
      }
      PowermetricsSample s;
      s.time_text = line.substr(kHeader.size(), date_end - kHeader.size());
      const std::string ms = trim(line.substr(date_end + 3, ms_end - date_end - 3));
      double v = 0;
      const auto [p, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), v);
      if (ec != std::errc() || p != ms.data() + ms.size() || v <= 0) {
        return fail(ErrorCode::kInvalidInput, where() + "elapsed '" + ms + "' is not a positive number of ms");
      }
      s.elapsed_s = v * 1e-3;
      samples.push_back(s);
      continue;
    }
    if (samples.empty()) continue;
    const auto colon = line.rfind(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    double* field = nullptr;
    PowermetricsSample& s = samples.back();
    if (key == "CPU Power") field = &s.cpu_w;
    else if (key == "GPU Power") field = std::isnan(s.gpu_w) ? &s.gpu_w : nullptr;
    else if (key == "ANE Power") field = &s.ane_w;
    else if (key == "Combined Power (CPU + GPU + ANE)") field = &s.combined_w;
    else if (key == "Intel energy model derived package power (CPUs+GT+SA)") field = &s.combined_w;
    if (!field) continue;
    auto w = parse_power(line.substr(colon + 1));
    if (!w) return fail(ErrorCode::kInvalidInput, where() + "'" + line + "': not a power in mW or W");
    *field = *w;
  }
  if (samples.empty()) {
    return fail(ErrorCode::kInvalidInput,
                "powermetrics output '" + input_name + "': no '*** Sampled system activity' header");
  }
  return samples;
}

PowermetricsEnergy powermetrics_energy(const std::vector<PowermetricsSample>& samples) {
  PowermetricsEnergy e;
  for (const auto& s : samples) {
    e.seconds += s.elapsed_s;
    e.cpu_j += s.cpu_w * s.elapsed_s;  // NaN propagates: a field missing anywhere is unknown
    e.gpu_j += s.gpu_w * s.elapsed_s;
    e.ane_j += s.ane_w * s.elapsed_s;
    e.combined_j += s.combined_w * s.elapsed_s;
  }
  return e;
}

}  // namespace rigbench::power
