// rigbench: the statistics of a prompt suite run (`bench --prompts`, core/record.h
// SuiteResult). Pure functions, no I/O.
//
// Per prompt, per run: generation tokens/s = (tokens generated - 1) / the time of the decodes
// after the first token (the first token's time is TTFT's), and TTFT in ms. Per prompt: the
// median over runs (Summary::median, and the rest of the runs' statistics). Over the suite and
// per category: the statistics of the prompts' medians, of which rigbench shows the median
// (p50) and p95 (core/stats.h percentile()).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench {

// Generation tokens/s of each run of `p` where more than one token was generated (a run that
// stopped at end of generation after its first token has no generation rate).
std::vector<double> prompt_gen_tps(const PromptResult& p);

// TTFT of each run of `p`, ms.
std::vector<double> prompt_ttft_ms(const PromptResult& p);

// One prompt's runs: gen_tps and ttft_ms summarized over its runs (median = p50 over runs).
SuiteFigures prompt_figures(const PromptResult& p);

// The per-prompt medians of the prompts of `suite` (all when `category` is empty), for a
// metric: "gen_tps" or "ttft_ms". A prompt without a value (no run, or no generation rate) is
// left out.
std::vector<double> prompt_medians(const SuiteResult& suite, const std::string& metric,
                                   const std::string& category = "");

// The suite's figures: the statistics of the per-prompt medians (of `category` only when given).
SuiteFigures suite_figures(const SuiteResult& suite, const std::string& category = "");

// The categories of `suite`, in the order their first prompt appears.
std::vector<std::string> suite_categories(const SuiteResult& suite);

}  // namespace rigbench
