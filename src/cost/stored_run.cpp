#include "cost/stored_run.h"

#include "cost/run_figures.h"

namespace rigbench::cost {

std::string unpriceable_reason(const RunRecord& run) {
  if (!run.server) return "";
  const ServerRun& s = *run.server;
  if (s.failed > 0) return std::to_string(s.failed) + " of " + std::to_string(s.requests) + " requests failed";
  if (!s.sweep.empty() && s.slo_met == 0)
    return "a capacity step that missed its SLO" + (s.slo_miss.empty() ? std::string() : " (" + s.slo_miss + ")");
  return "";
}

Result<StoredRun> find_stored_run(const std::vector<RunRecord>& records, const std::string& ref,
                                  const std::string& where) {
  StoredRun found;
  if (ref == "latest") {
    // The last run that generated (a pp test has no tg to price) at a load it sustained.
    std::vector<std::string> passed;
    for (auto r = records.rbegin(); r != records.rend(); ++r) {
      if (!r->results.tg) continue;
      if (!found.run) found.run = &*r;  // the fallback: the last run that generated
      const std::string why = unpriceable_reason(*r);
      if (why.empty()) {
        found.run = &*r;
        break;
      }
      passed.push_back(why);
    }
    if (!found.run) return fail(ErrorCode::kNotFound, "--run 'latest': no run that generated in '" + where + "'");
    found.doubt = unpriceable_reason(*found.run);
    if (!passed.empty() && found.doubt.empty()) {
      std::string list;
      for (std::size_t i = 0; i < passed.size() && i < 3; ++i) list += (i ? "; " : "") + passed[i];
      if (passed.size() > 3) list += "; ...";
      found.passed_over = "latest: passed over " + std::to_string(passed.size()) + " later run" +
                          (passed.size() == 1 ? "" : "s") + " whose t/s is not a steady load's (" + list +
                          "); name one with --run ID to price it";
    }
    return found;
  }
  int matches = 0;
  for (const auto& r : records) {
    if (r.record_id.rfind(ref, 0) == 0) {
      found.run = &r;
      ++matches;
    }
  }
  if (!found.run) return fail(ErrorCode::kNotFound, "--run '" + ref + "': no such run in '" + where + "'");
  if (matches > 1) return fail(ErrorCode::kUsage, "--run '" + ref + "': matches " + std::to_string(matches) + " runs");
  if (!found.run->results.tg) return fail(ErrorCode::kInvalidInput, "--run '" + ref + "': the run has no tg result");
  found.doubt = unpriceable_reason(*found.run);
  return found;
}

void fill_from_run(const RunRecord& run, GenerationFigures& o) {
  // The run's figures as bench priced them (cost/run_figures.h): r = the tg row's t/s, the
  // energy per token the run's E / N.
  const RunFigures f = run_figures(run);
  if (!given(o.tps)) {
    o.tps = f.tokens_per_s;
    o.rate_source = f.rate_source;
  }
  if (!given(o.watts) && given(f.active_power_w)) {
    o.watts = f.active_power_w;
    o.power_method = f.power_method;
    o.seconds_per_token = f.seconds_per_token;
  }
  if (!given(o.idle_watts) && given(f.idle_power_w)) {
    o.idle_watts = f.idle_power_w;
    if (!given(f.active_power_w)) o.power_method = f.power_method;  // the run's, never a default "stated"
  }
}

}  // namespace rigbench::cost
