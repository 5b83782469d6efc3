#include "measure/runner.h"

#include <chrono>
#include <thread>

#include "core/results.h"
#include "measure/prompt_suite.h"

namespace rigbench::measure {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Runner::Runner(engine::Engine& engine, const std::atomic<bool>& cancel,
               std::function<void(const std::string&)> progress)
    : engine_(engine), cancel_(cancel), progress_(std::move(progress)) {}

void Runner::say(const std::string& line) const {
  if (progress_) progress_(line);
}

Status Runner::prefill_depth(int n_depth, bool first) {
  if (n_depth <= 0) return {};
  if (!first) return engine_.restore_state();
  if (Status s = engine_.prompt(n_depth); !s) return s;
  return engine_.save_state();
}

Result<RunOutcome> Runner::run(const TestCase& tc) {
  if (suite_) return run_suite(engine_, cancel_, tc, *suite_, ignore_eos_, progress_);
  const BenchParams& p = tc.params;
  if (Status s = engine_.load(tc.model_path, p); !s) return std::unexpected(s.error());
  if (Status s = engine_.open_context(p); !s) return std::unexpected(s.error());

  RunOutcome out;
  out.params = p;
  engine_.settings_used(out.params);
  std::vector<int64_t> pp_ns, tg_ns, ttft_ns, itl_ns;

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
      say("warmup " + std::to_string(w + 1) + "/" + std::to_string(p.warmup));
      if (p.n_prompt > 0) {
        engine_.clear();
        if (Status s = engine_.prompt(p.n_prompt); !s) return s;
      }
      if (p.n_gen > 0) {
        engine_.clear();
        if (Status s = engine_.generate(1); !s) return s;
      }
    }
    for (int i = 0; i < p.repetitions && !cancel_.load(); ++i) {
      say("repetition " + std::to_string(i + 1) + "/" + std::to_string(p.repetitions));
      if (p.n_prompt > 0) {
        engine_.clear();
        if (Status s = prefill_depth(p.n_depth, i == 0); !s) return s;
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
    }
    return {};
  };

  if (Status s = body(); !s) {
    if (s.error().code != ErrorCode::kInterrupted) return std::unexpected(s.error());
    out.interrupted = true;
  }
  if (cancel_.load()) out.interrupted = true;

  if (!pp_ns.empty()) out.results.pp = make_throughput(p.n_prompt, std::move(pp_ns));
  if (!tg_ns.empty()) out.results.tg = make_throughput(p.n_gen, std::move(tg_ns), std::move(itl_ns));
  if (!ttft_ns.empty()) out.results.ttft = make_latency(std::move(ttft_ns));
  out.memory = engine_.memory();
  out.devices_used = engine_.devices_used();
  return out;
}

}  // namespace rigbench::measure
