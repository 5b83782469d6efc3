// rigbench: the run knobs (core/knobs.h) as list flags, for every subcommand that runs llama.cpp
// in-process over several settings (bench, tune): one declaration, one normalization.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::cli {

// Declares on `cmd` one flag per knob that bench sets (Knob::flags not empty), each taking a
// list (comma-separated or the flag repeated; a whole_value knob one value per occurrence),
// bound to knobs[key], its help and default from the knob. Knobs whose key is in `skip` are
// left to the subcommand.
void add_knob_list_flags(CLI::App& cmd, std::map<std::string, std::vector<std::string>>& knobs,
                         const std::set<std::string>& skip = {});

// Every value of `knobs` normalized in place (normalize_knob: "-fa 1" -> "on", "-ctk Q8_0" ->
// "q8_0", integers in range); an empty list is removed. Errors: normalize_knob's (kUsage,
// naming the flag and the value).
Status normalize_knob_lists(std::map<std::string, std::vector<std::string>>& knobs);

}  // namespace rigbench::cli
