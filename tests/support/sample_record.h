// Test support: a fully populated RunRecord with known values.
#pragma once

#include "core/record.h"
#include "core/results.h"
#include "measure/runner.h"

namespace rigbench::testing {

inline RunRecord sample_record(const std::string& record_id = "0123456789abcdef0123456789abcdef") {
  RunRecord r;
  r.record_id = record_id;
  r.test_time = "2026-11-29T14:08:04Z";
  r.machine = {"box",       "Test CPU 9000", 8,
               16,          32ull << 30,     "Debian GNU/Linux 12 (bookworm)",
               "Linux 6.1", {"CPU", "CUDA"}, {{"CUDA0", "NVIDIA GeForce RTX 3090", "gpu", 24ull << 30, 23ull << 30}}};
  r.build = {"0.1.0", "80fb11ac73e66d89eae2c6a91d8a77428fa733ed", "bundled", "Release"};
  r.model = {
      "/models/m.gguf", "Model, \"quoted\" | piped", "llama", 292800, 1185376, "F32", "xxh64:04834e547abf7481", false};
  r.params.n_prompt = 512;
  r.params.n_gen = 128;
  r.params.n_threads = 8;
  r.params.n_ctx = 640;
  r.devices_used = {"CPU"};
  r.results.pp = make_throughput(512, {1'000'000'000, 500'000'000});    // 512 and 1024 t/s
  r.results.tg = make_throughput(128, {2'000'000'000, 1'000'000'000});  // 64 and 128 t/s
  r.results.ttft = make_latency({1'000'500'000, 500'500'000});          // 1000.5 and 500.5 ms
  r.memory.buffers = {{"CPU", "CPU", 1171200, 163840, 290240}};
  r.memory.peak_rss_bytes = 13221888;
  r.tags = {"night"};
  return r;
}

}  // namespace rigbench::testing
