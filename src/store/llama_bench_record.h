// rigbench: one llama-bench row (store/llama_bench_rows.h) as a RunRecord.
//
// llama-bench runs pp and tg as separate tests, one row each: a row with n_prompt > 0 and
// n_gen = 0 becomes a record holding results.pp, n_gen > 0 and n_prompt = 0 results.tg.
// A pp+tg row (-pg) mixes the two phases into one rate, which rigbench never does: it is
// skipped, with the reason. Field mapping (llama-bench -> record):
//   build_commit -> build.llama_cpp_commit      cpu_info -> machine.cpu
//   gpu_info ("A, B") -> machine.gpus[].description   backends ("CUDA,BLAS") -> machine.backends
//   model_filename -> model.path, and model.name = the file name without .gguf
//   model_type ("llama 8B Q4_K - Medium") -> model.arch (first word), model.file_type ("Q4_K_M")
//   model_size -> model.size_bytes (llama.cpp's tensor bytes, a little under the file size)
//   model_n_params -> model.n_params
//   every knob llama-bench records (core/knobs.h, llama_bench_key: n_batch, n_ubatch, n_threads,
//     n_gpu_layers, type_k, type_v, n_depth, poll, cpu_strict, cpu_mask, n_cpu_moe, split_mode, main_gpu,
//     no_kv_offload, devices, tensor_split, tensor_buft_overrides, lazy_mode, embeddings, no_op_offload,
//     no_host, fit_target, fit_min_ctx, 2023's mul_mat_q) -> params; an absent or empty one keeps the
//     default; builds before -ctk/-ctv: f16_kv 1/0 -> type_k and type_v f16/f32
//   n_prompt, n_gen -> params
//   flash_attn (-1/0/1, or a boolean in older builds) -> params.flash_attn (auto/off/on)
//   load_mode ("auto", "none", "mmap", ...) -> params.load_mode; older builds: use_direct_io
//     true -> "dio", else use_mmap true/false -> "mmap"/"none"; neither -> "auto"
//   test_time -> test_time; samples_ns -> results.pp|tg.samples_ns, statistics recomputed
//   every other field (build_number, gpu_blas, fields of versions other than v0.4.0) ->
//     source_fields, as text; those that are knobs (core/knobs.h is_source_knob) are part of
//     compare's key (avg_ns and stddev_ns are the results', held as samples or avg_ts/stddev_ts)
// llama-bench names no host: machine.hostname is empty unless the importer is given one.
// Builds before 2024 (e.g. build 1026, August 2023): model_type "LLaMA 7B mostly Q4_0" ->
//   arch "llama", file_type "Q4_0"; no `backends` but one flag per backend (cuda, metal,
//   vulkan, sycl, kompute, opencl, rpc, blas: 1/true) -> machine.backends ("CUDA", "BLAS");
//   no flash_attn column -> "off" (flash attention came in 2024), no n_ubatch -> n_batch
//   (one batch size then): a knob a build lacked ran without it, never at today's default.
// Every record is tagged kLlamaBenchTag. csv and sql rows hold no raw samples: their
// record is summary-only (ThroughputResult::summary_only): avg_ts and stddev_ts as the
// file states them, n the repetitions the importer was told (the file does not say; 0 =
// unknown), tagged kSummaryOnlyTag.
#pragma once

#include <optional>
#include <string>

#include "core/record.h"
#include "core/status.h"
#include "store/llama_bench_rows.h"

namespace rigbench::store {

// Tag of every record imported from llama-bench output.
inline constexpr const char* kLlamaBenchTag = "source:llama-bench";
// Tag of a record from a llama-bench format without raw samples (csv, sql).
inline constexpr const char* kSummaryOnlyTag = "llama-bench:summary-only";

struct MappedRow {
  std::optional<RunRecord> record;  // nullopt when the row is skipped
  std::string skipped_because;      // why, when skipped (e.g. "pp+tg test (-pg) mixes the phases")
};

// Maps one row. `hostname` (may be empty) becomes machine.hostname; `repetitions` is the
// n of a summary-only row (llama-bench -r; 0 = unknown), ignored for rows with samples.
// Errors: kInvalidInput naming the row's line and the field that is missing or not a number.
Result<MappedRow> map_llama_bench_row(const LlamaBenchRow& row, const std::string& hostname = "", int repetitions = 0);

// The machine name of a record mapped from llama-bench output given no --machine: its CPU
// (cpu_info) and GPUs (gpu_info) as llama-bench describes them, joined by " + "
// ("AMD Ryzen 9 7950X 16-Core Processor + NVIDIA GeForce RTX 4090"), "unnamed" when the
// row has neither.
std::string llama_bench_machine_name(const MachineInfo& machine);

// The record identity of a row: 32 hex digits, XXH3-128 of its fields except the
// floating-point ones (avg_ts, stddev_ts) and the samples, in field-name order. The same
// run gives the same id from its json, jsonl, csv or sql output, so importing it again, in
// any of them, changes nothing.
std::string llama_bench_record_id(const LlamaBenchRow& row);

// rigbench's file type name ("Q4_K_M") for the file type part of llama.cpp's model
// description ("llama 8B Q4_K - Medium", "llama ?B (guessed) all F32"); the text after the
// second word as it is when llama.cpp v0.4.0 names no such type.
std::string file_type_from_model_type(const std::string& model_type);

}  // namespace rigbench::store
