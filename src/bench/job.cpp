#include "bench/job.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "hw/machine.h"

namespace rigbench::bench {

std::string new_record_id() {
  std::random_device rd;
  char buf[33];
  std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

RunRecord refused_record(const TestCase& tc, const ModelInfo& model, const JobContext& context, const Roofline& roofline,
                         const std::string& why) {
  RunRecord rec;
  rec.record_id = new_record_id();
  rec.test_time = utc_now_iso8601();
  rec.machine = context.machine;
  rec.build = context.build;
  rec.model = model;
  rec.params = tc.params;
  rec.tags = context.tags;
  rec.roofline = roofline;
  rec.refused = why;
  return rec;
}

Status run_plan(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                const JobContext& context, Runner& runner, const RecordSink& sink, const std::vector<Roofline>& rooflines) {
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const TestCase& tc = plan[i];
    RunRecord rec;
    rec.record_id = new_record_id();
    rec.test_time = utc_now_iso8601();
    rec.machine = context.machine;
    rec.build = context.build;
    rec.model = models.at(tc.model_path);
    rec.params = tc.params;
    rec.tags = context.tags;
    if (i < rooflines.size()) rec.roofline = rooflines[i];

    // Energy: a sampler per run (meters reopened each time), phases marked by the runner.
    std::unique_ptr<EnergySession> session;
    std::vector<power::MeterStatus> meter_status;
    if (context.energy) session = EnergySession::open(context.energy->meters, &meter_status);
    if (session) {
      if (Status s = session->start(); !s) return s;
      runner.set_phase_marker([&session](const std::string& phase) { session->mark(phase); }, context.energy->idle_s);
    } else {
      runner.set_phase_marker({}, 0);
    }

    auto outcome = runner.run(tc);
    if (!outcome) return std::unexpected(outcome.error());
    rec.results = std::move(outcome->results);
    rec.memory.buffers = std::move(outcome->memory);
    rec.memory.peak_rss_bytes = hw::peak_rss_bytes();
    rec.devices_used = std::move(outcome->devices_used);
    rec.interrupted = outcome->interrupted;
    if (session) rec.energy = session->finish(rec.results, context.energy->idle_s);
    else if (context.energy) rec.energy = unavailable_energy(meter_status);
    if (context.energy && context.energy->pricing) rec.cost = price_run(rec.energy, rec.results, *context.energy->pricing);

    const bool has_samples = rec.results.pp || rec.results.tg;
    if (has_samples) {
      if (Status s = sink(rec); !s) return s;
    }
    if (outcome->interrupted) {
      return fail(ErrorCode::kInterrupted, "interrupted: " + std::to_string(i + (has_samples ? 1 : 0)) + " of " +
                                               std::to_string(plan.size()) + " runs kept");
    }
  }
  return {};
}

}  // namespace rigbench::bench
