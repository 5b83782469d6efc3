#include "cli/cost_flags.h"

#include <cmath>

#include "cli/args.h"
#include "cost/tariff.h"
#include "report/cost_printer.h"

namespace rigbench::cli {

namespace {

using cost::given;

// A range check that names the flag: "--utilization 1.5: must be in (0, 1]".
Status check(const char* flag, double v, bool ok, const char* rule) {
  if (!given(v) || (std::isfinite(v) && ok)) return {};
  return fail(ErrorCode::kUsage, std::string(flag) + " " + report::figure_text(v, "%g") + ": must be " + rule);
}

}  // namespace

void add_price_flags(CLI::App& cmd, CostFlags& o) {
  auto* price = cmd.add_option("--price", o.price, "electricity price per kWh")->check(number());
  auto* tariff =
      cmd.add_option("--tariff", o.tariff, "time-of-use tariff, e.g. day=0.30@07-23,night=0.18 (hour-weighted mean)");
  price->excludes(tariff);
  cmd.add_option("--currency", o.currency, "currency of the prices")->capture_default_str();
  cmd.add_option("--psu-efficiency", o.psu_efficiency,
                 "power supply efficiency (0, 1]: wall = watts / efficiency + rest")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--rest-watts", o.rest_watts, "W no meter sees (fans, disks, board), added at the wall")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--utilization", o.utilization, "share of the time the machine generates, (0, 1]")->check(number());
  cmd.add_option("--hardware-price", o.hardware_price, "purchase price of the machine")->check(number());
  cmd.add_option("--residual-value", o.residual_value, "resale value at the end of its life")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--upkeep", o.upkeep, "repairs and other costs over its life (not electricity)")
      ->capture_default_str()
      ->check(number());
  cmd.add_option("--lifetime-years", o.lifetime_years, "years the hardware is written off over")->check(number());
  cmd.add_option("--api-price", o.api_price, "a cloud API's price per million output tokens (break-even)")
      ->check(number());
  cmd.add_option("--memory-gb", o.memory_gb, "memory of the machine for models, GB (hardware price per GB)")
      ->check(number());
}

Result<cost::CostInputs> cost_inputs(const CostFlags& o, bool require_tps) {
  for (const Status& s :
       {check("--tps", o.tps, o.tps > 0, "> 0"), check("--watts", o.watts, o.watts >= 0, ">= 0"),
        check("--idle-watts", o.idle_watts, o.idle_watts >= 0, ">= 0"), check("--price", o.price, o.price >= 0, ">= 0"),
        check("--psu-efficiency", o.psu_efficiency, o.psu_efficiency > 0 && o.psu_efficiency <= 1, "in (0, 1]"),
        check("--rest-watts", o.rest_watts, o.rest_watts >= 0, ">= 0"),
        check("--utilization", o.utilization, o.utilization > 0 && o.utilization <= 1, "in (0, 1]"),
        check("--hardware-price", o.hardware_price, o.hardware_price >= 0, ">= 0"),
        check("--residual-value", o.residual_value, o.residual_value >= 0, ">= 0"),
        check("--upkeep", o.upkeep, o.upkeep >= 0, ">= 0"),
        check("--lifetime-years", o.lifetime_years, o.lifetime_years > 0, "> 0"),
        check("--api-price", o.api_price, o.api_price >= 0, ">= 0"),
        check("--memory-gb", o.memory_gb, o.memory_gb > 0, "> 0")}) {
    if (!s) return std::unexpected(s.error());
  }
  if (require_tps && !given(o.tps)) return fail(ErrorCode::kUsage, "cost: --tps is required");
  if (given(o.hardware_price) != given(o.lifetime_years)) {
    return fail(ErrorCode::kUsage, "cost: --hardware-price and --lifetime-years go together");
  }
  if (Status s = check_currency(o.currency); !s) return std::unexpected(s.error());
  cost::CostInputs in;
  in.tokens_per_s = o.tps;
  in.rate_source = o.rate_source;
  in.seconds_per_token = o.seconds_per_token;
  in.active_power_w = o.watts;
  in.idle_power_w = o.idle_watts;
  in.power_method = given(o.watts) || given(o.idle_watts) ? o.power_method : "none";  // never "stated" for no figure
  in.psu_efficiency = o.psu_efficiency;
  in.rest_w = o.rest_watts;
  in.currency = o.currency;
  in.utilization = o.utilization;
  in.api_price_per_mtok = o.api_price;
  in.memory_gb = o.memory_gb;
  if (given(o.price)) {
    in.price_per_kwh = o.price;
    in.price_source = "--price";
  } else if (!o.tariff.empty()) {
    auto tariff = cost::parse_tariff(o.tariff);
    if (!tariff) return fail(ErrorCode::kUsage, "--tariff: " + tariff.error().message);
    in.price_per_kwh = tariff->mean_price_per_kwh;
    in.price_source = "hour-weighted mean of tariff " + o.tariff;
  }
  if (given(o.hardware_price)) {
    in.has_hardware = true;
    in.hardware = {o.hardware_price, o.residual_value, o.upkeep, o.lifetime_years * cost::kSecondsPerYear};
  }
  return in;
}

}  // namespace rigbench::cli
