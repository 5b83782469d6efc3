// Test support: reading a meter at chosen instants (a fake clock), with the fake hardware
// changed before each read, and phase windows in seconds. Joules then follow exactly from the
// values the test wrote.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "power/meter.h"
#include "power/summary.h"

namespace rigbench::testing {

inline int64_t ns(double seconds) { return static_cast<int64_t>(seconds * 1e9 + (seconds >= 0 ? 0.5 : -0.5)); }

// Reads `meter` at each of `times_s` (steady and Unix clocks both = the time), calling
// `before(i)` first so the test can set what the hardware reads at time i.
inline std::vector<power::Tick> drive(power::Meter& meter, const std::vector<double>& times_s,
                                      const std::function<void(std::size_t)>& before = {}) {
  std::vector<power::Tick> ticks;
  for (std::size_t i = 0; i < times_s.size(); ++i) {
    if (before) before(i);
    power::Tick t;
    t.time = {ns(times_s[i]), ns(times_s[i])};
    t.readings = meter.read(t.time);
    ticks.push_back(std::move(t));
  }
  return ticks;
}

inline power::PhaseWindow window(const std::string& phase, double start_s, double end_s) {
  return {phase, ns(start_s), ns(end_s)};
}

// The energy of `domain` (index) in `phase` of a summary; NaN when the phase is missing.
inline const power::DomainEnergy& energy(const power::EnergyReport& r, const std::string& phase, std::size_t domain) {
  static const power::DomainEnergy missing;
  const power::PhaseEnergy* p = r.phase(phase);
  return p && domain < p->domains.size() ? p->domains[domain] : missing;
}

}  // namespace rigbench::testing
