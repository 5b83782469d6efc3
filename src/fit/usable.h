// rigbench: the memory a model can use on a device ("usable"): what llama.cpp's device reports
// less the free memory llama.cpp's --fit keeps. Computed here once (Target::usable_bytes, the
// catalog listing's usable column) and defined here once, in words, for every table that shows it
// (fit, fit --rank, devices).
#pragma once

#include <cstdint>
#include <string>

namespace rigbench::fit {

// The free memory llama.cpp's --fit keeps on each device (--fit-target, default 1024 MiB,
// common/common.h fit_params_target): a plan uses at most capacity - this.
constexpr uint64_t kFitMarginBytes = 1ull << 30;

// Bytes a plan may use on a device that reports `capacity_bytes` (what llama.cpp's device
// reports: total RAM for a CPU, the Metal working set on Apple, free memory for this machine's
// GPU and an rpc-server, a catalog entry's visible_bytes): capacity less `reserve_bytes`, 0 when
// smaller.
constexpr uint64_t usable_bytes(uint64_t capacity_bytes, uint64_t reserve_bytes = kFitMarginBytes) {
  return capacity_bytes > reserve_bytes ? capacity_bytes - reserve_bytes : 0;
}

// What usable means, for a table's notes: "usable = the memory llama.cpp's device reports (...)
// less the 1.00 GiB that llama.cpp's --fit keeps free (--fit-target)".
std::string usable_definition(uint64_t reserve_bytes = kFitMarginBytes);

}  // namespace rigbench::fit
