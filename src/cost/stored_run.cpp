#include "cost/stored_run.h"

#include "cost/run_figures.h"

namespace rigbench::cost {

Result<const RunRecord*> find_stored_run(const std::vector<RunRecord>& records, const std::string& ref,
                                         const std::string& where) {
  const RunRecord* found = nullptr;
  int matches = 0;
  for (const auto& r : records) {
    // latest: the last stored run that generated (a pp test has no tg to price).
    if ((ref == "latest" && r.results.tg) || (ref != "latest" && r.record_id.rfind(ref, 0) == 0)) {
      found = &r;
      ++matches;
    }
  }
  if (!found) return fail(ErrorCode::kNotFound, "--run '" + ref + "': no such run in '" + where + "'");
  if (ref != "latest" && matches > 1)
    return fail(ErrorCode::kUsage, "--run '" + ref + "': matches " + std::to_string(matches) + " runs");
  if (!found->results.tg) return fail(ErrorCode::kInvalidInput, "--run '" + ref + "': the run has no tg result");
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
