#include "cost/tariff.h"

#include <array>
#include <charconv>
#include <cmath>

#include "core/strings.h"

namespace rigbench::cost {

namespace {

bool parse_hour(std::string_view s, int max, int& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty() && out >= 0 && out <= max;
}

}  // namespace

Result<Tariff> parse_tariff(std::string_view spec) {
  const std::string where = "tariff '" + std::string(spec) + "'";
  Tariff t;
  std::array<int, 24> owner;  // index of the period covering each hour, -1 = none yet
  owner.fill(-1);
  int open_entry = -1;  // the entry without hours
  for (const auto& raw : split(spec, ',')) {
    const std::string entry = trim(raw);
    auto bad = [&](const std::string& why) {
      return fail(ErrorCode::kUsage, where + ": entry '" + entry + "': " + why);
    };
    const auto eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) return bad("expected name=price or name=price@HH-HH");
    TariffPeriod p;
    p.name = trim(entry.substr(0, eq));
    if (p.name.empty()) return bad("expected name=price or name=price@HH-HH");
    std::string rest = entry.substr(eq + 1);
    const auto at = rest.find('@');
    const std::string price = trim(rest.substr(0, at));
    const auto [end, ec] = std::from_chars(price.data(), price.data() + price.size(), p.price_per_kwh);
    if (ec != std::errc() || end != price.data() + price.size() || price.empty() || p.price_per_kwh < 0 ||
        !std::isfinite(p.price_per_kwh)) {
      return bad("price '" + price + "' is not a number >= 0");
    }
    const int index = static_cast<int>(t.periods.size());
    if (at == std::string::npos) {
      if (open_entry >= 0) return bad("a second entry without hours (only one may take the remaining hours)");
      open_entry = index;
      t.periods.push_back(p);
      continue;
    }
    const std::string hours = trim(rest.substr(at + 1));
    const auto dash = hours.find('-');
    if (dash == std::string::npos || !parse_hour(hours.substr(0, dash), 23, p.start_hour) ||
        !parse_hour(hours.substr(dash + 1), 24, p.end_hour)) {
      return bad("hours '" + hours + "' must be HH-HH, start 0..23, end 0..24");
    }
    if (p.end_hour == 0) p.end_hour = 24;  // "22-00": until midnight
    if (p.start_hour == p.end_hour) return bad("hours '" + hours + "' cover no time");
    p.hours = p.end_hour > p.start_hour ? p.end_hour - p.start_hour : p.end_hour + 24 - p.start_hour;
    for (int k = 0; k < p.hours; ++k) {
      const int h = (p.start_hour + k) % 24;
      if (owner[h] >= 0) {
        return bad("hour " + std::to_string(h) + " is already covered by '" + t.periods[owner[h]].name + "'");
      }
      owner[h] = index;
    }
    t.periods.push_back(p);
  }
  if (t.periods.empty()) return fail(ErrorCode::kUsage, where + ": no entry");

  // The entry without hours takes what is left: one contiguous run or several hours.
  int left = 0;
  for (int h = 0; h < 24; ++h) {
    if (owner[h] < 0) {
      ++left;
      if (open_entry >= 0) owner[h] = open_entry;
    }
  }
  if (open_entry >= 0) {
    TariffPeriod& p = t.periods[open_entry];
    if (left == 0)
      return fail(ErrorCode::kUsage, where + ": '" + p.name + "' covers no hour (the others cover all 24)");
    p.hours = left;
    // Start: the first uncovered hour after a covered one (0 when it covers the whole day).
    p.start_hour = 0;
    for (int h = 0; h < 24; ++h) {
      if (owner[h] == open_entry && owner[(h + 23) % 24] != open_entry) {
        p.start_hour = h;
        break;
      }
    }
    int run = 0;
    while (run < 24 && owner[(p.start_hour + run) % 24] == open_entry) ++run;
    p.end_hour = (p.start_hour + run - 1) % 24 + 1;
  } else if (left > 0) {
    for (int h = 0; h < 24; ++h) {
      if (owner[h] < 0) {
        return fail(ErrorCode::kUsage, where + ": hour " + std::to_string(h) + " (and " + std::to_string(left) +
                                           " in all) has no price; add an entry without hours for the rest");
      }
    }
  }
  double sum = 0;
  for (const auto& p : t.periods) sum += p.price_per_kwh * p.hours;
  t.mean_price_per_kwh = sum / 24.0;
  return t;
}

double electricity_cost_per_mtok(double j_per_token, double price_per_kwh) { return j_per_token * price_per_kwh / 3.6; }

}  // namespace rigbench::cost
