#include "power/sampler.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <system_error>

namespace rigbench::power {

Sampler::Sampler(std::vector<std::unique_ptr<Meter>> meters, const Clock& clock, SamplerOptions options)
    : meters_(std::move(meters)), clock_(clock) {
  double shortest = INFINITY;
  for (const auto& m : meters_) {
    offsets_.push_back(domains_.size());
    for (const auto& d : m->domains()) domains_.push_back(d);
    if (!m->reads_after_the_fact()) shortest = std::min(shortest, m->sample_period_s());
  }
  period_s_ = options.period_s > 0 ? options.period_s : std::clamp(shortest, 0.02, 1.0);
}

Sampler::~Sampler() {
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mu_);
      stop_requested_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
}

void Sampler::read_live() {
  Tick tick;
  tick.time = clock_.now();
  tick.readings.resize(domains_.size());
  for (std::size_t i = 0; i < meters_.size(); ++i) {
    if (meters_[i]->reads_after_the_fact()) continue;
    auto readings = meters_[i]->read(tick.time);
    const std::size_t n = std::min(readings.size(), meters_[i]->domains().size());
    for (std::size_t k = 0; k < n; ++k) tick.readings[offsets_[i] + k] = std::move(readings[k]);
  }
  ticks_.push_back(std::move(tick));
}

Status Sampler::start() {
  if (running_ || thread_.joinable()) return fail(ErrorCode::kRuntime, "power sampler: already started");
  read_live();
  try {
    thread_ = std::thread([this] {
      // The sampler yields to the benchmark's threads: on a machine with as many compute
      // threads as cores it would otherwise take turns with them (nice 19, this thread only).
      ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 19);
      loop();
    });
  } catch (const std::system_error& e) {
    return fail(ErrorCode::kRuntime, std::string("power sampler: cannot start its thread: ") + e.what());
  }
  running_ = true;
  return {};
}

void Sampler::loop() {
  const auto period = std::chrono::duration<double>(period_s_);
  for (;;) {
    bool stopping = false;
    {
      std::unique_lock lock(mu_);
      cv_.wait_for(lock, period, [this] { return stop_requested_ || wake_; });
      stopping = stop_requested_;
      wake_ = false;
    }
    read_live();
    if (stopping) return;
  }
}

void Sampler::mark(const std::string& phase) {
  const TimePoint now = clock_.now();
  {
    std::lock_guard lock(mu_);
    const bool drop = phase == kDropWindow;
    if (!open_phase_.empty() && !drop) windows_.push_back({open_phase_, open_since_ns_, now.steady_ns});
    open_phase_ = drop ? std::string() : phase;
    open_since_ns_ = now.steady_ns;
    wake_ = true;
  }
  cv_.notify_all();
}

EnergyReport Sampler::stop() {
  if (!running_) return {};
  mark("");
  {
    std::lock_guard lock(mu_);
    stop_requested_ = true;
  }
  cv_.notify_all();
  thread_.join();
  running_ = false;

  for (std::size_t i = 0; i < meters_.size(); ++i) {
    if (!meters_[i]->reads_after_the_fact()) continue;
    for (auto& tick : ticks_) {
      auto readings = meters_[i]->read(tick.time);
      const std::size_t n = std::min(readings.size(), meters_[i]->domains().size());
      for (std::size_t k = 0; k < n; ++k) tick.readings[offsets_[i] + k] = std::move(readings[k]);
    }
  }
  std::vector<PhaseWindow> windows;
  {
    std::lock_guard lock(mu_);
    windows = windows_;
  }
  EnergyReport report = summarize(domains_, ticks_, windows);
  report.trace = power_trace(domains_, ticks_, report.methods);  // the sources the figures use
  return report;
}

}  // namespace rigbench::power
