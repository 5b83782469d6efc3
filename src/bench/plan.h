// rigbench: a benchmark plan, the cartesian product of every list flag, as llama-bench
// forms it (but one run carries pp, tg and TTFT for one n_prompt/n_gen pair).
#pragma once

#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::bench {

// What `rigbench bench` was asked for. Each list holds one or more values; the plan is
// their cartesian product. Defaults are llama-bench's.
struct PlanSpec {
  std::vector<std::string> models;          // GGUF paths, in order
  std::vector<int> n_prompt = {512};        // -p: prompt tokens; 0 = no pp test
  std::vector<int> n_gen = {128};           // -n: generated tokens; 0 = no tg test
  std::vector<int> n_depth = {0};           // -d: tokens in the KV cache before each test
  std::vector<int> n_batch = {2048};        // -b
  std::vector<int> n_ubatch = {512};        // -ub
  std::vector<int> n_threads = {};          // -t; empty = physical cores (filled by the caller)
  std::vector<int> n_gpu_layers = {-1};     // -ngl; -1 = all layers
  std::vector<std::string> load_mode = {"auto"};   // -lm: auto|none|mmap|mlock|mmap+mlock|dio
  std::vector<std::string> flash_attn = {"auto"};  // -fa: auto|on|off
  std::vector<std::string> type_k = {"f16"};       // -ctk
  std::vector<std::string> type_v = {"f16"};       // -ctv
  int repetitions = 5;                      // -r
  int warmup = 1;                           // --warmup
  double delay_s = 0;                       // --delay: seconds of cool-down before each run
};

// One run of the plan.
struct TestCase {
  std::string model_path;
  BenchParams params;  // n_ctx = n_depth + n_prompt + n_gen
};

// Expands the spec into runs. Order: model, then the model-load knobs n_gpu_layers and
// load_mode (so a model is loaded once per pair of values), then the other knobs, n_prompt
// and n_gen innermost. A pair with both n_prompt and n_gen equal to 0 is skipped.
std::vector<TestCase> expand(const PlanSpec& spec);

}  // namespace rigbench::bench
