// rigbench: a file's whole content, for the readers of small text inputs (prompt files,
// traces, query sets, published results, report assets). Each reader words its own error,
// naming its flag or file; this only reads.
#pragma once

#include <optional>
#include <string>

namespace rigbench::hw {

// The bytes of the file at `path`, as they are (no newline or encoding handling); nullopt when
// it cannot be read: missing, a directory, not permitted, or a read error part way.
std::optional<std::string> read_file_text(const std::string& path);

}  // namespace rigbench::hw
