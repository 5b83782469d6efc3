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

  uint64_t total_bytes() const { return weights_bytes + kv_bytes + compute_bytes; }
};

// One entry per model, machine and device: the record with the largest total on that
// device (the worst case stored), sorted by model, machine, device. Records without a
// breakdown (llama-bench imports) give none.
std::vector<DeviceMemory> memory_by_device(std::span<const RunRecord> records);
// The same with the records' identities made already (RecordIdentities(records)).
std::vector<DeviceMemory> memory_by_device(std::span<const RunRecord> records, const RecordIdentities& ids);

}  // namespace rigbench::report
