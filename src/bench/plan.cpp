#include "bench/plan.h"

namespace rigbench::bench {

std::vector<TestCase> expand(const PlanSpec& spec) {
  std::vector<TestCase> out;
  for (const auto& model : spec.models)
  for (int ngl : spec.n_gpu_layers)
  for (const auto& lm : spec.load_mode)
  for (int nb : spec.n_batch)
  for (int nub : spec.n_ubatch)
  for (const auto& tk : spec.type_k)
  for (const auto& tv : spec.type_v)
  for (const auto& fa : spec.flash_attn)
  for (int nt : spec.n_threads)
  for (int nd : spec.n_depth)
  for (int np : spec.n_prompt)
  for (int ng : spec.n_gen) {
    if (np == 0 && ng == 0) continue;
    TestCase tc;
    tc.model_path = model;
    BenchParams& p = tc.params;
    p.n_prompt = np;
    p.n_gen = ng;
    p.n_depth = nd;
    p.n_batch = nb;
    p.n_ubatch = nub;
    p.n_threads = nt;
    p.n_gpu_layers = ngl;
    p.load_mode = lm;
    p.flash_attn = fa;
    p.type_k = tk;
    p.type_v = tv;
    p.n_ctx = nd + np + ng;
    p.repetitions = spec.repetitions;
    p.warmup = spec.warmup;
    p.delay_s = spec.delay_s;
    out.push_back(std::move(tc));
  }
  return out;
}

}  // namespace rigbench::bench
