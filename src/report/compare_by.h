// rigbench: what the columns of a comparison are (`rigbench compare --by`, the HTML report).
#pragma once

#include <string>

#include "core/status.h"

namespace rigbench::report {

enum class CompareBy { kMachine, kModel, kBuild, kBackend };

// "machine", "model", "build", "backend". Errors: kUsage naming --by and the value. Pure.
Result<CompareBy> parse_compare_by(const std::string& name);
// The name parse_compare_by reads ("machine", ...). Pure.
std::string compare_by_name(CompareBy by);

}  // namespace rigbench::report
