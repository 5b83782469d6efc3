// rigbench: regressions, the same machine and model across builds (llama.cpp commits or
// rigbench versions, report/comparison.h's build identity), tested for significance.
//
// Records are grouped by machine, model, the backends the build was compiled with
// (report/comparison.h's build_backends: a CPU build and a Vulkan build of one commit are
// compared by `compare --by backend`, not called a regression), the tool (llama-bench's
// imported rows and rigbench's runs of one commit are two tools side by side in compare, not a
// regression), test (pp/tg/TTFT, tokens, depth: the metrics with a value per
// repetition, so not energy or cost) and knobs; within
// a group, builds are ordered by their first record's test_time, and each build is tested
// against the one before it: Welch's t-test (core/significance.h) of the later build's
// per-sample values against the earlier build's, one-sided in each direction. "slower" when
// the later build is slower with p < alpha (t/s lower, or TTFT ms higher); "faster" when it
// is faster with p < alpha; otherwise "within noise". Summary-only results (llama-bench
// csv and sql) are tested from their statistics (Welch from n, mean and sd). Fewer than 2
// samples on either side (a csv import whose repetitions were not given: n unknown) cannot
// be tested: "too few samples".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/significance.h"
#include "core/stats.h"
#include "report/comparison.h"

namespace rigbench::report {

enum class Change { kSlower, kFaster, kWithinNoise, kTooFewSamples };

// "slower", "faster", "within noise", "too few samples".
std::string change_name(Change change);

struct Regression {
  std::string machine, model;  // labels (report/comparison.h identities)
  Metric metric = Metric::kTg;
  std::string test;                  // "tg128", "pp512 @ d4096", "ttft pp512"
  std::string config;                // knobs, e.g. "t=8 ngl=99 lm=auto fa=on ctk=f16 ctv=f16 b=2048 ub=512"
  std::string from_build, to_build;  // labels; `from` ran first
  Summary from, to;                  // statistics of the per-sample values (t/s or ms)
  double change = 0;                 // to.mean / from.mean - 1: negative t/s or positive ms = slower
  double p_slower = 1;               // one-sided p-value for "the later build is slower"; 1 when untested
  double p_faster = 1;               // one-sided p-value for "the later build is faster"; 1 when untested
  Change verdict = Change::kTooFewSamples;
};

// Every consecutive pair of builds in every group, sorted by machine, model, test, knobs,
// then build order. `alpha` in (0, 1).
std::vector<Regression> find_regressions(std::span<const RunRecord> records, double alpha);
// The same with the records' identities made already (RecordIdentities(records)).
std::vector<Regression> find_regressions(std::span<const RunRecord> records, double alpha,
                                         const RecordIdentities& ids);

}  // namespace rigbench::report
