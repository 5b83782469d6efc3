// rigbench: the in-process llama.cpp engine (libllama + ggml), the checks that llama.cpp can
// load a model, and the values the engine accepts (cache types, load modes). What the build
// is and sees (commit, backends, devices) is in engine/llama_build.h.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/status.h"
#include "engine/engine.h"

namespace rigbench::engine {

// Initializes llama.cpp once per process (backends, logging captured instead of printed;
// set RIGBENCH_LLAMA_LOG=1 to see llama.cpp's own log on stderr). Idempotent, thread-safe.
void init_llama();

// Only the logging half of init_llama (ggml's and llama.cpp's log captured), for a subcommand that
// reads GGUF headers but may never need a backend (fit without --check): no CPU backend set-up.
void init_llama_log();

// A llama.cpp engine. `cancel` (may be null) aborts decodes when it becomes true.
std::unique_ptr<Engine> make_llama_engine(const std::atomic<bool>* cancel);

// Checks that llama.cpp can load the model's architecture and vocabulary (a vocab-only
// load: no weights read). Errors: kInvalidInput with llama.cpp's reason, naming the file.
Status check_loadable(const std::string& path);

// Checks a run's placement against this build before anything runs: -dev names, -ot's buffer
// types and -sm (engine/llama_placement.h model_placement's checks; with --rpc, names other than
// this build's are left to the load, once the servers' devices exist). Errors (kUsage, one line):
// a device or buffer type this build lacks, naming the build that has it; -sm row/tensor where
// the run has no GPU.
Status check_placement(const BenchParams& p);

// Loads the model as llama.cpp would for inference, but with no_alloc (simulated
// allocation, no weights read): every tensor llama.cpp expects must be present with its
// shape. Works on a header-only file. Errors: kInvalidInput with llama.cpp's reason.
Status check_tensors(const std::string& path);

// KV cache types accepted for -ctk/-ctv (ggml type names, llama-bench's list).
const std::vector<std::string>& kv_cache_types();

// Load modes accepted for -lm, in llama.h's enum order: llama_load_mode_name of each
// llama_load_mode ("auto", "none", "mmap", "mlock", "mmap+mlock", "dio").
const std::vector<std::string>& load_modes();

}  // namespace rigbench::engine
