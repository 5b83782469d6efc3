// rigbench: `rigbench serve-bench URL`, a running server (llama-server, Ollama, vLLM, any
// OpenAI-compatible endpoint) under load: per request TTFT, TPOT, ITL, end-to-end latency;
// per run their mean and percentiles, throughput, goodput under SLOs and errors by kind, at
// each concurrency of a list (or a Poisson request rate).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/serve_bench_options.h"
#include "core/status.h"

namespace rigbench::cli {

// Declares the subcommand and its flags (cli/serve_bench_options.h) on `app`; `opts` receives
// the parsed values.
CLI::App* add_serve_bench_command(CLI::App& app, ServeBenchOptions& opts);

// Runs the job: check the flags, read the prompt file, probe the server, open the database,
// run (measure/serve_job.h; --embeddings: measure/serve_embed_job.h), store and print (jsonl:
// each run's line as it ends; md, csv, json: at the end). Errors come back to main, which
// prints them: kUsage for a flag; kRuntime for a server that cannot be used (unreachable,
// wrong API, unknown model, 401, no stream), every request of a run failed, or the server lost;
// the files' and the database's; kInterrupted after Ctrl-C (the finished runs kept).
Status run_serve_bench_command(ServeBenchOptions& opts);

}  // namespace rigbench::cli
