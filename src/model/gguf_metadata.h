// rigbench: the GGUF metadata llama.cpp reads for a preset: hyperparameters under the
// architecture's prefix, and a tokenizer.
#pragma once

#include <cstdint>
#include <string>

#include "model/preset.h"

struct gguf_context;

namespace rigbench::model {

// Sets general.*, rigbench.* and <arch>.* keys of `p` on `ctx` (GGUF key names as in
// llama.cpp's llama-arch.cpp). `file_type` goes to general.file_type.
void set_model_metadata(gguf_context* ctx, const Preset& p, uint32_t file_type);

// Sets tokenizer.* keys: copied from `vocab_dir`/p.vocab_file when that file exists and has
// at most p.n_vocab tokens (padded with unused tokens to p.n_vocab), else a generated
// SentencePiece-style vocabulary of p.n_vocab tokens. Returns what it did, for people.
std::string set_tokenizer(gguf_context* ctx, const Preset& p, const std::string& vocab_dir);

}  // namespace rigbench::model
