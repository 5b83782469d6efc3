// rigbench: energy per output token, three ways, and wall power from component power.
// Pure functions (docs/energy.md). Symbols: E energy over the active period [J], N output
// tokens, T active seconds, r = N/T tokens per second, P_idle idle power [W] with the model
// loaded, u utilization (the share of time the machine is generating), 0 < u <= 1.
#pragma once

namespace rigbench::cost {

// Gross energy per output token, J/token: e = E / N. `n_tokens` > 0.
double gross_j_per_token(double energy_j, double n_tokens);

// Marginal energy per output token, J/token, above the idle baseline: e = (E - P_idle·T) / N.
// Negative when the active figure is below idle (a measuring problem the caller should show).
double marginal_j_per_token(double energy_j, double idle_power_w, double active_s, double n_tokens);

// Energy per output token on a machine kept on for this work and busy a share `utilization`
// of the time, J/token: e(u) = e_gross + P_idle·(1 - u) / (u·r); the idle hours' energy is
// charged to the tokens made in the busy hours. 0 < utilization <= 1, tokens_per_s > 0.
double j_per_token_at_utilization(double gross_j_per_token, double idle_power_w, double utilization,
                                  double tokens_per_s);

// Power at the wall from power measured at the components (RAPL + GPU), W:
// P_wall = P / psu_efficiency + rest_w, where rest_w is what no meter sees (fans, disks, board).
// 0 < psu_efficiency <= 1 (1 and 0 leave P as it is).
double wall_power_w(double component_power_w, double psu_efficiency, double rest_w);

}  // namespace rigbench::cost
