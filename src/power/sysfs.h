// rigbench: reading small attribute files (sysfs, procfs) with the errno kept, so that a
// meter can say "permission denied" rather than "cannot read". No parsing beyond numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "core/strings.h"  // errno_text, for the errors of these reads

namespace rigbench::power {

// The contents of a file (the first `max_bytes` and a little more at most), trailing
// whitespace removed. Errors: the errno of open() or read() (ENOENT, EACCES, ...).
std::expected<std::string, int> read_attribute(const std::string& path, std::size_t max_bytes = 65536);

// The file's contents as a decimal unsigned integer (sysfs counters: energy_uj, power1_input).
// Errors: the errno of the read, or EINVAL when the text is not a number.
std::expected<uint64_t, int> read_u64_attribute(const std::string& path);

// Names of the entries of a directory (no "." or ".."), sorted. Errors: errno of opendir().
std::expected<std::vector<std::string>, int> list_directory(const std::string& path);

}  // namespace rigbench::power
