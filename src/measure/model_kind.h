// rigbench: the refusals of a model kind, one place for the measuring subcommands: `bench`
// refuses an encoder (it generates nothing; `embed` measures it) and `embed` refuses a
// generative model whose GGUF declares no pooling (`bench` measures it). Both read the GGUF
// header through a vocab-only load (engine::read_embed_model), no weights.
#pragma once

#include <string>

#include "core/status.h"

namespace rigbench::measure {

// `bench`'s one-line refusal of an encoder (a model that cannot generate: pp, tg and TTFT do
// not apply), naming `rigbench embed PATH`; "" when `path` is not one. Errors: kInvalidInput
// with llama.cpp's reason for a file it cannot read.
Result<std::string> bench_refusal_for_encoder(const std::string& path);

// `embed`'s check that `path` is an embedding model (its GGUF declares a pooling type; an
// encoder or a decoder-based embedding model). Errors: kUsage "model 'PATH': not an embedding
// model ..." naming `rigbench bench PATH`; kInvalidInput for a file llama.cpp cannot read.
Status check_embedding_model(const std::string& path);

}  // namespace rigbench::measure
