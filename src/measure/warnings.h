// rigbench: warnings about a plan, each with its cause and the remedy, said before it runs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/record.h"
#include "measure/plan.h"

namespace rigbench::measure {

struct Warning {
  std::string cause;   // what is off, with the numbers
  std::string remedy;  // the flag or step that fixes it ("" when there is nothing to do)
};

// Warnings for running `plan` on `machine` with `models` (path -> ModelInfo) from a build of
// type `build_type`: threads beyond the logical CPUs (oversubscription collapses tg), a
// context beyond the model's trained context, a synthetic model, a non-Release build.
// Each distinct warning appears once.
std::vector<Warning> plan_warnings(const std::vector<TestCase>& plan, const std::map<std::string, ModelInfo>& models,
                                   const MachineInfo& machine, const std::string& build_type);

}  // namespace rigbench::measure
