// rigbench: llama.cpp's file types ("ftype", GGUF general.file_type), by name.
#pragma once

#include <optional>
#include <string>

namespace rigbench::model {

// The name llama.cpp gives a GGUF general.file_type value ("F16", "Q4_K_M", ...), or
// nullopt for a value llama.cpp v0.4.0 does not define. Values are GGUF format constants
// (llama.h enum llama_ftype), kept here so that model/ needs no llama.h.
std::optional<std::string> file_type_name(uint32_t file_type);

}  // namespace rigbench::model
