// rigbench: the one error type of rigbench's APIs.
//
// Every fallible function returns Status (no value) or Result<T> (a value or an Error).
// Adapters translate errno, sqlite3 codes, llama.cpp nulls and library exceptions into an
// Error once, at the boundary; nothing throws across module boundaries. `main` prints the
// final error line and maps the code to the process exit code (see exit_code()).
#pragma once

#include <expected>
#include <string>
#include <utility>

namespace rigbench {

enum class ErrorCode {
  kUsage,         // bad flag or flag value: exit 2
  kNotFound,      // a named input (file, run, preset) does not exist: exit 1
  kInvalidInput,  // an input exists but is malformed (not GGUF, truncated, unknown arch): exit 1
  kRuntime,       // something failed while running (decode failed, database error): exit 1
  kInterrupted,   // SIGINT arrived; partial results were kept: exit 130
};

struct Error {
  ErrorCode code = ErrorCode::kRuntime;
  // One line, naming the input and what is wrong, e.g. "model 'x.gguf': not a GGUF file".
  std::string message;
};

template <typename T>
using Result = std::expected<T, Error>;
using Status = std::expected<void, Error>;

inline std::unexpected<Error> fail(ErrorCode code, std::string message) {
  return std::unexpected<Error>(Error{code, std::move(message)});
}

// The process exit code for an error: 2 usage, 130 interrupted, 1 otherwise.
inline int exit_code(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUsage: return 2;
    case ErrorCode::kInterrupted: return 130;
    default: return 1;
  }
}

}  // namespace rigbench
