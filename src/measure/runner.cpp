#include "measure/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "core/clock.h"
#include "core/results.h"
#include "core/significance.h"
#include "core/stats.h"
#include "measure/prompt_suite.h"

namespace rigbench::measure {

namespace {

// `published` holds a prefix of `all`: appends the rest.
void append_new(std::vector<int64_t>& published, const std::vector<int64_t>& all) {
  published.insert(published.end(), all.begin() + static_cast<std::ptrdiff_t>(published.size()), all.end());
}

}  // namespace

Runner::Runner(engine::Engine& engine, const std::atomic<bool>& cancel, std::function<void(const Progress&)> progress)
    : engine_(engine), cancel_(cancel), progress_(std::move(progress)) {}

void Runner::say(const std::string& phase, int repetition) {
  if (!progress_) return;
  progress_state_.phase = phase;
  if (repetition >= 0) progress_state_.repetition = repetition;
  const double runs_after = std::max(0, progress_state_.runs - progress_state_.run);
  // Before any earlier run finished, the runs after this one are guessed to take as long as it.
  const double rest = std::isfinite(rest_s_) ? rest_s_ : runs_after * test_eta_s_;
  progress_state_.eta_s = test_eta_s_ + rest;
  progress_(progress_state_);
}

Status Runner::prefill_depth(int n_depth, bool first) {
  if (n_depth <= 0) return {};
  if (!first) return engine_.restore_state();
  say("depth fill");
  if (Status s = engine_.prompt(n_depth); !s) return s;
  return engine_.save_state();
}

Result<RunOutcome> Runner::run(const TestCase& tc) {
  if (suite_) {  // the suite's own steps ("prompt 3/10 code-parse") as the progress line's phase
    progress_state_.test = "suite " + suite_->name;
    return run_suite(engine_, cancel_, tc, *suite_, ignore_eos_, [this](const std::string& step) { say(step); },
                     marker_, idle_s_);
  }
  const BenchParams& p = tc.params;
  RepetitionRule rule = tc.rule;
  if (!rule.automatic) rule.repetitions = p.repetitions;  // -r N: the params say N
  const int64_t run_start = now_ns();
  progress_state_.test = test_name(p.n_prompt, p.n_gen, p.n_depth);
  progress_state_.repetitions = rule.automatic ? 0 : rule.repetitions;
  progress_state_.ci_target_pct = rule.ci_target_pct;
  progress_state_.ci_pct = std::numeric_limits<double>::quiet_NaN();
  test_eta_s_ = std::numeric_limits<double>::quiet_NaN();
  say("load", 0);
  if (Status s = engine_.load(tc.model_path, p); !s) return std::unexpected(s.error());
  if (Status s = engine_.open_context(p); !s) return std::unexpected(s.error());

  RunOutcome out;
  out.params = p;
  engine_.settings_used(out.params);
  out.devices_used = engine_.devices_used();
  out.topology = engine_.topology();
  std::vector<int64_t> pp_ns, tg_ns, ttft_ns, itl_ns;
  {
    std::lock_guard<std::mutex> lock(live_mu_);
    live_ = out;
    live_pp_.clear(), live_tg_.clear(), live_ttft_.clear(), live_itl_.clear();
  }
  // After each repetition: what finished, for finished_so_far(). Each live vector holds a
  // prefix of its run vector; only the samples this repetition added are appended (a copy of
  // every sample each repetition would cost O(samples) per repetition, and itl grows by n_gen).
  auto publish = [&] {
    std::lock_guard<std::mutex> lock(live_mu_);
    append_new(live_pp_, pp_ns), append_new(live_tg_, tg_ns), append_new(live_ttft_, ttft_ns);
    append_new(live_itl_, itl_ns);
  };

  // An interruption surfaces as a kInterrupted error from any step; it ends the run and
  // keeps the samples already taken.
  auto body = [&]() -> Status {
    auto sleep_s = [&](double seconds) {
      for (double left = seconds; left > 0 && !cancel_.load(); left -= 0.1) {
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.1)));
      }
    };
    sleep_s(p.delay_s);
    if (marker_ && idle_s_ > 0) {  // idle baseline: the model loaded, nothing running
      say("idle baseline");
      mark("idle");
      sleep_s(idle_s_);
      mark("");
    }
    for (int w = 0; w < p.warmup && !cancel_.load(); ++w) {
      say("warmup");
      if (p.n_prompt > 0) {
        engine_.clear();
        if (Status s = engine_.prompt(p.n_prompt); !s) return s;
      }
      if (p.n_gen > 0) {
        engine_.clear();
        if (Status s = engine_.generate(1); !s) return s;
      }
    }
    int64_t first_rep_ns = 0;
    for (int i = 0; !cancel_.load(); ++i) {
      if (i == 0) first_rep_ns = now_ns();
      if (p.n_prompt > 0) {
        engine_.clear();
        if (Status s = prefill_depth(p.n_depth, i == 0); !s) return s;
        say("pp", i + 1);
        mark("pp");
        const int64_t t0 = now_ns();
        if (Status s = engine_.prompt(p.n_prompt); !s) return s;
        const int64_t t1 = now_ns();
        mark("");
        if (Status s = engine_.sample(); !s) return s;
        const int64_t t2 = now_ns();
        pp_ns.push_back(t1 - t0);
        ttft_ns.push_back(t2 - t0);
      }
      if (p.n_gen > 0) {
        engine_.clear();
        // The depth state exists once the pp half ran (it is made here when -p 0).
        if (Status s = prefill_depth(p.n_depth, i == 0 && p.n_prompt == 0); !s) return s;
        say("tg", i + 1);
        mark("tg");
        const int64_t t0 = now_ns();
        int64_t last = t0;
        std::vector<int64_t> tokens_ns;  // this repetition's, kept only when it finishes
        tokens_ns.reserve(static_cast<std::size_t>(p.n_gen));
        if (Status s = engine_.generate_each(p.n_gen,
                                             [&] {
                                               const int64_t t = now_ns();
                                               tokens_ns.push_back(t - last);
                                               last = t;
                                             });
            !s)
          return s;
        tg_ns.push_back(now_ns() - t0);
        itl_ns.insert(itl_ns.end(), tokens_ns.begin(), tokens_ns.end());
        mark("");
      }
      publish();
      // The stopping rule on the t/s of every measured test so far.
      std::vector<std::vector<double>> series;
      if (!pp_ns.empty()) series.push_back(tokens_per_second(pp_ns, p.n_prompt));
      if (!tg_ns.empty()) series.push_back(tokens_per_second(tg_ns, p.n_gen));
      const double elapsed_s = static_cast<double>(now_ns() - first_rep_ns) / 1e9;
      const int done = i + 1;
      double widest = 0;
      for (const auto& v : series) {
        const auto ci = mean_interval(summarize(v));
        widest = ci ? std::max(widest, ci->half_width_pct) : std::numeric_limits<double>::infinity();
      }
      progress_state_.ci_pct = std::isfinite(widest) ? widest : std::numeric_limits<double>::quiet_NaN();
      out.stopped = stop_after(rule, series, elapsed_s);
      if (out.stopped != StopReason::kNone) break;
      // Time left in this test: the repetitions still expected at the mean repetition's time.
      const double per_rep = elapsed_s / done;
      double reps_left = rule.repetitions - done;
      if (rule.automatic) {
        reps_left = std::max(reps_left, 1.0);
        if (std::isfinite(progress_state_.ci_pct) && rule.ci_target_pct > 0) {  // the interval narrows as 1/sqrt(n)
          const double ratio = progress_state_.ci_pct / rule.ci_target_pct;
          reps_left = std::max(reps_left, std::ceil(done * ratio * ratio) - done);
        }
        reps_left = std::min(reps_left, std::max(1.0, std::floor((rule.max_time_s - elapsed_s) / per_rep)));
      }
      test_eta_s_ = reps_left * per_rep;
    }
    return {};
  };

  const Status ran = body();
  {
    std::lock_guard<std::mutex> lock(live_mu_);
    live_.reset();
  }
  if (!ran) {
    if (ran.error().code != ErrorCode::kInterrupted) return std::unexpected(ran.error());
    out.interrupted = true;
  }
  if (cancel_.load()) out.interrupted = true;

  if (!pp_ns.empty()) out.results.pp = make_throughput(p.n_prompt, std::move(pp_ns));
  if (!tg_ns.empty()) out.results.tg = make_throughput(p.n_gen, std::move(tg_ns), std::move(itl_ns));
  if (!ttft_ns.empty()) out.results.ttft = make_latency(std::move(ttft_ns));
  out.memory = engine_.memory();
  out.devices_used = engine_.devices_used();
  out.seconds = static_cast<double>(now_ns() - run_start) / 1e9;
  return out;
}

std::optional<RunOutcome> Runner::finished_so_far() const {
  std::lock_guard<std::mutex> lock(live_mu_);
  if (!live_ || (live_pp_.empty() && live_tg_.empty())) return std::nullopt;
  RunOutcome out = *live_;
  const BenchParams& p = out.params;
  if (!live_pp_.empty()) out.results.pp = make_throughput(p.n_prompt, live_pp_);
  if (!live_tg_.empty()) out.results.tg = make_throughput(p.n_gen, live_tg_, live_itl_);
  if (!live_ttft_.empty()) out.results.ttft = make_latency(live_ttft_);
  return out;
}

}  // namespace rigbench::measure
