// rigbench: a run's settings as the command lines of llama.cpp's own tools and Ollama's
// Modelfile, so that what rigbench measured (tune's winner, a bench row) can be used as it is.
// Spellings are those of the pinned release (v0.4.0): llama-server and llama-cli read
// common/arg.cpp's flags, llama-bench its own (tools/llama-bench), Ollama its Modelfile
// PARAMETERs and server environment. Only settings off each tool's default are written, but
// the threads and the context, which every tool defaults by its own rule.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/record.h"

namespace rigbench {

struct LlamaCommands {
  std::string server;  // llama-server -m MODEL -c N -np N ... (what a server of the run's settings needs)
  std::string cli;     // llama-cli -m MODEL -c N ...
  std::string bench;   // llama-bench -m MODEL -p P -n N [-d D] ... (the run's test)
  // Ollama: Modelfile PARAMETERs that map (num_thread, num_batch, num_gpu, num_ctx), then the
  // server's environment for what Ollama sets there (OLLAMA_FLASH_ATTENTION, OLLAMA_KV_CACHE_TYPE,
  // OLLAMA_NUM_PARALLEL); settings Ollama has no word for are named in `ollama_unmapped`.
  std::vector<std::pair<std::string, std::string>> ollama_parameters;
  std::vector<std::pair<std::string, std::string>> ollama_environment;
  std::vector<std::string> ollama_unmapped;  // knob keys with no Ollama equivalent, off their default
};

// The commands for `p` (a run's settings; p.n_ctx the context, tokens) on `model_path`, with
// `n_parallel` server slots (llama-server's -np, Ollama's OLLAMA_NUM_PARALLEL; the context is
// the whole KV cache, shared by the slots: each gets n_ctx / n_parallel unless -kvu). A path
// with spaces or shell characters is single-quoted. `gpu`: whether the machine that ran `p` has
// a GPU to offload to; without one the lines carry no -ngl (every layer ran on the CPU, and
// "-ngl all" read as advice to offload on a machine without a GPU).
LlamaCommands llama_commands(const BenchParams& p, const std::string& model_path, int n_parallel, bool gpu = true);

// The arguments of LlamaCommands::server, one element each and unquoted, without the program
// name: "-m", model_path, "-c", N, "-np", n_parallel, then the knobs off their default (and
// -t, -ngl as that line has them): what `rigbench tune --objective serve` starts llama-server with.
std::vector<std::string> llama_server_args(const BenchParams& p, const std::string& model_path, int n_parallel);

// The keys of the knobs (core/knobs.h) off their default in `p` that the llama-server line does
// not carry (e.g. rpc, no_host, embeddings, cpu_mask): a server started from that line would
// not run as `p` asks. The test's own tokens and depth are not knobs of a server and are
// never listed. Empty: the line carries every setting.
std::vector<std::string> llama_server_unmapped(const BenchParams& p);

}  // namespace rigbench
