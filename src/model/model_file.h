// rigbench: the one validation of a model file, for every subcommand that takes one (bench,
// fit, ...): what is wrong with the file, in one line that names it, before anything runs.
#pragma once

#include <string>

#include "core/record.h"
#include "core/status.h"
#include "model/model_shape.h"

namespace rigbench::model {

struct ModelFile {
  ModelInfo info;    // model::inspect's fields (fingerprint only when asked)
  ModelShape shape;  // model::read_shape's
};

// Checks the file at `path` and reads what it says. Errors, each one line naming the file as
// "model 'PATH': ...":
//   kNotFound      no such file; cannot be opened
//   kInvalidInput  a directory; empty (0 bytes); not GGUF (no magic); corrupt metadata or
//                  tensor infos; truncated (tensor data past the end of the file); no
//                  general.architecture; an unknown architecture (no <arch>.block_count); a
//                  shape key missing or absurd (0 layers, a zero dimension); a vision projector
//                  (architecture "clip": "PATH is a vision projector (clip); pass it with --mmproj")
// `with_fingerprint`: also fill info.fingerprint (model::fingerprint; reads up to 64 MiB).
// What llama.cpp itself thinks of the file (vocabulary, tensors) is the engine's
// check_loadable, which a subcommand that loads the model runs after this.
Result<ModelFile> check_model_file(const std::string& path, bool with_fingerprint = false);

}  // namespace rigbench::model
