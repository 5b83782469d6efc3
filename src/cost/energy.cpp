#include "cost/energy.h"

namespace rigbench::cost {

double gross_j_per_token(double energy_j, double n_tokens) { return energy_j / n_tokens; }

double marginal_j_per_token(double energy_j, double idle_power_w, double active_s, double n_tokens) {
  return (energy_j - idle_power_w * active_s) / n_tokens;
}

double j_per_token_at_utilization(double gross_j_per_token, double idle_power_w, double utilization,
                                  double tokens_per_s) {
  return gross_j_per_token + idle_power_w * (1.0 - utilization) / (utilization * tokens_per_s);
}

double wall_power_w(double component_power_w, double psu_efficiency, double rest_w) {
  return component_power_w / psu_efficiency + rest_w;
}

}  // namespace rigbench::cost
