// rigbench: electricity prices: a flat price per kWh, or a time-of-use tariff such as
// `day=0.30@07-23,night=0.18`, and the cost of energy per million tokens. Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rigbench::cost {

// One period of a time-of-use tariff.
struct TariffPeriod {
  std::string name;          // "day"
  double price_per_kwh = 0;  // in the currency of the tariff
  int start_hour = 0;        // first hour, 0..23
  int end_hour = 0;          // hour it ends (exclusive), 1..24; at or below start_hour when it wraps midnight
  int hours = 0;             // hours per day it covers, 1..24
};

struct Tariff {
  // As given; the entry without hours gets its hours count, and start/end of its first run
  // of hours (it may cover several runs: "peak=0.4@08-10,peak2=0.4@17-19,offpeak=0.2").
  std::vector<TariffPeriod> periods;
  // Hour-weighted mean price per kWh: sum(price × hours) / 24. Assumes the work is spread
  // evenly over the day (a machine kept on); run-time-weighted prices are a caller's choice.
  double mean_price_per_kwh = 0;
};

// Parses `spec`: comma-separated `name=price@HH-HH` entries (start 0..23, end 0..24 exclusive,
// 0 and 24 both midnight; may wrap midnight: 22-06); at most one entry may omit `@HH-HH` and takes every hour no other
// covers. Together the entries must cover each hour of the day exactly once.
// Example: "day=0.30@07-23,night=0.18" -> day 16 h, night 8 h, mean (0.30·16 + 0.18·8)/24 = 0.26.
// Errors: kUsage naming the spec and the entry (bad number, bad hours, overlap, hours left
// uncovered, an entry covering no hour, two entries without hours).
Result<Tariff> parse_tariff(std::string_view spec);

// Electricity cost per million output tokens: e [J/token] × price [per kWh] / 3.6
// (10^6 tokens × e J = e/3.6 kWh). In the price's currency.
double electricity_cost_per_mtok(double j_per_token, double price_per_kwh);

}  // namespace rigbench::cost
