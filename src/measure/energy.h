// rigbench: energy during a benchmark run. Opens the meters (power/meters.h), runs the
// Sampler for the run, and turns its report into the record's EnergyInfo; prices it into a
// CostInfo (cost/estimate.h) when a price was given.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "cost/estimate.h"
#include "power/meters.h"
#include "power/sampler.h"

namespace rigbench::measure {

// One run's recording. Not thread-safe except mark() (see power::Sampler).
class EnergySession {
 public:
  // Opens every available meter of `config`; nullptr when none is (then `status` says why).
  static std::unique_ptr<EnergySession> open(const power::MeterConfig& config, std::vector<power::MeterStatus>* status);

  Status start();
  void mark(const std::string& phase);  // "idle", "pp", "tg", or "" between phases

  // Stops and summarizes: per phase the energy summed over the domains read (a whole-system
  // figure, a wall meter or a stated --watts, is used alone, never added to components),
  // J per token of the phase from `results` (tokens per sample x samples), idle median W.
  EnergyInfo finish(const Results& results, double idle_s);

 private:
  explicit EnergySession(power::OpenedMeters meters);
  std::unique_ptr<power::Sampler> sampler_;
  std::vector<std::string> kinds_;
};

// The EnergyInfo of a run measured without any meter: method unavailable, with the reasons
// from `status` (one line per meter kind) in notes.
EnergyInfo unavailable_energy(const std::vector<power::MeterStatus>& status);

// Cost per million generated tokens from tg's energy and speed, with the idle baseline, and
// the prices, utilization and hardware figures of `inputs` (tokens_per_s and the watts are
// filled here). nullopt when no price was given or tg energy is unavailable.
std::optional<CostInfo> price_run(const EnergyInfo& energy, const Results& results, cost::CostInputs inputs);

}  // namespace rigbench::measure
