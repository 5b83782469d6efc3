#include "core/tensor_overrides.h"

#include <algorithm>
#include <regex>

#include "core/strings.h"

namespace rigbench {

Result<std::vector<TensorOverride>> parse_tensor_overrides(const std::string& value) {
  std::vector<TensorOverride> out;
  std::string v = trim(value);
  if (v.empty() || to_lower(v) == "none") return out;
  std::replace(v.begin(), v.end(), ';', ',');
  for (const std::string& raw : split(v, ',')) {
    const std::string item = trim(raw);
    if (to_lower(item) == "none") continue;  // llama-bench writes an empty group of a list as "none"
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      return fail(ErrorCode::kUsage,
                  "-ot/--override-tensor '" + value + "': expected PATTERN=BUFFER_TYPE[;...], e.g. exps=CPU");
    }
    TensorOverride o{trim(item.substr(0, eq)), trim(item.substr(eq + 1))};
    try {
      std::regex check(o.pattern);
    } catch (const std::regex_error&) {
      return fail(ErrorCode::kUsage,
                  "-ot/--override-tensor '" + value + "': '" + o.pattern + "' is not a valid regular expression");
    }
    if (to_lower(o.buft) == "cpu") o.buft = "CPU";
    out.push_back(std::move(o));
  }
  return out;
}

std::string tensor_overrides_text(const std::vector<TensorOverride>& overrides) {
  if (overrides.empty()) return "none";
  std::string out;
  for (const TensorOverride& o : overrides) out += (out.empty() ? "" : ";") + o.pattern + "=" + o.buft;
  return out;
}

std::vector<TensorOverride> cpu_moe_overrides(bool all_layers, int n_first_layers) {
  static const std::string kExps = "\\.ffn_(up|down|gate|gate_up)_(ch|)exps";  // llama.cpp's LLM_FFN_EXPS_REGEX
  std::vector<TensorOverride> out;
  if (all_layers) out.push_back({kExps, "CPU"});
  for (int il = 0; il < n_first_layers; ++il) out.push_back({"blk\\." + std::to_string(il) + kExps, "CPU"});
  return out;
}

std::vector<TensorOverride> run_tensor_overrides(const std::string& ot, bool cpu_moe, int n_cpu_moe) {
  auto out = parse_tensor_overrides(ot).value_or(std::vector<TensorOverride>{});
  for (auto& o : cpu_moe_overrides(cpu_moe, n_cpu_moe)) out.push_back(std::move(o));
  return out;
}

}  // namespace rigbench
