// Test support: an environment variable set for a scope, unset at its end (also when an ASSERT
// returns early), so that later tests never see it.
#pragma once

#include <cstdlib>
#include <string>
#include <utility>

namespace rigbench::testing {

class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
    ::setenv(name_.c_str(), value.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() { ::unsetenv(name_.c_str()); }

 private:
  std::string name_;
};

}  // namespace rigbench::testing
