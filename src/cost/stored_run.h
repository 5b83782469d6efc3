// rigbench: `rigbench cost --run ID`: the stored run an ID names, and the figures it gives the
// cost formulas where the user gave none (its tg row's t/s, its measured watts and idle
// baseline, as bench priced them: cost/run_figures.h). Pure: no I/O (the caller loads the
// records from the store).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "cost/estimate.h"

namespace rigbench::cost {

// A machine's generation figures, as the user states them (NaN: not given) or a stored run
// gives them: what cost::CostInputs's rate and power come from.
struct GenerationFigures {
  double tps = kNaN;                    // output tokens/s while generating (tg)
  double watts = kNaN;                  // average power while generating, W
  double idle_watts = kNaN;             // idle power with the model loaded, W
  std::string power_method = "stated";  // how the watts were obtained: stated (given), or a stored run's method
  std::string rate_source = "--tps";    // where tps came from: given, or a stored run's tg row
  double seconds_per_token = kNaN;      // a stored run's tg energy, seconds per token (with its watts)
};

// Why a stored run's tg does not price the load it ran ("" when it does): a served run with
// failed requests ("9 of 16 requests failed"), a capacity sweep's step that missed its SLO
// ("a capacity step that missed its SLO (TTFT p95 was 3.4 s)"): its t/s is a saturated server's.
std::string unpriceable_reason(const RunRecord& run);

// The run `ref` names among `records` (in stored order), and why "latest" passed over later
// runs ("" none): "latest" is the last one with a tg result (a pp test has nothing to price)
// whose figures price a steady load (unpriceable_reason ""), else the last with a tg result;
// any other `ref` is a record_id or a prefix of one. The pointer points into `records`.
// `where` (the database's path) is named in the message. Errors: kNotFound "--run 'REF': no
// such run in 'WHERE'"; kUsage when a prefix matches several runs; kInvalidInput when the run
// has no tg result.
struct StoredRun {
  const RunRecord* run = nullptr;
  std::string passed_over;  // "latest: passed over 2 later runs: a capacity step that missed its SLO (...); ..."
  std::string doubt;        // unpriceable_reason(*run): "" unless no run priced a steady load, or one was named
};
Result<StoredRun> find_stored_run(const std::vector<RunRecord>& records, const std::string& ref,
                                  const std::string& where);

// Fills each figure of `figures` that is not given from `run` (cost::run_figures): tps with
// its rate_source; watts with its power_method and seconds_per_token (when the run measured
// tg energy); idle_watts (when the run has an idle baseline; its power_method too when the run
// has no active power, never a default "stated"). Given figures are kept.
void fill_from_run(const RunRecord& run, GenerationFigures& figures);

}  // namespace rigbench::cost
