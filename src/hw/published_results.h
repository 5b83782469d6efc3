// rigbench: the published llama-bench results shipped in data/published_llama_bench.jsonl
// (built from the pasted tables of data/published/ by scripts/published-dataset; each row
// a figure as published, with its source URL, date and table line; data/README.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::hw {

// One row of the dataset: one test of one published llama-bench table.
struct PublishedResult {
  std::string device;        // the device as published ("M3 Max 64GB")
  std::string catalog;       // the data/devices.json entry of the same chip and bandwidth; "" = none
  std::string backend;       // as llama-bench printed it ("CUDA", "Metal,BLAS", "Vulkan")
  std::string model;         // llama.cpp's model description ("llama 8B Q4_K - Medium")
  std::string file_type;     // "Q4_K_M"
  uint64_t model_size_bytes = 0;  // the table's size, rounded to 0.01 GiB/MiB as printed
  uint64_t model_n_params = 0;    // the table's params, rounded to 0.01 B/M as printed
  std::string test;          // "pp512", "tg128", "tg32 @ d4096"
  int n_prompt = 0, n_gen = 0, n_depth = 0;
  int n_gpu_layers = -1;     // -1 = the table has no ngl column (the backend's default: all)
  bool no_kv_offload = false;  // the table's nkvo column was 1: the KV cache stayed in host RAM
  double tps = 0;            // mean tokens/s as published (2 decimals)
  std::string date;          // the post's date (YYYY-MM-DD); "" where the source shows none
  std::string source_url;
  std::string host;          // the computer a discrete GPU sat in, as the source says it; "" = not said
  std::string host_kind;     // "pc" (desktop, workstation, server), "sbc" (a single-board computer, the
                             // card on its PCIe lane: tg held back by the host), "" = not said
  std::string line;          // the table line the row came from, as published
};

// The dataset file: $RIGBENCH_DATA_DIR/published_llama_bench.jsonl, else the source tree's data/.
std::string published_results_path();

// Reads the dataset. Errors: kNotFound naming the file; kInvalidInput naming the line that is
// not JSON or lacks a key.
Result<std::vector<PublishedResult>> load_published_results(const std::string& path);

}  // namespace rigbench::hw
