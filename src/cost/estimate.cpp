#include "cost/estimate.h"

#include <cmath>
#include <cstdio>

#include "cost/energy.h"
#include "cost/tariff.h"

namespace rigbench::cost {

namespace {}  // namespace

CostReport estimate_cost(const CostInputs& in) {
  CostReport r;
  r.inputs = in;
  const double rate = in.tokens_per_s;
  const double eff = in.psu_efficiency > 0 ? in.psu_efficiency : 1.0;
  if (given(in.active_power_w)) r.wall_active_w = wall_power_w(in.active_power_w, eff, in.rest_w);
  if (given(in.idle_power_w)) r.wall_idle_w = wall_power_w(in.idle_power_w, eff, in.rest_w);
  const bool priced = given(in.price_per_kwh);
  const bool utilized = given(in.utilization);

  // Per token: E = P·s over the s seconds one token's energy covers (1 / r unless a measured
  // energy says otherwise, CostInputs::seconds_per_token).
  const double s_per_token = given(in.seconds_per_token) ? in.seconds_per_token : 1.0 / rate;
  if (given(r.wall_active_w)) {
    r.gross.j = gross_j_per_token(r.wall_active_w * s_per_token, 1.0);
    if (given(r.wall_idle_w)) {
      // Powers equal to a nanowatt per watt are the same figure (a stated constant comes back
      // from integration with rounding noise): their difference is 0, not 1e-13.
      const double idle_w = std::fabs(r.wall_active_w - r.wall_idle_w) <= 1e-9 * std::fabs(r.wall_active_w)
                                ? r.wall_active_w
                                : r.wall_idle_w;
      if (idle_w > r.wall_active_w) {
        // Active below idle is a measuring problem (two sources, a swapped pair, a meter too
        // coarse for the phase): no negative marginal figure, but the reason.
        r.idle_above_active = true;
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "idle %.4g W is above active %.4g W: no marginal figure (a measuring problem: check the meter or "
                      "the figures given)",
                      r.wall_idle_w, r.wall_active_w);
        r.notes.push_back(buf);
      } else {
        r.marginal.j = marginal_j_per_token(r.wall_active_w * s_per_token, idle_w, s_per_token, 1.0);
      }
      if (utilized) r.at_utilization.j = j_per_token_at_utilization(r.gross.j, r.wall_idle_w, in.utilization, rate);
      else r.notes.push_back("energy at a utilization: give --utilization");
    } else {
      r.notes.push_back("marginal energy and energy at a utilization: give --idle-watts");
    }
  } else {
    r.notes.push_back("energy per token: give " + in.power_input);
  }
  if (priced) {
    for (PerToken* p : {&r.gross, &r.marginal, &r.at_utilization}) {
      if (given(p->j)) p->cost_per_mtok = electricity_cost_per_mtok(p->j, in.price_per_kwh);
    }
  } else if (given(r.gross.j)) {
    r.notes.push_back("electricity cost: give --price or --tariff");
  }

  if (in.has_hardware && utilized) {
    r.hardware_per_mtok = hardware_cost_per_mtok(in.hardware, in.utilization, rate);
  } else if (in.has_hardware) {
    r.notes.push_back("hardware cost per Mtok: give --utilization");
  }
  // Total at u: electricity at u where known, plus hardware where given.
  if (utilized && (given(r.at_utilization.cost_per_mtok) || given(r.hardware_per_mtok))) {
    const bool electricity_known = given(r.at_utilization.cost_per_mtok);
    r.total_per_mtok = (electricity_known ? r.at_utilization.cost_per_mtok : 0.0) +
                       (given(r.hardware_per_mtok) ? r.hardware_per_mtok : 0.0);
    if (!electricity_known)
      r.notes.push_back("total leaves out electricity (give " + in.power_input + ", --idle-watts and --price)");
    if (!given(r.hardware_per_mtok))
      r.notes.push_back("total leaves out hardware (give --hardware-price and --lifetime-years)");
  }

  if (given(in.api_price_per_mtok)) {
    if (given(r.wall_active_w) && given(r.wall_idle_w) && priced) {
      const HardwareCost hw = in.has_hardware ? in.hardware : HardwareCost{};
      r.break_even_utilization =
          break_even_utilization(r.wall_active_w, r.wall_idle_w, in.price_per_kwh, hw, in.api_price_per_mtok, rate,
                                 s_per_token);
      if (!in.has_hardware) r.notes.push_back("break-even counts electricity only (no --hardware-price)");
    } else if (in.has_hardware) {
      r.break_even_utilization = break_even_utilization(0, 0, 0, in.hardware, in.api_price_per_mtok, rate);
      r.notes.push_back("break-even counts hardware only (no " + in.power_input + ", --idle-watts and --price)");
    } else {
      r.notes.push_back("break-even utilization: give " + in.power_input +
                        ", --idle-watts and --price, or --hardware-price");
    }
  }
  if (given(in.memory_gb) && in.has_hardware)
    r.price_per_memory_gb = price_per_memory_gb(in.hardware.price, in.memory_gb);
  return r;
}

}  // namespace rigbench::cost
