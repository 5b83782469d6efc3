// rigbench: the hardware catalog (data/devices.json): devices people consider buying, each
// figure with its source.
//
// Units (one convention, every entry): memory_bytes is the maker's stated memory size read in
// binary units (a "24 GB" card or a "16 GB" Mac holds 24 or 16 GiB: memory chips come in
// binary sizes, and what llama.cpp sees follows them; a 16 GB Mac's Metal working set is
// 10922.67 MiB = 2/3 of 16 GiB), so it is always a whole number of GiB; bandwidth_gbps is
// GB/s = 1e9 bytes/s as makers state it; power in W; price in USD at launch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace rigbench::hw {

struct CatalogDevice {
  std::string name;
  std::string kind;                            // "gpu" (discrete), "apple" (unified, Metal), "unified" (other
                                               // unified-memory systems), "cpu" (a CPU memory system)
  std::string backend;                         // ggml backend a model would run on: cuda, metal, vulkan, cpu, ...
  uint64_t memory_bytes = 0;                   // installed memory, bytes (a whole number of GiB, see above)
  uint64_t reported_memory_bytes = 0;          // "gpu": the total the driver reports (nvidia-smi memory.total,
                                               // what llama.cpp's device sees), where it is known to fall
                                               // short of memory_bytes (the H200's "141 GB": 143771 MiB);
                                               // 0: memory_bytes. Any byte count; its source: sources["reported"]
  double working_set_fraction = 1.0;           // "unified": share of memory the GPU may use (stated per
                                               // entry); "apple": unused, apple_working_set_bytes() rules
  double bandwidth_gbps = 0;                   // GB/s (1e9 bytes/s), the maker's peak
  std::optional<double> fp16_tflops;           // dense FP16 matrix throughput, TFLOPS (1e12 FLOP/s), as the source
                                               // states it (tensor cores without sparsity; Apple: the GPU's stated
                                               // teraflops, FP16 running at the FP32 rate); sources["compute"];
                                               // nullopt where no source was found (predicted pp: "no basis")
  std::optional<double> int8_tops;             // dense INT8 matrix throughput, TOPS (1e12 op/s); sources["compute"]
  std::optional<double> board_power_w;         // W
  std::optional<double> price_usd;             // launch price, USD
  std::string host;                            // "gpu": the catalog "cpu" entry it is planned beside
                                               // by default (its host RAM and bandwidth)
  std::map<std::string, std::string> sources;  // figure -> where it comes from

  // Bytes llama.cpp's device reports as its memory ("visible" in `rigbench devices`): memory_bytes
  // for "gpu" (reported_memory_bytes where the entry states it) and "cpu"; the Metal working set
  // (apple_working_set_bytes) for "apple"; memory_bytes x working_set_fraction for "unified".
  // fit's "usable" is this less the 1 GiB llama.cpp's --fit keeps free (fit/usable.h usable_bytes).
  uint64_t visible_bytes() const;
  // USD per GiB of installed memory, if priced.
  std::optional<double> usd_per_gib() const;
};

// The GPU working set macOS grants by default (MTLDevice.recommendedMaxWorkingSetSize, what
// llama.cpp's Metal backend reports as the device's memory): 2/3 of RAM below 36 GiB, 3/4 from
// 36 GiB up. Logged by llama.cpp: 10922.67 MiB on 16 GiB, 21845.34 MiB on 32 GiB, 28991.03 MB
// (1e6) on 36 GiB, 49152 MiB on 64 GiB, 73728 MiB on 96 GiB. macOS 26 grants more on some
// sizes (0.74-0.91, e.g. 107.52 GiB on 128 GiB); this rule is the lower bound, so that a
// "fits" holds on every macOS version. Sources in docs/fit.md.
uint64_t apple_working_set_bytes(uint64_t memory_bytes);

// The catalog file: $RIGBENCH_DATA_DIR/devices.json, else the source tree's data/.
std::string catalog_path();

// Loads the catalog. Errors: kNotFound naming the file; kInvalidInput naming the entry and
// the key that is missing or of the wrong type, a memory size that is not a whole GiB, an
// "apple" entry with its own working_set_fraction (the rule applies to all), or a "gpu"
// entry whose host is not a "cpu" entry of the catalog.
Result<std::vector<CatalogDevice>> load_catalog(const std::string& path);

// The entry whose name matches `name` case-insensitively (or starts with it when exactly one
// does). Errors: kUsage with the names `name` may mean (core/did_you_mean.h names_like: spaces,
// dashes and case ignored, or a typo): "did you mean 'RTX 3090'?" for one, "2 catalog entries
// match ('M2 Pro 16GB', 'M2 Pro 32GB'); name one" for several, else the catalog's size and
// `rigbench devices`, never the whole list.
Result<CatalogDevice> find_device(const std::vector<CatalogDevice>& catalog, const std::string& name);

}  // namespace rigbench::hw
