#include "measure/serve_energy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace rigbench::measure {

EnergyInfo ServeEnergy::finish(const Results& results, const EnergyConfig& energy,
                               const std::optional<PhaseTokens>& marked) {
  if (!session) return unavailable_energy(meter_status);
  return session->finish(results, idle_s, energy.idle_watts, marked);
}

Result<ServeEnergy> open_serve_energy(const std::optional<EnergyConfig>& energy, const std::atomic<bool>& stop) {
  ServeEnergy out;
  if (!energy) return out;
  out.session = EnergySession::open(energy->meters, &out.meter_status);
  if (!out.session) return out;
  if (Status s = out.session->start(); !s) return std::unexpected(s.error());
  out.idle_s = std::isnan(energy->idle_watts) ? energy->idle_s : 0;
  if (out.idle_s > 0) {
    out.session->mark("idle");
    for (double left = out.idle_s; left > 0 && !stop.load(); left -= 0.1) {
      std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.1)));
    }
    out.session->mark("");
  }
  return out;
}

}  // namespace rigbench::measure
