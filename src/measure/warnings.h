// rigbench: warnings about a plan, each with its cause and the remedy, said before it runs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "measure/plan.h"

namespace rigbench::measure {

struct Warning {
  std::string cause;   // what is off, with the numbers
  std::string remedy;  // the flag or step that fixes it ("" when there is nothing to do)
};

// Where a run's n_ctx came from, for the remedy of a context beyond the trained one.
enum class ContextSource {
  kAsked,         // -c, larger than the test needs: lower -c
  kAskedAndTest,  // -c, and the test alone also needs more than the model was trained for
  kTest,          // depth + prompt + generation of the test: lower -d, -p or -n
  kSuite,  // the longest prompt of a --prompts suite, templated and tokenized, + its generation
};

// The warning for a run at `n_ctx` tokens on a model trained for `n_ctx_train` (from GGUF
// <arch>.context_length; 0 = unknown: none), named `model`; nullopt when it is within.
std::optional<Warning> context_warning(int n_ctx, uint32_t n_ctx_train, const std::string& model,
                                       ContextSource source);

// Warnings for running `plan` on `machine` with `models` (path -> ModelInfo) from a build of
// type `build_type`: threads beyond the logical CPUs (oversubscription collapses tg), a
// context beyond the model's trained context (context_warning; a suite's tests, whose n_ctx is
// known once their prompts are tokenized, are warned about by the caller), a synthetic model,
// a non-Release build. Each distinct warning appears once.
std::vector<Warning> plan_warnings(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                                   const MachineInfo& machine, const std::string& build_type);

// The one-line note for -ngl given with a value other than 0 when this build's ggml lists no
// device that takes layers (machine.gpus holds no ggml device, hw::offloadable): every layer
// stays on the CPU and the record says backend CPU. The remedy names what is missing: a GPU
// backend (RIGBENCH_BACKENDS), or, for a build that has one (machine.backends), a device it
// can see (ggml-vulkan skips CPU-type devices such as lavapipe unless GGML_VK_VISIBLE_DEVICES
// is set; no CUDA device present). nullopt when nothing was asked or a device can take layers.
std::optional<Warning> offload_note(const PlanSpec& spec, const MachineInfo& machine);

}  // namespace rigbench::measure
