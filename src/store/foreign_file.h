// rigbench: what a file given to `rigbench import` is when it holds no results import reads,
// and which subcommand takes it; and the log lines a backend printed on standard output
// before llama-bench's JSON (llama.cpp issue #15554: `ggml_vulkan: Found 1 Vulkan devices: ...`).
// Pure functions over the file's bytes or its parsed JSON; no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "store/record_json.h"

namespace rigbench::store {

// What a binary file is, from its first bytes (`head`, at least 4 of them): a GGUF model
// ("GGUF" magic) is a model, not results: the message says `rigbench bench FILE` measures
// it (`rigbench embed` an embedding model) and `rigbench fit FILE` plans its memory.
// nullopt for anything else.
std::optional<std::string> describe_binary_file(std::string_view head);

// What a JSON object that is neither a rigbench record nor a llama-bench row is: a vLLM
// benchmark result (its keys request_throughput, output_throughput, mean_ttft_ms, ...),
// rigbench fit's or cost's json, serve-bench's `-o json` object; else "a JSON object with the
// keys a, b, c, ...". Every message says which subcommand takes it, or where its runs are.
std::string describe_json_object(const Json& object);

// The lines before the JSON of a text whose first line is not JSON: a backend's log printed
// to standard output ahead of llama-bench's json or jsonl.
struct LeadingLog {
  std::size_t lines = 0;   // non-empty lines blanked (0: the text starts with JSON, or holds none)
  std::string first_line;  // the first of them, as written (at most 80 characters)
};

// Blanks, in `text`, the lines before its first line that opens JSON ("[" alone or "[{", or
// a line that starts with "{"), keeping the newlines so that line numbers stay the file's.
// Changes nothing when the first line already opens JSON, when no line does, or when a
// blanked line would be a table ("|"), so that other formats are detected as before.
LeadingLog blank_leading_log(std::string& text);

}  // namespace rigbench::store
