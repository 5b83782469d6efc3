// rigbench: `rigbench tune`'s answer: the candidates as a table (the winner first, each
// runner-up with its interval and why it lost), the winner's figure with how sure it is, and
// the command lines that use it (core/llama_commands.h).
//   md     the table, then "winner: ..." and the commands below it
//   csv    one line per candidate (the varied knobs, status, mean, interval, n, p, why)
//   json   one object: the run (tune_id, model, objective, metric, n_ctx, ...), "winner" (its
//          settings, figure, interval, lead, p-value, commands) and "candidates"
//   jsonl  one object per candidate, then the run's object (with "winner") on the last line
#pragma once

#include <ostream>
#include <string>

#include "measure/tune.h"
#include "report/table.h"

namespace rigbench::report {

struct TuneReport {
  const measure::TuneSpec* spec = nullptr;
  const measure::TuneResult* result = nullptr;
  std::string model_name;  // the model as records name it (ModelInfo::name)
  std::string model_path;  // as the commands should name it
  bool gpu = true;         // this machine has a GPU to offload to (hw::offloadable); else the commands carry no -ngl
};

// Where candidate `i` (an index into result.candidates) stands: "winner", "contender",
// "slower", "halved", "failed" (race_status_name), "does_not_fit" or "refused" (dropped before
// the race), "not_run" (the race ended before it ran, e.g. Ctrl-C).
std::string tune_candidate_status(const measure::TuneResult& result, int i);

// The candidates in the table's order: the winner, then those that reached the last rounds
// (the later a candidate left, the higher), each group by its mean; then those out in the
// screen; then failed, not run and dropped ones. Indices into result.candidates.
std::vector<int> tune_ranking(const measure::TuneResult& result, bool lower_is_better);

// md: the note that tune's trials ran on a disturbed machine ("noisy machine: 5 of 12 trials
// ran while the machine was disturbed (machine_busy: ...)", TuneResult::machine_noise); "" when
// none did. json: "disturbed_trials" and "machine_noise": [{"code", "note"}].
std::string machine_noise_note(const measure::TuneResult& result);

// Writes the answer in `format` (md, csv, json, jsonl).
void print_tune(const TuneReport& report, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
