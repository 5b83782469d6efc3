#include "measure/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rigbench::measure {

std::string test_name(int n_prompt, int n_gen, int n_depth) {
  std::string t;
  if (n_prompt > 0) t = "pp" + std::to_string(n_prompt);
  if (n_gen > 0) t += (t.empty() ? "" : "+") + std::string("tg") + std::to_string(n_gen);
  if (n_depth > 0) t += " @d" + std::to_string(n_depth);
  return t;
}

std::string progress_line(const Progress& p) {
  std::string s = "run " + std::to_string(p.run) + "/" + std::to_string(p.runs);
  if (!p.model.empty()) s += " · " + p.model;
  if (!p.test.empty()) s += " · " + p.test;
  if (!p.phase.empty()) s += " · " + p.phase;
  if (p.repetition > 0) {
    s += " · repetition " + std::to_string(p.repetition);
    if (p.repetitions > 0) {
      s += "/" + std::to_string(p.repetitions);
    } else {
      char buf[96];
      if (std::isfinite(p.ci_pct))
        std::snprintf(buf, sizeof buf, " (auto: ±%.1f %%, target ±%g %%)", p.ci_pct, p.ci_target_pct);
      else std::snprintf(buf, sizeof buf, " (auto, target ±%g %%)", p.ci_target_pct);
      s += buf;
    }
  }
  if (std::isfinite(p.eta_s)) {
    const long left = std::lround(std::max(p.eta_s, 0.0));
    s += " · ~" +
         (left >= 60 ? std::to_string(left / 60) + " min " + std::to_string(left % 60) + " s"
                     : std::to_string(left) + " s") +
         " left";
  }
  return s;
}

}  // namespace rigbench::measure
