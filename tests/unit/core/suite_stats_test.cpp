// Suite statistics against values worked by hand: per prompt the median over runs, over the
// suite and per category the median and p95 of the prompts' medians (core/stats.h percentile).
#include "core/suite_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rigbench {
namespace {

// A prompt whose runs generated `n` tokens each, the tokens after the first in `gen_ms` ms,
// the first token after `ttft_ms` ms.
PromptResult prompt(const std::string& id, const std::string& category, std::vector<int> n,
                    std::vector<double> gen_ms, std::vector<double> ttft_ms) {
  PromptResult p;
  p.id = id;
  p.category = category;
  p.n_generated = std::move(n);
  for (double g : gen_ms) p.gen_ns.push_back(static_cast<int64_t>(g * 1e6));
  for (double t : ttft_ms) p.ttft_ns.push_back(static_cast<int64_t>(t * 1e6));
  return p;
}

TEST(SuiteStats, GenerationRateCountsTheTokensAfterTheFirst) {
  // 11 tokens: 10 decodes after the first in 100 ms = 100 t/s; 21 tokens in 400 ms = 50 t/s.
  const PromptResult p = prompt("a", "code", {11, 21}, {100, 400}, {5, 7});
  EXPECT_EQ(prompt_gen_tps(p), (std::vector<double>{100, 50}));
  EXPECT_EQ(prompt_ttft_ms(p), (std::vector<double>{5, 7}));
}

TEST(SuiteStats, ARunThatStoppedAfterItsFirstTokenHasNoGenerationRate) {
  const PromptResult p = prompt("a", "chat", {1, 11}, {0, 200}, {5, 6});
  EXPECT_EQ(prompt_gen_tps(p), (std::vector<double>{50}));
  EXPECT_EQ(prompt_figures(p).gen_tps.n, 1u);
  EXPECT_EQ(prompt_figures(p).ttft_ms.n, 2u);
}

TEST(SuiteStats, PerPromptMedianOverRunsThenMedianAndP95OverPrompts) {
  SuiteResult s;
  // Three runs each; medians over runs: gen 100, 50, 20 t/s; TTFT 10, 30, 200 ms.
  s.prompts.push_back(prompt("a", "code", {11, 11, 11}, {100, 90, 110}, {10, 9, 11}));
  s.prompts.push_back(prompt("b", "code", {11, 11, 11}, {200, 200, 250}, {30, 31, 29}));
  s.prompts.push_back(prompt("c", "long", {11, 11, 11}, {500, 400, 600}, {200, 190, 210}));
  EXPECT_DOUBLE_EQ(prompt_figures(s.prompts[0]).gen_tps.median, 100);
  const SuiteFigures all = suite_figures(s);
  EXPECT_EQ(all.gen_tps.n, 3u);
  EXPECT_DOUBLE_EQ(all.gen_tps.median, 50);
  // p95 of {20, 50, 100}: rank 0.95 * 2 = 1.9 -> 50 + 0.9 * 50 = 95.
  EXPECT_DOUBLE_EQ(all.gen_tps.p95, 95);
  EXPECT_DOUBLE_EQ(all.ttft_ms.median, 30);
  EXPECT_DOUBLE_EQ(all.ttft_ms.p95, 30 + 0.9 * 170);
  const SuiteFigures code = suite_figures(s, "code");
  EXPECT_EQ(code.gen_tps.n, 2u);
  EXPECT_DOUBLE_EQ(code.gen_tps.median, 75);
  EXPECT_EQ(suite_categories(s), (std::vector<std::string>{"code", "long"}));
  EXPECT_EQ(prompt_medians(s, "ttft_ms", "long"), (std::vector<double>{200}));
}

TEST(SuiteStats, AnEmptySuiteHasNoFigures) {
  const SuiteFigures f = suite_figures(SuiteResult{});
  EXPECT_EQ(f.gen_tps.n, 0u);
  EXPECT_EQ(f.ttft_ms.n, 0u);
}

}  // namespace
}  // namespace rigbench
