// The progress line: run i of N, model, test, phase, repetition (of N, or auto with its
// interval), the time left.
#include "measure/progress.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rigbench::measure {
namespace {

TEST(ProgressLine, FixedRepetitionsWithTimeLeft) {
  Progress p;
  p.run = 2;
  p.runs = 4;
  p.model = "Llama-3.2-1B";
  p.test = test_name(0, 128, 0);
  p.phase = "tg";
  p.repetition = 3;
  p.repetitions = 5;
  p.eta_s = 74.4;
  EXPECT_EQ(progress_line(p), "run 2/4 · Llama-3.2-1B · tg128 · tg · repetition 3/5 · ~1 min 14 s left");
}

TEST(ProgressLine, AutoShowsTheIntervalAgainstItsTarget) {
  Progress p;
  p.run = 1;
  p.runs = 1;
  p.model = "m";
  p.test = test_name(512, 128, 4096);
  p.phase = "pp";
  p.repetition = 4;
  p.ci_pct = 3.14;
  p.ci_target_pct = 2;
  p.eta_s = 9.6;
  EXPECT_EQ(progress_line(p),
            "run 1/1 · m · pp512+tg128 @d4096 · pp · repetition 4 (auto: ±3.1 %, target ±2 %) · ~10 s left");
  p.ci_pct = std::nan("");
  p.repetition = 1;
  p.eta_s = std::nan("");
  p.phase = "depth fill";
  EXPECT_EQ(progress_line(p), "run 1/1 · m · pp512+tg128 @d4096 · depth fill · repetition 1 (auto, target ±2 %)");
}

}  // namespace
}  // namespace rigbench::measure
