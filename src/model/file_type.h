// rigbench: llama.cpp's file types ("ftype", GGUF general.file_type), by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rigbench::model {

// The name llama.cpp gives a GGUF general.file_type value ("F16", "Q4_K_M", ...), or
// nullopt for a value llama.cpp v0.4.0 does not define. Values are GGUF format constants
// (llama.h enum llama_ftype), kept here so that model/ needs no llama.h.
std::optional<std::string> file_type_name(uint32_t file_type);

// The general.file_type value for a llama.cpp type name ("Q4_K_M", case-insensitive), or
// nullopt for a name llama.cpp v0.4.0 does not define.
std::optional<uint32_t> file_type_from_name(const std::string& name);

// Every file type name, in value order (for messages and --help).
std::string file_type_names();

}  // namespace rigbench::model
