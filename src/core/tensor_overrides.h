// rigbench: where the user puts weights: llama.cpp's -ot/--override-tensor PATTERN=BUFT and
// the MoE shorthands -cmoe/--cpu-moe and -ncmoe/--n-cpu-moe N, parsed once for bench's knob,
// fit's plan and the engine's load.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench {

// One override: a tensor whose name matches `pattern` (std::regex_search, ECMAScript, as
// llama.cpp matches; the first override that matches wins) goes to buffer type `buft`:
// "CPU" (any case) is host RAM, any other name (CUDA0, ROCm0, Vulkan0, Metal, ...) the device
// whose buffer type has that name (its trailing digits pick the device of a split).
struct TensorOverride {
  std::string pattern;
  std::string buft;
};

// Parses an -ot value: overrides separated by ';' (llama-bench, where ',' separates tests)
// or ',' (llama-server, llama-cli); "none" or "" = no override. Errors (kUsage, naming the
// flag): an item without '=' or with an empty side; a pattern that is not a valid regular
// expression. Buffer type names are not checked here (a plan may be for a device this
// machine lacks; the engine checks them against the devices it has).
Result<std::vector<TensorOverride>> parse_tensor_overrides(const std::string& value);

// The canonical text of parsed overrides, as llama-bench records them: "PATTERN=BUFT;..." with
// "CPU" upper-cased; "none" when empty.
std::string tensor_overrides_text(const std::vector<TensorOverride>& overrides);

// llama.cpp's --cpu-moe (`all_layers`: every MoE expert tensor on the CPU) and --n-cpu-moe N
// (those of blocks 0..N-1) as overrides, in llama.cpp's order (common/common.h): LLM_FFN_EXPS_REGEX
// "\.ffn_(up|down|gate|gate_up)_(ch|)exps", prefixed "blk\.N" per block.
std::vector<TensorOverride> cpu_moe_overrides(bool all_layers, int n_first_layers);

// Every override of a run, in the order llama.cpp applies them: -ot's first, then -cmoe's and
// -ncmoe's (llama-bench appends -ncmoe's after -ot's; llama-server's -cmoe/-ncmoe come after
// -ot too). `ot` as parse_tensor_overrides takes it (already checked: a bad value gives none).
std::vector<TensorOverride> run_tensor_overrides(const std::string& ot, bool cpu_moe, int n_cpu_moe);

}  // namespace rigbench
