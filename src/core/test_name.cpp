#include "core/test_name.h"

namespace rigbench {

bool pp_tg_test(const RunRecord& rec) { return !rec.server && rec.params.n_prompt > 0 && rec.params.n_gen > 0; }

std::string phase_test_name(bool pp, int n, bool pg, int n_depth) {
  std::string name = (pp ? "pp" : "tg") + std::to_string(n);
  if (pg) name += " (pg)";
  if (n_depth > 0) name += " @ d" + std::to_string(n_depth);
  return name;
}

}  // namespace rigbench
