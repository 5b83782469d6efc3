// rigbench: the in-process llama.cpp engine (libllama + ggml), and what the build knows
// about llama.cpp: backends, devices, cache types, commit.
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

// A llama.cpp engine. `cancel` (may be null) aborts decodes when it becomes true.
std::unique_ptr<Engine> make_llama_engine(const std::atomic<bool>* cancel);

// Checks that llama.cpp can load the model's architecture and vocabulary (a vocab-only
// load: no weights read). Errors: kInvalidInput with llama.cpp's reason, naming the file.
Status check_loadable(const std::string& path);

// Loads the model as llama.cpp would for inference, but with no_alloc (simulated
// allocation, no weights read): every tensor llama.cpp expects must be present with its
// shape. Works on a header-only file. Errors: kInvalidInput with llama.cpp's reason.
Status check_tensors(const std::string& path);

// Fills machine.backends (ggml backend registry names) and machine.gpus (every ggml device
// but the CPU, with memory from ggml_backend_dev_memory).
void describe_backends(MachineInfo& machine);

// KV cache types accepted for -ctk/-ctv (ggml type names, llama-bench's list).
const std::vector<std::string>& kv_cache_types();

// Load modes accepted for -lm, in llama.h's enum order: llama_load_mode_name of each
// llama_load_mode ("auto", "none", "mmap", "mlock", "mmap+mlock", "dio").
const std::vector<std::string>& load_modes();

// The llama.cpp commit the binary was built against: the full hash known at configure time,
// else ggml_commit() (short).
std::string llama_commit();

}  // namespace rigbench::engine
