// rigbench: runs one benchmark case through an Engine and times it the way llama-bench
// does (docs/measurement.md), keeping pp, tg and TTFT apart.
//
// Per run: load the model (kept when unchanged), create a context of n_ctx =
// n_depth + n_prompt + n_gen, sleep delay_s, then `warmup` times {clear, pp of n_prompt;
// clear, tg of 1}, then per repetition:
//   pp:   clear KV; depth prefill (first repetition) or restore (later ones), not timed;
//         t0; prompt(n_prompt) (synchronized); t1; greedy sample of the first token; t2.
//         pp sample = t1 - t0; TTFT sample = t2 - t0.
//   tg:   clear KV; depth restore, not timed; t0; generate(n_gen); t1. tg sample = t1 - t0;
//         each token's latency (its decode, synchronized, from the previous token's end) too.
// The repetitions go on as the test's RepetitionRule says (core/repetitions.h): -r N exactly
// N; -r auto until every measured t/s has a tight enough 95 % interval or time runs out.
// Times come from std::chrono::steady_clock, in ns.
#pragma once

#include <atomic>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

#include "core/record.h"
#include "core/status.h"
#include "engine/engine.h"
#include "measure/plan.h"
#include "measure/progress.h"

namespace rigbench::measure {

struct PromptSuite;

// Tokens processed in the energy phases: pp (prompt tokens) and tg (generated tokens).
struct PhaseTokens {
  double pp = 0, tg = 0;
};

struct RunOutcome {
  Results results;                   // pp/tg/ttft present when their test ran >= 1 sample
  std::vector<BufferMemory> memory;  // llama.cpp's breakdown for the run's context
  std::vector<std::string> devices_used;
  std::vector<TopologyDevice> topology;    // Engine::topology (bench --rpc)
  BenchParams params;                      // the run's settings as llama.cpp applied them (Engine::settings_used)
  bool interrupted = false;                // cancel was set; results hold the finished samples
  StopReason stopped = StopReason::kNone;  // why the repetitions ended (kNone: interrupted or failed)
  double seconds = 0;                      // wall time of the whole run, load included
  // A prompt suite's (run_suite): the tokens of the energy windows it marked "pp" and "tg" and
  // that finished, the finished prompts of an interrupted run included; a window cut by the
  // interruption is dropped from the energy (power::kDropWindow) and counts no tokens here.
  std::optional<PhaseTokens> marked_tokens;
};

// Receives phase boundaries for an energy sampler: "idle", "pp", "tg", and "" between them.
using PhaseMarker = std::function<void(const std::string&)>;

class Runner {
 public:
  // `progress` (may be empty) receives the state at every phase, for a terminal.
  Runner(engine::Engine& engine, const std::atomic<bool>& cancel, std::function<void(const Progress&)> progress = {});

  // Where the next run stands in the job, for the progress: run `run` of `runs`, the model's
  // name, and the estimated seconds of the runs after it (NaN: not known).
  void set_position(int run, int runs, std::string model, double rest_s) {
    progress_state_ = Progress{};
    progress_state_.run = run;
    progress_state_.runs = runs;
    progress_state_.model = std::move(model);
    rest_s_ = rest_s;
  }

  // For the next run(s): mark phases through `marker` (empty = none) and, once the model is
  // loaded and the context created, hold an idle window of `idle_s` seconds (marked "idle")
  // for the idle baseline. The marks bracket only the timed regions.
  void set_phase_marker(PhaseMarker marker, double idle_s) {
    marker_ = std::move(marker);
    idle_s_ = idle_s;
  }

  // For the next run(s): run the prompt suite `suite` (null = the pp/tg tests) instead
  // (measure/prompt_suite.h run_suite); `suite` must outlive the runs.
  void set_suite(const PromptSuite* suite, bool ignore_eos) {
    suite_ = suite;
    ignore_eos_ = ignore_eos;
  }

  // Runs `tc`. Errors: those of Engine::load/open_context (kInvalidInput, kRuntime);
  // kRuntime when a decode fails. Cancellation is not an error: see RunOutcome::interrupted.
  Result<RunOutcome> run(const TestCase& tc);

  // The run in progress as far as it went: the repetitions finished so far (pp, tg, TTFT),
  // the settings and the topology; nullopt when no run is in progress or it has no finished
  // repetition. For a failure that cannot return through the engine (an rpc-server lost
  // mid-run: ggml's RPC client ends the process), called from another thread while the
  // run's thread waits inside the engine. Thread-safe.
  std::optional<RunOutcome> finished_so_far() const;

 private:
  Status prefill_depth(int n_depth, bool first);
  void say(const std::string& phase, int repetition = -1);

  void mark(const std::string& phase) const {
    if (marker_) marker_(phase);
  }

  engine::Engine& engine_;
  const std::atomic<bool>& cancel_;
  std::function<void(const Progress&)> progress_;
  Progress progress_state_;
  double rest_s_ = 0;
  double test_eta_s_ = std::numeric_limits<double>::quiet_NaN();
  PhaseMarker marker_;
  double idle_s_ = 0;
  const PromptSuite* suite_ = nullptr;
  bool ignore_eos_ = false;
  // The finished repetitions of the run in progress (finished_so_far), under live_mu_.
  mutable std::mutex live_mu_;
  std::optional<RunOutcome> live_;
  std::vector<int64_t> live_pp_, live_tg_, live_ttft_, live_itl_;
};

}  // namespace rigbench::measure
