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
#include "measure/runner.h"
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
  // J per token of the phase from `results` (tokens per sample x samples; for a prompt suite,
  // `marked`: the tokens of the windows it kept, RunOutcome::marked_tokens), idle W from the
  // same sources as the phases, except --estimate-power's model (power/stated.h), which reads
  // about 0 W at idle: alone, it leaves the idle power unknown (NaN) with a note naming
  // --idle-watts. `stated_idle_w` (not NaN: --idle-watts) replaces the measured
  // idle power (flag idle_stated); no idle window ran then and idle_s is 0. The summary's
  // notes and flags (power/summary.h) are kept, and idle_above_active is added when the idle
  // power is above a phase's.
  EnergyInfo finish(const Results& results, double idle_s, double stated_idle_w = kUnmeasured,
                    const std::optional<PhaseTokens>& marked = std::nullopt);

 private:
  explicit EnergySession(power::OpenedMeters meters);
  std::unique_ptr<power::Sampler> sampler_;
  std::vector<std::string> kinds_;
};

// The EnergyInfo of a run measured without any meter: method unavailable, with the reasons
// from `status` (one line per meter kind) in notes.
EnergyInfo unavailable_energy(const std::vector<power::MeterStatus>& status);

// Cost per million generated tokens from the run's figures (cost/run_figures.h: r = the tg
// row's t/s, or serve-bench's output t/s; P = tg energy / its seconds, and energy per token the
// record's tg J/token, E / N), with the idle baseline, and the prices, utilization and hardware
// figures of `inputs` (tokens_per_s and the watts are filled here). nullopt when no price was
// given or tg energy is unavailable.
std::optional<CostInfo> price_run(const RunRecord& rec, cost::CostInputs inputs);

// The same estimate for one phase that processed `tokens` tokens in its seconds (serve-bench
// --embeddings: the loaded window, "pp", and the input tokens embedded): r = tokens / the
// phase's seconds, P = its energy / those seconds, so gross cost per token is E / tokens.
// nullopt without a price, the phase's power or tokens.
std::optional<CostInfo> price_phase(const EnergyInfo& energy, const PhaseEnergyInfo& phase, double tokens,
                                    cost::CostInputs inputs);

}  // namespace rigbench::measure
