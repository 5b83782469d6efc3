#include "cli/args.h"

#include <utility>

#include "core/knobs.h"

namespace rigbench::cli {

namespace {

// llama-bench's one-dash spellings: the knobs' (core/knobs.h) and the flags that are not knobs.
std::vector<std::pair<std::string, std::string>> aliases() {
  std::vector<std::pair<std::string, std::string>> out = {
      {"-ts", "--tensor-split"}, {"-np", "--parallel"}, {"-pg", "--pg"}, {"-mmp", "--mmap"},
  };
  for (const Knob& k : knobs()) {
    if (k.llama_alias.empty()) continue;
    const auto comma = k.flags.rfind(',');
    out.emplace_back(k.llama_alias, comma == std::string::npos ? k.flags : k.flags.substr(comma + 1));
  }
  return out;
}

}  // namespace

std::vector<std::string> expand_llama_bench_aliases(const std::vector<std::string>& args) {
  static const auto kAliases = aliases();
  std::vector<std::string> out;
  out.reserve(args.size());
  for (const auto& a : args) {
    std::string token = a;
    for (const auto& [alias, name] : kAliases) {
      if (a == alias) token = name;
      else if (a.rfind(alias + "=", 0) == 0) token = name + a.substr(alias.size());
    }
    out.push_back(std::move(token));
  }
  return out;
}

}  // namespace rigbench::cli
