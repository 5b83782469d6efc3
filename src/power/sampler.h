// rigbench: the Sampler reads every meter on its own thread while a benchmark runs, and the
// benchmark marks phases ("idle", "pp", "tg") without ever waiting on a meter.
//
//   Sampler s(std::move(meters));
//   s.start();             // first read of every meter
//   s.mark("idle");  sleep(idle_s);
//   s.mark("pp");    ...;  s.mark("");   // "" = between phases (not measured)
//   s.mark("tg");    ...;
//   EnergyReport r = s.stop();           // per phase, per domain: J, s, W, method; idle medians
//
// Reads come every period_s on the steady clock (>= 10 Hz whenever a meter samples power),
// and once more right after each mark, so phase ends fall between close reads; summarize()
// interpolates at the exact mark times. Meters that read after the fact (an external log, a
// constant) are read at the same instants after stop().
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "power/clock.h"
#include "power/meter.h"
#include "power/summary.h"

namespace rigbench::power {

struct SamplerOptions {
  // Seconds between reads. 0 = the shortest sample_period_s() of the live meters, clamped to
  // [0.02, 1] (so 0.05 s, 20 Hz, when a meter integrates sampled power).
  double period_s = 0;
};

// Thread safety: mark() may be called from any thread; start() and stop() from the owner.
class Sampler {
 public:
  // Takes the meters (possibly none). `clock` must outlive the Sampler.
  explicit Sampler(std::vector<std::unique_ptr<Meter>> meters, const Clock& clock = system_clock(),
                   SamplerOptions options = {});
  ~Sampler();  // stops the thread if still running; the readings are discarded
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Every domain of every meter, in the order reports use.
  const std::vector<DomainInfo>& domains() const { return domains_; }

  // Seconds between reads, as resolved from the options and the meters.
  double period_s() const { return period_s_; }

  // Takes the first read of every live meter (in the caller's thread) and starts the thread.
  // Errors: kRuntime when already started, or the thread cannot be created.
  Status start();

  // Ends the current phase (if any) now and begins `phase` ("" = none; kDropWindow = none,
  // and the window just ended is not kept). Cheap: records the time and wakes the thread for
  // a read; never reads a meter itself.
  void mark(const std::string& phase);

  // Ends the current phase, takes a last read, joins the thread, reads after-the-fact meters
  // and summarizes. Call once, after start(); later calls return an empty report.
  EnergyReport stop();

 private:
  void loop();
  void read_live();

  std::vector<std::unique_ptr<Meter>> meters_;
  std::vector<std::size_t> offsets_;  // index of each meter's first domain in domains_
  std::vector<DomainInfo> domains_;
  const Clock& clock_;
  double period_s_ = 1.0;

  std::mutex mu_;
  std::condition_variable cv_;
  bool running_ = false;
  bool stop_requested_ = false;
  bool wake_ = false;
  std::vector<PhaseWindow> windows_;  // guarded by mu_
  std::string open_phase_;            // guarded by mu_
  int64_t open_since_ns_ = 0;         // guarded by mu_
  std::vector<Tick> ticks_;           // the thread's while it runs
  std::thread thread_;
};

}  // namespace rigbench::power
