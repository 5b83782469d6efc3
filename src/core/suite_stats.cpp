#include "core/suite_stats.h"

#include <algorithm>

namespace rigbench {

std::vector<double> prompt_gen_tps(const PromptResult& p) {
  std::vector<double> out;
  const std::size_t runs = std::min(p.n_generated.size(), p.gen_ns.size());
  for (std::size_t i = 0; i < runs; ++i) {
    if (p.n_generated[i] < 2 || p.gen_ns[i] <= 0) continue;
    out.push_back(1e9 * static_cast<double>(p.n_generated[i] - 1) / static_cast<double>(p.gen_ns[i]));
  }
  return out;
}

std::vector<double> prompt_ttft_ms(const PromptResult& p) { return to_milliseconds(p.ttft_ns); }

SuiteFigures prompt_figures(const PromptResult& p) {
  return SuiteFigures{summarize(prompt_gen_tps(p)), summarize(prompt_ttft_ms(p))};
}

std::vector<double> prompt_medians(const SuiteResult& suite, const std::string& metric, const std::string& category) {
  std::vector<double> out;
  for (const PromptResult& p : suite.prompts) {
    if (!category.empty() && p.category != category) continue;
    const std::vector<double> runs = metric == "gen_tps" ? prompt_gen_tps(p) : prompt_ttft_ms(p);
    if (!runs.empty()) out.push_back(summarize(runs).median);
  }
  return out;
}

SuiteFigures suite_figures(const SuiteResult& suite, const std::string& category) {
  return SuiteFigures{summarize(prompt_medians(suite, "gen_tps", category)),
                      summarize(prompt_medians(suite, "ttft_ms", category))};
}

std::vector<std::string> suite_categories(const SuiteResult& suite) {
  std::vector<std::string> out;
  for (const PromptResult& p : suite.prompts) {
    if (std::find(out.begin(), out.end(), p.category) == out.end()) out.push_back(p.category);
  }
  return out;
}

}  // namespace rigbench
