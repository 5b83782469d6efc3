#include "report/memory_usage.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/knobs.h"
#include "report/comparison.h"

namespace rigbench::report {

namespace {

uint64_t capacity_of(const MachineInfo& m, const std::string& device) {
  if (device == "CPU") return m.ram_bytes;
  for (const DeviceInfo& d : m.gpus) {
    if (d.name == device) return d.memory_total_bytes;
  }
  return 0;
}

}  // namespace

std::vector<DeviceMemory> memory_by_device(std::span<const RunRecord> records) {
  return memory_by_device(records, RecordIdentities(records));
}

std::vector<DeviceMemory> memory_by_device(std::span<const RunRecord> records, const RecordIdentities& ids) {
  // (model label, machine label, device, model key, machine key) -> worst case.
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, DeviceMemory> worst;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RunRecord& rec = records[i];
    if (rec.memory.buffers.empty()) continue;
    const Identity &model = ids.of(i).model, &machine = ids.of(i).machine;
    std::map<std::string, DeviceMemory> per_device;
    std::map<std::string, uint64_t> repacked;  // device -> weight bytes in *_REPACK buffers
    for (const BufferMemory& b : rec.memory.buffers) {
      DeviceMemory& d = per_device[b.device];
      d.weights_bytes += b.model_bytes;
      d.kv_bytes += b.context_bytes;
      d.compute_bytes += b.compute_bytes;
      if (b.buffer_type.ends_with("_REPACK")) repacked[b.device] += b.model_bytes;
    }
    // A mapped file whose pages the kernel may drop (not locked, not read into fresh memory).
    const bool mapped = rec.params.load_mode == "auto" || rec.params.load_mode == "mmap";
    for (const auto& [device, bytes] : repacked) {
      DeviceMemory& d = per_device[device];
      if (mapped) d.reclaimable_bytes = std::min(bytes, d.weights_bytes - bytes);
    }
    for (auto& [device, d] : per_device) {
      d.model = model.label;
      d.machine = machine.label;
      d.device = device;
      d.n_ctx = knob_applies(*find_knob("n_ctx"), rec) ? rec.params.n_ctx : 0;
      d.capacity_bytes = capacity_of(rec.machine, device);
      auto [it, inserted] = worst.try_emplace({model.label, machine.label, device, model.key, machine.key}, d);
      if (!inserted && d.total_bytes() > it->second.total_bytes()) it->second = d;
    }
  }
  std::vector<DeviceMemory> out;
  for (auto& [key, d] : worst) out.push_back(std::move(d));
  return out;
}

}  // namespace rigbench::report
