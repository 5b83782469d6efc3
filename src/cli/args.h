// rigbench: command-line spellings that CLI11 cannot take as they are.
#pragma once

#include <string>
#include <vector>

namespace rigbench::cli {

// llama-bench spells some flags with one dash and several letters (-ngl, -fa, -ctk, -ctv,
// -ub, -lm), which CLI11 would read as bundled single-letter flags. This rewrites exactly
// those tokens to their long names (-ngl -> --n-gpu-layers, ...); every other token is kept.
std::vector<std::string> expand_llama_bench_aliases(const std::vector<std::string>& args);

}  // namespace rigbench::cli
