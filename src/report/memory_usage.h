// rigbench: memory per device, from the llama.cpp memory breakdown every record holds
// (RunRecord::memory.buffers), against the device's capacity. Feeds the HTML report's
// "memory fit" chart.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/record.h"
#include "report/comparison.h"

namespace rigbench::report {

struct DeviceMemory {
  std::string model, machine;  // labels (report/comparison.h identities)
  std::string device;          // ggml device of the buffers ("CPU", "CUDA0", ...)
  int n_ctx = 0;               // context of the record shown; 0: the run has none (an embedding run)
  uint64_t weights_bytes = 0;  // bytes, BufferMemory::model_bytes summed over the device's buffer types
  uint64_t kv_bytes = 0;       // bytes, BufferMemory::context_bytes, likewise
  uint64_t compute_bytes = 0;  // bytes, BufferMemory::compute_bytes, likewise
  // The device's memory: the record's MachineInfo::gpus entry of that name
  // (memory_total_bytes), or MachineInfo::ram_bytes for "CPU"; 0 when unknown.
  uint64_t capacity_bytes = 0;
  // Bytes of the total the kernel may take back under pressure: where the weights are a mapped
  // file (load mode auto or mmap, not locked) and llama.cpp repacked some of them into a buffer of
  // their own (a "*_REPACK" buffer type: the CPU backend's faster layout), the file's pages of
  // those tensors are clean page cache no kernel is held to keep: min(repacked bytes, the other
  // weight bytes of the device). A CPU's 7.67 GiB of weights for a 4.58 GiB file is 4.58 GiB
  // resident and 3.09 GiB reclaimable. 0 otherwise.
  uint64_t reclaimable_bytes = 0;

  uint64_t total_bytes() const { return weights_bytes + kv_bytes + compute_bytes; }
  uint64_t resident_bytes() const { return total_bytes() - reclaimable_bytes; }  // what the run holds
};

// One entry per model, machine and device: the record with the largest total on that
// device (the worst case stored), sorted by model, machine, device. Records without a
// breakdown (llama-bench imports) give none.
std::vector<DeviceMemory> memory_by_device(std::span<const RunRecord> records);
// The same with the records' identities made already (RecordIdentities(records)).
std::vector<DeviceMemory> memory_by_device(std::span<const RunRecord> records, const RecordIdentities& ids);

}  // namespace rigbench::report
