// rigbench: where the shipped data files are (data/: the device catalog, the published results, the presets, the
// built-in queries, the HTML report's template).
#pragma once

#include <string>

namespace rigbench {

// $RIGBENCH_DATA_DIR/<name> when that variable is set and not empty, else the source tree's
// data/<name>. No check that the file exists (its reader says so).
std::string data_file_path(const std::string& name);

}  // namespace rigbench
