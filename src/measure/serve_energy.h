// rigbench: the energy of one serve-bench run (generation or --embeddings), with the same
// meters as `bench`: opened and started, an idle window with the server idle and its model
// loaded, then the caller marks the loaded window over the counted requests.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/record.h"
#include "core/results.h"
#include "core/status.h"
#include "measure/energy.h"
#include "measure/job.h"
#include "power/meters.h"

namespace rigbench::measure {

struct ServeEnergy {
  std::unique_ptr<EnergySession> session;        // null: no meter opened (or --energy off)
  std::vector<power::MeterStatus> meter_status;  // why each meter opened or not
  double idle_s = 0;                             // seconds of idle window taken (0: --idle-watts)

  // Marks the loaded window's phase ("" ends it); nothing without a session.
  void mark(const char* phase) const {
    if (session) session->mark(phase);
  }
  // The record's energy: the session's figures over `results`, or, without a session, why
  // none (unavailable_energy). `energy` is the run's --energy configuration.
  // `marked`: the tokens of the loaded window when `results` does not count them (a served
  // run's output tokens: its results.tg is one sample, the run's rate).
  EnergyInfo finish(const Results& results, const EnergyConfig& energy,
                    const std::optional<PhaseTokens>& marked = std::nullopt);
};

// With `energy` (--energy auto): opens the meters, starts the sampler and takes the idle window
// (energy->idle_s seconds, none with --idle-watts; Ctrl-C, `stop`, ends it). Without: an
// empty ServeEnergy. Errors: the sampler's start (kRuntime).
Result<ServeEnergy> open_serve_energy(const std::optional<EnergyConfig>& energy, const std::atomic<bool>& stop);

}  // namespace rigbench::measure
