#include "cli/args.h"

#include <utility>

namespace rigbench::cli {

std::vector<std::string> expand_llama_bench_aliases(const std::vector<std::string>& args) {
  static const std::pair<const char*, const char*> kAliases[] = {
      {"-ngl", "--n-gpu-layers"}, {"-fa", "--flash-attn"},   {"-ctk", "--cache-type-k"},
      {"-ctv", "--cache-type-v"}, {"-ub", "--ubatch-size"}, {"-ts", "--tensor-split"},
      {"-lm", "--load-mode"},
  };
  std::vector<std::string> out;
  out.reserve(args.size());
  for (const auto& a : args) {
    std::string token = a;
    for (const auto& [alias, name] : kAliases) {
      if (a == alias) token = name;
      else if (a.rfind(std::string(alias) + "=", 0) == 0) token = std::string(name) + a.substr(std::string(alias).size());
    }
    out.push_back(std::move(token));
  }
  return out;
}

}  // namespace rigbench::cli
