// rigbench: RunRecord, the one record type that flows end to end: the same value is printed
// (report/), stored (store/), exported and imported. Field names match the JSON keys of
// `-o json`/`-o jsonl` (store/record_json.h); units are in the names.
//
// A record is one benchmark run: one model and one combination of every knob, with its
// pp, tg and TTFT results measured over the same repetitions.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/stats.h"

namespace rigbench {

// Version of the record layout; bumped when a field changes meaning or is removed.
inline constexpr int kRecordSchemaVersion = 2;

// A compute device as ggml enumerates it, or a GPU as its driver lists it (hw/describe.h).
struct DeviceInfo {
  std::string name;                 // ggml device name, e.g. "CPU", "CUDA0"; or "nvml:gpu0", "amdgpu:card0"
  std::string description;          // the GPU's model, e.g. "NVIDIA H200" (the driver's name when one lists it)
  std::string type;                 // "gpu", "igpu" or "accel"
  uint64_t memory_total_bytes = 0;  // bytes, ggml_backend_dev_memory
  uint64_t memory_free_bytes = 0;   // bytes, ggml_backend_dev_memory at detection time
};

struct MachineInfo {
  std::string hostname;               // uname nodename
  std::string cpu;                    // /proc/cpuinfo "model name" (first CPU)
  int cores = 0;                      // physical cores, from /sys/devices/system/cpu topology
  int threads = 0;                    // logical CPUs online
  uint64_t ram_bytes = 0;             // bytes, /proc/meminfo MemTotal
  std::string os;                     // /etc/os-release PRETTY_NAME
  std::string kernel;                 // uname sysname + release
  std::vector<std::string> backends;  // ggml backends compiled in (registry names)
  std::vector<DeviceInfo> gpus;       // ggml devices other than the CPU (GPUs, accelerators), then the GPUs
                                      // a driver lists that ggml does not see ("nvml:gpuN", "amdgpu:cardN");
                                      // hw/describe.h
};

struct BuildInfo {
  std::string rigbench_version;  // CMake project version
  std::string llama_cpp_commit;  // commit of the llama.cpp sources built against
  std::string llama_cpp_source;  // "bundled" (third_party/llama.cpp) or "system"
  std::string build_type;        // CMAKE_BUILD_TYPE of rigbench
};

struct ModelInfo {
  std::string path;          // bench, embed: absolute, canonical (model::stored_path) of the file given on the command
                             // line or the embedded default; records of earlier builds kept it as typed (maybe
                             // relative); imports: llama-bench's model_filename, a path on the machine that ran it
  std::string name;          // core/model_name.h: the file's name without .gguf (a synthetic file: its preset's
                             // name, GGUF general.name), bench, embed and imports alike; serve-bench: the server's
                             // model id; records of earlier builds: GGUF general.name
  std::string arch;          // GGUF general.architecture
  uint64_t n_params = 0;     // sum of the elements of every tensor, from GGUF tensor info
  uint64_t size_bytes = 0;   // bytes, file size on disk
  std::string file_type;     // GGUF general.file_type as llama.cpp names it (e.g. "Q4_K_M")
  std::string fingerprint;   // "xxh64:<16 hex>", see model::fingerprint()
  uint32_t n_ctx_train = 0;  // GGUF <arch>.context_length (0 when absent)
  bool synthetic = false;    // true for a file rigbench generated with random weights
  // For synthetic files: the values recipe (GGUF rigbench.values; absent = 1, files before it)
  // and the seed (rigbench.seed; absent = 42, the only seed before --seed). 0 otherwise.
  uint32_t synthetic_values = 0;
  uint64_t synthetic_seed = 0;
};

// Every setting of one run. Values are those actually used (defaults resolved). The knobs
// among them (what the user chooses per run: threads, batch sizes, KV types, ...) are
// declared, with their flags, keys and accepted values, in core/knobs.h.
struct BenchParams {
  int n_prompt = 512;     // tokens in the timed prompt (pp); 0 = no pp test
  int n_gen = 128;        // tokens generated in the timed tg test; 0 = no tg test
  int n_depth = 0;        // tokens already in the KV cache before each timed test
  int n_batch = 2048;     // logical batch size (llama_decode call size)
  int n_ubatch = 512;     // physical batch size
  int n_threads = 0;      // threads for both pp and tg
  int n_gpu_layers = -1;  // layers offloaded; -1 = all
  std::string load_mode =
      "auto";  // load mode asked for (-lm): auto, none, mmap, mlock, mmap+mlock, dio; auto is llama.cpp's choice
  std::string flash_attn = "auto";  // "auto", "on" or "off"
  std::string type_k = "f16";       // KV cache K type, ggml type name
  std::string type_v = "f16";       // KV cache V type, ggml type name
  int poll = 50;                    // ggml threadpool polling level, 0-100 (llama-bench --poll)
  int cpu_strict = 0;               // 1 = pin each ggml thread to its own CPU (llama-bench --cpu-strict)
  int n_ctx = 0;                    // context size created (-c; 0 asked = n_depth + n_prompt + n_gen)
  // Where llama.cpp puts weights, KV cache and ops (llama-bench's -ncmoe, -sm, -mg, -nkvo,
  // -dev, -ot, -nopo; llama-server's -cmoe); the defaults are llama.cpp's.
  int n_cpu_moe = 0;                           // MoE blocks 0..N-1 whose expert weights stay in host RAM (-ncmoe)
  int cpu_moe = 0;                             // 1 = every MoE expert weight in host RAM (-cmoe)
  std::string split_mode = "layer";            // how layers are split over GPUs: none, layer, row, tensor (-sm)
  int main_gpu = 0;                            // the GPU of split_mode none (-mg)
  int no_kv_offload = 0;                       // 1 = the KV cache stays in host RAM (-nkvo)
  std::string devices = "auto";  // ggml devices used, '/'-separated ("Vulkan0/Vulkan1"); "auto" = every one, "none" = CPU (-dev)
  std::string tensor_split = "0.00";           // share per GPU as llama-bench prints it ("0.00" = by free memory) (-ts)
  std::string rpc = "none";  // rpc-servers whose devices take part, "HOST:PORT,..." (--rpc); "none" = local devices only
  std::string tensor_buft_overrides = "none";  // tensor buffer type overrides, "pattern=BUFT;..." (-ot)
  int no_op_offload = 0;                       // 1 = ops on host tensors are not offloaded (-nopo)
  // Knobs that llama-bench records and rigbench bench does not set (core/knobs.h: no flag):
  // rigbench runs at llama.cpp's defaults, which are these; an imported row keeps its own.
  std::string cpu_mask = "0x0";                // CPU affinity mask, hex (-C)
  std::string lazy_mode = "auto";              // llama.cpp's lazy weight loading: off, auto, on (-lzm)
  int embeddings = 0;                          // 1 = the context computes embeddings (-embd)
  int no_host = 0;                             // 1 = no host buffer for offloaded weights (--no-host)
  int fit_target = 0;                          // llama.cpp's --fit target margin, MiB (0 = off)
  int fit_min_ctx = 0;                         // llama.cpp's --fit smallest context (0 = off)
  int mul_mat_q = 1;    // 2023 builds' -mmq: 1 = quantized matrix kernels (today always where they exist)
  int repetitions = 5;  // repetitions asked for (results hold those finished)
  int warmup = 1;       // warmup passes before the repetitions (one pp + one 1-token tg each)
  double delay_s = 0;   // seconds slept before the run (cool-down)
};

// Throughput of one test (pp or tg) over the repetitions.
struct ThroughputResult {
  int n_tokens = 0;                 // tokens per sample
  std::vector<int64_t> samples_ns;  // ns per sample, steady clock around the timed region
  std::vector<double> samples_tps;  // tokens/s per sample = 1e9 * n_tokens / samples_ns
  Summary tps;                      // statistics of samples_tps (p50 = median, p90, p95, p99)
  // tg only: every generated token's latency (its decode, synchronized), ns, the repetitions
  // one after another (n_tokens per repetition); empty for pp and for sources that kept none.
  std::vector<int64_t> itl_ns;
  Summary itl_ms;  // statistics of itl_ns in milliseconds (inter-token latency)
  // True when the source kept statistics only, not the samples (llama-bench csv and sql):
  // samples are empty; tps.mean and tps.stddev are the source's avg_ts and stddev_ts, tps.n
  // the repetitions (0 when the source does not say), median, min and max NaN.
  bool summary_only = false;
};

// Time to first token: prompt processed and the first token sampled (greedy, from the
// logits of the last prompt token), per repetition.
struct LatencyResult {
  std::vector<int64_t> samples_ns;  // ns per sample
  Summary ms;                       // statistics in milliseconds
};

// Embedding throughput at one batch size (`rigbench embed -b`): every query of the set
// embedded in calls of `batch_size` texts, one sample per pass over the set.
struct EmbedThroughput {
  int batch_size = 0;               // texts per llama.cpp call
  int n_texts = 0;                  // texts per sample (the query set)
  int n_tokens = 0;                 // tokens per sample (the query set, tokenized)
  std::vector<int64_t> samples_ns;  // ns per pass over the set, steady clock
  Summary texts_per_s;              // statistics of n_texts / sample
  Summary tokens_per_s;             // statistics of n_tokens / sample
};

// `rigbench embed`: single-query latency at batch 1 and throughput per batch size, with the
// model's own pooling. An encoder's record has no pp, tg or TTFT.
struct EmbeddingResult {
  std::string pooling;                      // llama.cpp's pooling of the model: mean, cls, last, rank
  std::string query_set;                    // "builtin" or the --queries file as given
  int n_queries = 0;                        // queries in the set
  int n_query_tokens = 0;                   // their tokens, summed
  LatencyResult latency;                    // one sample per query and repetition, batch 1
  std::vector<EmbedThroughput> throughput;  // one per -b value, in order
};

// One prompt of a prompt suite (`bench --prompts`), measured over the suite's runs.
struct PromptResult {
  std::string id;           // the prompt's id in the suite file
  std::string category;     // e.g. "code", "chat"
  int n_prompt_tokens = 0;  // tokens of the prompt after the chat template, as tokenized
  int n_gen_asked = 0;      // output length asked
  // Per run of the suite (index = run):
  std::vector<int> n_generated;         // tokens generated (fewer than asked at end of generation)
  std::vector<int64_t> prefill_ns;      // prompt decoded (synchronized)
  std::vector<int64_t> ttft_ns;         // prompt decoded and the first token sampled
  std::vector<int64_t> gen_ns;          // the generated tokens after the first, each decoded and sampled
  std::vector<std::vector<int64_t>> itl_ns;  // each generated token's latency after the first, ns
};

// Statistics of one prompt's runs, or of a set of prompts (core/suite_stats.h).
struct SuiteFigures {
  Summary gen_tps;  // generation tokens/s (per prompt: median over runs; over prompts: of those medians)
  Summary ttft_ms;  // TTFT, ms
};

// A prompt suite run (`bench --prompts`): the prompts' own text, not random tokens.
struct SuiteResult {
  std::string name;          // "builtin" or the file's name
  std::string hash;          // "xxh64:<16 hex>" of the suite's content: two suites of one name never pool
  int runs = 0;              // runs of the whole suite finished (-r)
  bool ignore_eos = false;   // --ignore-eos: every prompt generated its asked length
  std::vector<PromptResult> prompts;
};

struct Results {
  std::optional<ThroughputResult> pp;
  std::optional<ThroughputResult> tg;
  std::optional<LatencyResult> ttft;
  std::optional<EmbeddingResult> embedding;  // rigbench embed only
  std::optional<SuiteResult> suite;  // `bench --prompts`: then pp, tg and ttft are absent
};

// Memory that llama.cpp allocated, per buffer type, from llama_get_memory_breakdown().
struct BufferMemory {
  std::string device;          // ggml device of the buffer type ("CPU", "CUDA0", ...)
  std::string buffer_type;     // ggml buffer type name ("CPU", "CPU_REPACK", "CUDA0_Host", ...)
  uint64_t model_bytes = 0;    // bytes, weights
  uint64_t context_bytes = 0;  // bytes, KV cache and recurrent state
  uint64_t compute_bytes = 0;  // bytes, compute (scheduler) buffers
};

struct MemoryInfo {
  std::vector<BufferMemory> buffers;
  uint64_t peak_rss_bytes = 0;  // bytes, process peak resident set (getrusage ru_maxrss) after the run
};

// The roofline bound on tg for this run on this machine (fit/planner.h): labelled a bound,
// never a measurement.
struct Roofline {
  double tg_bound_tps = 0;       // tokens/s <= bandwidth / bytes per token; 0 = unknown. A split
                                 // run (bench --rpc): 1 / (1 / memory_bound_tps + network_ms_per_token / 1000)
  double bandwidth_gbps = 0;     // GB/s, this machine's device bandwidth as fit::this_machine has it: the
                                 // RAM's measured read bandwidth (hw probe) on a machine without a GPU,
                                 // 0 (unknown) with one; a split run keeps the same figure, which its
                                 // bound also assumes for each rpc-server's devices (a server reports none)
  uint64_t bytes_per_token = 0;  // bytes read per generated token at n_depth
  uint64_t estimate_bytes = 0;   // fit's estimate of the run's memory (weights, KV, compute, output)
  // A split run only (fit::SplitPlan; 0 otherwise): the two terms of its bound.
  double memory_bound_tps = 0;      // tokens/s, the devices' and the host's memory alone
  double network_ms_per_token = 0;  // ms a token the link adds: hops x round trip + bytes at the link's Gb/s
};

inline constexpr double kUnmeasured = std::numeric_limits<double>::quiet_NaN();  // JSON null

// Energy of one timed phase (pp or tg) over all repetitions, summed over the domains that
// could be read.
struct PhaseEnergyInfo {
  double duration_s = 0;             // seconds inside the phase, all repetitions
  double energy_j = kUnmeasured;     // joules
  double power_w = kUnmeasured;      // average watts = energy_j / duration_s
  double j_per_token = kUnmeasured;  // joules per token of the phase (pp: prompt, tg: generated)
  // Seconds since the Unix epoch (system clock) of the phase's first window start and last
  // window end: the span the windows lie in (duration_s covers the windows alone, not the
  // gaps between repetitions). From the sampler's reads (power::PhaseEnergy); NaN (JSON
  // null) when unknown, as in records of earlier builds.
  double start_unix_s = kUnmeasured;
  double end_unix_s = kUnmeasured;
};

// Energy while the run measured (`--energy auto`); every figure carries how it was obtained.
struct EnergyInfo {
  std::string method =
      "unavailable";                 // counter | integrated | estimated | stated | unavailable (several: joined by '+')
  std::vector<std::string> meters;   // meter kinds read ("rapl", "nvml", "constant", ...)
  std::vector<std::string> domains;  // domains summed ("rapl:package-0", "nvml:gpu0", ...)
  double idle_power_w = kUnmeasured;  // W, median over the idle window with the model loaded
  double idle_s = 0;                  // seconds of the idle window
  double sample_rate_hz = 0;          // meter reads per second
  std::optional<PhaseEnergyInfo> pp, tg;
  // Power over the run (idle window, warmup, repetitions), at most 240 points:
  // (seconds since the sampler started, watts).
  std::vector<std::pair<double, double>> power_trace;
  std::vector<std::string> notes;  // why a domain is missing, what was not counted, each flag's cause
  // Doubts about the figures, short codes, each once (docs/energy.md): below_update_period,
  // coarse, sources_disagree, gap, idle_above_active, idle_stated.
  std::vector<std::string> flags;
};

// Electricity (and hardware) per million generated tokens, from tg's energy (cost/estimate.h).
struct CostInfo {
  std::string currency;                          // e.g. "EUR"
  double price_per_kwh = kUnmeasured;            // flat price or the tariff's hour-weighted mean
  double gross_per_mtok = kUnmeasured;           // e = E/N
  double marginal_per_mtok = kUnmeasured;        // e = (E - P_idle T)/N
  double utilization = kUnmeasured;              // --utilization
  double at_utilization_per_mtok = kUnmeasured;  // gross + idle share at that utilization
  double hardware_per_mtok = kUnmeasured;        // amortization at that utilization
  double total_per_mtok = kUnmeasured;           // electricity at utilization + hardware
  std::vector<std::string> notes;
};

// How the repetitions were decided and whether the result is as tight as asked (bench's
// -r auto, core/repetitions.h). The interval itself is derived from the samples
// (core/significance.h mean_interval: `ci95_*` beside each throughput in JSON).
struct Precision {
  std::string repetitions_mode = "fixed";  // "auto" (-r auto: until the interval is tight) or "fixed" (-r N)
  double ci_target_pct = kUnmeasured;      // --ci-target: ± % of the mean asked of the 95 % interval
  double max_time_s = kUnmeasured;         // --max-time: -r auto's budget per test, seconds (NaN with -r N)
  bool reached = false;                    // every measured t/s (pp, tg) has its 95 % interval within the target
  std::string stopped_by;  // why the repetitions ended: count (-r N), target, max_time, cap, interrupted; "" = unknown
};

// A reason to doubt a run's figures, seen while it ran (measure/noise.h), with what to do.
struct NoiseNote {
  std::string code;    // outliers, first_repetition, high_cv, drift, machine_busy, steal, governor, thermal_throttle, ...
  std::string phase;   // "pp", "tg" or "" (the whole run)
  std::string text;    // what was seen, with the numbers; never the phase (noise_note_text in core/noise_note.h
                       // writes "phase: text; remedy" for people)
  std::string remedy;  // what to do about it
};

// A run of `rigbench serve-bench`: a server under load, measured from the client. The server
// (its URL without credentials, software, version), the API and the load (concurrency, rate)
// are part of the run's identity (compare and report keep them apart). Per request TTFT,
// TPOT, ITL and E2E are summarized here; Results::ttft holds the TTFT samples and
// Results::tg the run's one tg figure, output_tps as one sample of n_gen tokens
// (measure::served_tg; records of earlier builds: one sample per request, 1000 / TPOT).
struct ServerRun {
  std::string url;       // scheme://host:port/path, never credentials
  std::string software;  // "llama.cpp", "ollama", "" unknown
  std::string version;   // as the server states it ("b7090-80fb11ac", "0.5.1"), "" unknown
  std::string api;       // "openai-chat", "openai-completions", "ollama-generate", "ollama-chat"
  std::string model_id;  // the model's id on the server, as requests name it (ModelInfo::name is
                         // core/model_name.h served_model_name of it); "" in records before it
  int concurrency = 1;   // workers (closed loop), or the most in flight under a rate
  double rate_rps = 0;   // requests/s asked (open loop); 0 = closed loop; infinity (JSON "inf") = all at once
  double burstiness = 1;  // the open loop's gamma shape: 1 Poisson, infinity even gaps (JSON "inf")
  int prefix_tokens = 0;  // tokens of the shared prefix before random prompts (serve-bench --prefix-tokens)
  double prefix_share = 1;  // the share of the prompts that carry it, 0..1 (--prefix-share; 1 in older records)
  // A replayed trace (--trace FILE, as given; "" none): each request at its time divided by
  // trace_scale (--trace-scale), of its input and output lengths.
  std::string trace;
  double trace_scale = 1;
  uint64_t seed = 0;      // the seed of the job's prompts, prefix and arrivals (--seed repeats them)
  int requests = 0;      // counted requests that ended (warm-up excluded)
  int completed = 0;
  int failed = 0;
  std::vector<std::pair<std::string, int>> errors;  // by kind: refused, http_status, malformed_stream, cut_mid_stream, timeout
  std::string first_error;                          // the first failure's message, one line ("" none)
  double duration_s = 0;
  Summary ttft_ms, tpot_ms, itl_ms, e2e_ms;  // over completed requests; itl over every gap
  // To the first content token (a reasoning model's TTFT is to its first reasoning token);
  // over completed requests that streamed content; n = 0 none (records before it too).
  Summary ttft_content_ms;
  // Multi-turn chats (serve-bench --turns, --think-time; 1 and 0 otherwise): TTFT of the turns
  // after the first (each re-sends its history: the server's prompt cache decides it), beside
  // ttft_ms over every turn; n = 0 without later turns.
  int turns = 1;
  double think_time_s = 0;
  Summary ttft_later_turns_ms;
  int load_replies = 0;  // Ollama's replies to a model load/unload (done_reason "load"/"unload"): not requests
  // Input tokens: NaN when no completed request's input was known (the server reported none
  // and the client did not count them); total_tps then NaN too.
  double input_tokens_mean = 0, output_tokens_mean = 0;
  double request_throughput_rps = 0, output_tps = 0, total_tps = 0;
  std::string slo;                // as given ("ttft_ms=500,tpot_ms=50"), "" none
  double goodput_rps = 0;         // completed requests meeting the SLO per second (all completed when none)
  int output_short = 0;           // requests whose output tokens != n_gen (the server did not honour the length)
  // The server's own timings where it reported them (llama-server `timings`, Ollama's
  // durations): its generation rate beside the client's over the same requests, each a ratio
  // of sums (server sum(predicted_n) / sum(predicted_ms), client sum(output tokens - 1) /
  // sum(E2E - TTFT), tokens/s: measure/serve_metrics.h), and its prompt time; NaN when it did
  // not report.
  double server_tg_tps = std::numeric_limits<double>::quiet_NaN();
  double client_tg_tps = std::numeric_limits<double>::quiet_NaN();
  double server_prompt_p50_ms = std::numeric_limits<double>::quiet_NaN();
  // More of the server's own figures, over the completed requests that carry them (NaN none):
  // its prompt rate, a ratio of sums (sum(prompt_n) / sum(prompt_ms), tokens/s: prompt_n is
  // what it evaluated, not what its prompt cache gave); per request, the prompt tokens it
  // evaluated and those its cache gave (llama-server's timings.prompt_n, cache_n; Ollama's
  // prompt_eval_count); the share of drafted tokens accepted (llama-server's
  // draft_n_accepted / draft_n, %, speculative decoding); Ollama's load_duration median (ms;
  // a model load, never inside warm TTFT figures: the warm-up takes it).
  double server_prompt_tps = std::numeric_limits<double>::quiet_NaN();
  double server_prompt_n_mean = std::numeric_limits<double>::quiet_NaN();
  double server_cache_n_mean = std::numeric_limits<double>::quiet_NaN();
  double server_draft_accepted_pct = std::numeric_limits<double>::quiet_NaN();
  double server_load_p50_ms = std::numeric_limits<double>::quiet_NaN();
  // A capacity sweep's run (serve-bench --capacity, measure/capacity.h): the load it varies
  // ("concurrency", "rate"; "" a plain list of runs), whether this run met the SLO's
  // percentiles (1 met, 0 missed, -1 not judged) and what missed ("TTFT p95 was 3.4 s"); on
  // the sweep's last run its one-line answer and the capacity found (concurrent requests or
  // req/s; 0 when no load met it), "" / NaN on the others.
  std::string sweep;
  int slo_met = -1;
  std::string slo_miss;
  std::string capacity;
  double capacity_load = std::numeric_limits<double>::quiet_NaN();
  // % of one core: the client's own CPU time (rigbench's process, getrusage) over the counted
  // requests' wall time; near 100 the client, not the server, set the pace. NaN unmeasured.
  double client_cpu_pct = std::numeric_limits<double>::quiet_NaN();
};

// One device that held layers of a split run (`bench --rpc`): a remote rpc-server's device as
// the server reported it before the run, or a local one; and the layers llama.cpp gave it
// (its load_tensors placement).
struct TopologyDevice {
  std::string endpoint;             // the rpc-server's "HOST:PORT"; "" for a device of this machine
  std::string device;               // ggml device name ("RPC0", "CPU", "CUDA0")
  uint64_t memory_total_bytes = 0;  // bytes, ggml_backend_dev_memory before the run (remote: the server's answer)
  uint64_t memory_free_bytes = 0;   // bytes, likewise
  int n_layers = 0;                 // repeating layers placed on it
  bool output_layer = false;        // the output layer (and its norm) too
  double rtt_ms = kUnmeasured;      // ms, remote only: median of 5 round trips, measured before the first run
};

struct RunRecord {
  int schema_version = kRecordSchemaVersion;
  std::string record_id;  // 32 hex digits, random; identity for deduplication on import
  std::string test_time;  // UTC, ISO 8601 with seconds ("2026-11-29T14:08:04Z"), run start
  MachineInfo machine;
  BuildInfo build;
  ModelInfo model;
  BenchParams params;
  std::vector<std::string> devices_used;  // ggml devices holding the model's layers
  std::vector<TopologyDevice> topology;   // bench --rpc: every device that held layers (empty for a local run)
  Results results;
  MemoryInfo memory;
  Roofline roofline;
  EnergyInfo energy;
  std::optional<CostInfo> cost;   // present when a price (or tariff) was given
  Precision precision;            // bench: the stopping rule and whether the interval reached its target
  std::vector<NoiseNote> noise;   // bench: outliers, a busy machine, a governor, throttling (empty = none seen)
  bool interrupted = false;       // true when SIGINT cut the run short (results hold finished samples)
  std::string refused;            // why the run was not attempted ("will not fit this machine: ..."); "" = it ran
  std::string failed;             // why the run failed once started (load, context, decode error); "" = it did not
  std::vector<std::string> tags;  // --tag values; a tune trial's "tune:<id>" (kTuneTagPrefix) and "tune_round:N"
  // Fields the source recorded that no field above holds (an import's: llama-bench's
  // build_number, fields of llama-bench versions other than v0.4.0), by the source's name, as
  // text. Those that are knobs (core/knobs.h is_source_knob) are part of compare's key.
  std::map<std::string, std::string> source_fields;
  std::optional<ServerRun> server;  // present for `serve-bench` runs (no in-process engine ran)
  // How many stored runs this record stands for: 1, except in a reader's pooled view
  // (store::Pooling::kRepetitions, compare and report), where the runs of one setup with the
  // same figures are one record holding all their samples (record_id the first stored run's,
  // test_time the latest run's, first_test_time the earliest's). Never written to JSON nor the database.
  int runs = 1;
  // A pooled record's runs span first_test_time .. test_time: test_time is when the
  // configuration was last measured (what "latest" picks by, as the runs one by one would),
  // first_test_time when it was first (what the regressions order builds by). "" for a record
  // that is one run (its test_time is both). Never written to JSON nor the database.
  std::string first_test_time;
};

// The tag a `rigbench tune` trial's record carries ("tune:<tune id>", measure/tune.cpp).
inline constexpr std::string_view kTuneTagPrefix = "tune:";

// Whether `r` is a tune trial (one of many candidates raced, not a run a user chose).
inline bool is_tune_trial(const RunRecord& r) {
  for (const std::string& t : r.tags) {
    if (t.starts_with(kTuneTagPrefix)) return true;
  }
  return false;
}

// How a run ended, derived from the record: "refused" (not attempted), "failed" (an error
// after it started; results hold what finished), "interrupted" (Ctrl-C) or "ok".
inline const char* run_status(const RunRecord& r) {
  if (!r.refused.empty()) return "refused";
  if (!r.failed.empty()) return "failed";
  if (r.interrupted) return "interrupted";
  return "ok";
}

}  // namespace rigbench
