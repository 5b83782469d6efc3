// rigbench: what a GGUF file says about its model, read through ggml's gguf API from the
// metadata and tensor infos alone (the weights are never read, except by fingerprint()).
#pragma once

#include <string>

#include "core/record.h"
#include "core/status.h"
#include "model/gguf_file.h"

namespace rigbench::model {

// Inspects the GGUF file at `path` and fills every ModelInfo field:
//   path        stored_path(path): where the file is on this machine, from any folder
//   name        model_file_name (core/model_name.h): the file name without ".gguf"; a synthetic
//               file: GGUF general.name (its preset's name)
//   arch        GGUF general.architecture
//   n_params    sum of ggml_nelements over the tensor infos
//   size_bytes  file size (stat)
//   file_type   GGUF general.file_type named as llama.cpp names it; when absent, the type of
//               the tensors holding most bytes (e.g. "F32")
//   fingerprint see fingerprint()
//   n_ctx_train GGUF <arch>.context_length
//   synthetic   GGUF key "rigbench.synthetic" is true
//   synthetic_values, synthetic_seed  GGUF rigbench.values and rigbench.seed of a synthetic
//               file (absent: 1 and 42, as files written before those keys were)
// Errors (each message names the file):
//   kNotFound      the file does not exist or cannot be opened
//   kInvalidInput  not a GGUF file (bad magic); unreadable metadata (corrupt);
//                  truncated (tensor data extends past the end of the file);
//                  no general.architecture key
Result<ModelInfo> inspect(const std::string& path);

// As inspect, without the fingerprint (which reads up to 64 MiB): metadata and tensor infos only.
Result<ModelInfo> inspect_header(const std::string& path);
// The same, from a header already parsed by open_gguf (no second parse).
Result<ModelInfo> inspect_header(const GgufFile& file);

// The path a record stores for a file given as `path` on this machine: absolute and canonical
// (symbolic links, "." and ".." resolved against the current folder), so that `report` and
// `compare` find it again from any folder; absolute and normalized when it cannot be resolved;
// `path` itself when not even that (no current folder).
std::string stored_path(const std::string& path);

// A fingerprint of the file's contents, "xxh64:<16 hex digits>": XXH64 of the whole file
// when it is at most 64 MiB; for larger files, of the size, the first 16 MiB (the GGUF
// header with all metadata and tensor infos, and the first tensors) and 32 chunks of
// 256 KiB spread evenly over the rest, so that a 40 GB file is fingerprinted in well
// under a second. Errors: kNotFound when the file cannot be read.
Result<std::string> fingerprint(const std::string& path);

}  // namespace rigbench::model
