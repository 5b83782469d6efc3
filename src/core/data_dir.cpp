#include "core/data_dir.h"

#include <cstdlib>

namespace rigbench {

std::string data_file_path(const std::string& name) {
  const char* env = std::getenv("RIGBENCH_DATA_DIR");
  return std::string(env && *env ? env : RIGBENCH_DATA_DIR) + "/" + name;
}

}  // namespace rigbench
