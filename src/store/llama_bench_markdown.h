// rigbench: llama-bench's markdown table (its default output, `-o md`) as people paste it
// into issues and discussions, read into records.
//
// What is read: every pipe table (core/pipe_table.h) of the text whose header names llama-bench's
// columns `model`, `test` and `t/s` (a table among other text: a comment, a log, several
// tables in one file). Columns are found by their header, in any order and any subset of
// llama-bench's (model, size, params, backend, ngl, threads, n_batch, n_ubatch, type_k,
// type_v, fa, sm, mg, nkvo, ts, dev, ot, lm, mmap, embd, nopo, noh, cpu_mask, cpu_strict,
// poll, n_cpu_moe, fitt, fitc); a header llama-bench never writes is kept as a source field
// under its own name. Cells as llama-bench v0.4.0 and its older builds print them:
//   model   "llama 7B Q4_0" (model_type; it also names the model: the table names no file)
//   size    "3.56 GiB", "885.97 MiB"  -> model_size, bytes (rounded to 0.01 of the unit)
//   params  "6.74 B", "494.03 M"      -> model_n_params (rounded to 0.01 of the unit)
//   test    "pp512", "tg128", "pp 512" (2023), "pp512 @ d4096", "pp512@d4096", "pp4096+tg128"
//   t/s     "4970.31 ± 12.84" (mean ± sample sd of the repetitions, 2 decimals), or a mean alone
// Around a table: the first `build: <commit> (<number>)` line after it (before the next
// table; else the last one before it) gives build_commit and build_number; device lines
// before it name the GPUs when --gpu does not: CUDA/ROCm "Device 0: NVIDIA GeForce RTX 4090,
// compute capability 8.9, ...", Vulkan "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (...) | uma: 0
// | ...", Metal "ggml_metal_init: found device: Apple M2 Max" or "GPU name:   Apple M3 Max".
//
// Every record is a rounded summary without samples (ThroughputResult::summary_only, tagged
// kSummaryOnlyTag and kMarkdownTag); n is the repetitions the importer was told (0 = unknown).
// The source URL and the table line each record came from are kept as source fields
// (`source_url`, `source_line`). A record's id hashes its row's fields, its line and the
// machine name, so re-importing the same paste changes nothing and two machines' identical
// lines stay two records.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/record.h"
#include "core/status.h"

namespace rigbench::store {

// Tag of every record read from llama-bench's markdown table (figures rounded as printed).
inline constexpr const char* kMarkdownTag = "llama-bench:markdown";

struct MarkdownImport {
  std::string machine;     // machine.hostname of every record (--machine); the table names none
  std::string gpu;         // gpu_info when set (--gpu): overrides device lines in the text
  std::string source_url;  // where the table was published (--source); "" = not said
  int repetitions = 0;     // llama-bench -r of the run, which the table does not say; 0 = unknown
};

// Whether `text` holds a llama-bench markdown table (a pipe table with model, test and t/s
// columns, and none of rigbench's own: "TTFT ms", "tg bound").
bool holds_llama_bench_markdown(std::string_view text);

struct MarkdownRecords {
  std::vector<RunRecord> records;    // in table and row order
  std::vector<std::string> skipped;  // "line N: ..." per row that maps to no record (pp+tg tests)
};

// The records of every llama-bench table in `text`. Errors: kInvalidInput naming the
// 1-based line and column of `text` that is wrong ("line 7: t/s 'fast' is not a number",
// "line 7: test 'xx' is not ppN, tgN, ppN+tgM or one with @ dN", a size without GiB or MiB),
// or "no llama-bench markdown table" when there is none.
Result<MarkdownRecords> read_llama_bench_markdown(std::string_view text, const MarkdownImport& options);

}  // namespace rigbench::store
