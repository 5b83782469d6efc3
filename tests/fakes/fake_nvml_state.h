// Test support: writes the state file the fake NVML library reads (tests/fakes/fake_nvml.cpp)
// and points RIGBENCH_NVML_LIBRARY and RIGBENCH_FAKE_NVML_STATE at the fake for the test's
// lifetime. RIGBENCH_FAKE_NVML is the library's path (a compile definition from CMake).
#pragma once

#include <cstdlib>
#include <map>
#include <string>

#include "support/temp_dir.h"

namespace rigbench::testing {

class FakeNvml {
 public:
  FakeNvml() : state_path_(dir_.file("nvml_state")) {
    setenv("RIGBENCH_NVML_LIBRARY", RIGBENCH_FAKE_NVML, 1);
    setenv("RIGBENCH_FAKE_NVML_STATE", state_path_.c_str(), 1);
    set("init", "ok");
  }
  ~FakeNvml() {
    unsetenv("RIGBENCH_NVML_LIBRARY");
    unsetenv("RIGBENCH_FAKE_NVML_STATE");
  }
  FakeNvml(const FakeNvml&) = delete;
  FakeNvml& operator=(const FakeNvml&) = delete;

  // Sets `key` (e.g. "gpu0.energy_mj") and rewrites the state file.
  void set(const std::string& key, const std::string& value) {
    values_[key] = value;
    std::string text;
    for (const auto& [k, v] : values_) text += k + "=" + v + "\n";
    write_file(state_path_, text);
  }
  void set(const std::string& key, unsigned long long value) { set(key, std::to_string(value)); }

 private:
  TempDir dir_;
  std::string state_path_;
  std::map<std::string, std::string> values_;
};

}  // namespace rigbench::testing
