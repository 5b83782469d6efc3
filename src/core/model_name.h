// rigbench: the name a model file goes by (ModelInfo::name), decided once for `rigbench
// bench`, `embed`, `fit` and a llama-bench import, so that the same file has one name
// whoever measured it:
//
//   a GGUF file        its file name without ".gguf" ("stories260K"): what a llama-bench row
//                      names (model_filename; it has no general.name), and what the user gave;
//                      GGUF general.name is often generic ("llama", "LLaMA v2")
//   a synthetic file   its preset's name (the general.name rigbench wrote, "Llama-3.2-1B"):
//                      rigbench named the model itself
//
// A served model (serve-bench) goes by served_model_name(its id on the server): llama-server's
// id is the path it was given (-m models/x.gguf), named as bench names that file; the id itself
// is kept beside it (ServerRun::model_id). Who is who (compare's grouping)
// does not depend on the name: a model is its shape and its file's fingerprint
// (report/comparison.h). Pure: no I/O.
#pragma once

#include <string>
#include <string_view>

namespace rigbench {

// The last part of `path` ('/' or '\\' separated: llama-bench rows from Windows keep
// backslashes) without a ".gguf" extension (any case); other extensions are kept
// ("ggml-model-q4_0.bin", 2023's files).
std::string model_file_stem(std::string_view path);

// The name of the model file at `path` whose GGUF general.name is `general_name` ("" when
// absent): model_file_stem(path), or for a `synthetic` file its general.name (the stem when
// it has none).
std::string model_file_name(std::string_view path, const std::string& general_name, bool synthetic);

// The name of a model a server serves under `id`: a model file's path (llama-server's id
// without --alias: it ends in ".gguf", any case, or starts with '/' or holds a '\\') is named
// by model_file_stem; any other id (Ollama's "llama3:8b", vLLM's "org/Model", an alias) is the
// name as it is.
std::string served_model_name(std::string_view id);

}  // namespace rigbench
