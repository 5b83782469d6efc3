// rigbench: the hardware catalog (data/devices.json): devices people consider buying, each
// figure with its source.
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
  std::string kind;     // "gpu", "apple" (unified memory), "cpu" (a CPU memory system)
  std::string backend;  // ggml backend a model would run on: cuda, metal, cpu, ...
  uint64_t memory_bytes = 0;             // installed memory, bytes
  double working_set_fraction = 1.0;     // Apple: share of RAM the GPU may use (recommendedMaxWorkingSetSize)
  double bandwidth_gbps = 0;             // GB/s (1e9 bytes/s), the maker's peak
  std::optional<double> board_power_w;   // W
  std::optional<double> price_usd;       // launch price, USD
  std::map<std::string, std::string> sources;  // figure -> where it comes from

  // Bytes a model may use on the device: memory_bytes, times the working-set share on Apple.
  uint64_t usable_bytes() const { return static_cast<uint64_t>(static_cast<double>(memory_bytes) * working_set_fraction); }
  // USD per GiB of installed memory (the makers' "GB" of VRAM and unified memory), if priced.
  std::optional<double> usd_per_gib() const;
};

// The catalog file: $RIGBENCH_DATA_DIR/devices.json, else the source tree's data/.
std::string catalog_path();

// Loads the catalog. Errors: kNotFound naming the file; kInvalidInput naming the entry and
// the key that is missing or of the wrong type.
Result<std::vector<CatalogDevice>> load_catalog(const std::string& path);

// The entry whose name matches `name` case-insensitively (or starts with it when exactly one
// does). Errors: kUsage listing the names.
Result<CatalogDevice> find_device(const std::vector<CatalogDevice>& catalog, const std::string& name);

}  // namespace rigbench::hw
