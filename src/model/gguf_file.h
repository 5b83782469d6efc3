// rigbench: one parse of a GGUF file's header (metadata and tensor infos), shared by every
// reader of it (model::inspect_header, model::read_shape, model::check_model_file): the header
// of a large model holds a vocabulary of 100k+ strings, and parsing it is most of `fit`'s time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"

struct gguf_context;

namespace rigbench::model {

struct GgufFile {
  std::string path;
  uint64_t size_bytes = 0;                                   // the file's size (stat)
  std::shared_ptr<const gguf_context> ctx;                   // the parsed header; never null

  const gguf_context* get() const { return ctx.get(); }
};

// Opens and parses the GGUF header at `path` once: the file is mapped and ggml's gguf parser
// reads the header from memory (no stdio call per key or string); where mapping fails, it reads
// through stdio. Errors (each names the file as "model 'PATH'"):
//   kNotFound      no such file; cannot reach it; cannot stat or open it
//   kInvalidInput  a directory; not GGUF (no magic); corrupt or truncated metadata or tensor infos
Result<GgufFile> open_gguf(const std::string& path);

}  // namespace rigbench::model
