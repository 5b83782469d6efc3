#include "report/compare_by.h"

namespace rigbench::report {

Result<CompareBy> parse_compare_by(const std::string& name) {
  if (name == "machine") return CompareBy::kMachine;
  if (name == "model") return CompareBy::kModel;
  if (name == "build") return CompareBy::kBuild;
  if (name == "backend") return CompareBy::kBackend;
  return fail(ErrorCode::kUsage, "--by '" + name + "': unknown (machine, model, build, backend)");
}

std::string compare_by_name(CompareBy by) {
  switch (by) {
    case CompareBy::kMachine: return "machine";
    case CompareBy::kModel: return "model";
    case CompareBy::kBuild: return "build";
    case CompareBy::kBackend: return "backend";
  }
  return "?";
}

}  // namespace rigbench::report
