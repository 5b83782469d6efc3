#include "fit/targets.h"

#include <algorithm>
#include <cstdio>

#include "core/strings.h"
#include "hw/describe.h"
#include "hw/machine.h"

namespace rigbench::fit {

namespace {

std::string backend_of(const std::string& device_name) {
  const std::string n = to_lower(device_name);
  for (const char* b : {"cuda", "metal", "vulkan", "rocm", "sycl"}) {
    if (n.rfind(b, 0) == 0) return b;
  }
  return "gpu";
}

// A name ggml gives a device (lower case): a backend's device prefix, then its number (cuda0,
// vulkan1, rocm0, sycl0, mtl0, rpc0; each backend's device names in ggml/src/ggml-*/). "rtx3090"
// is not one.
bool looks_like_ggml_device(const std::string& name) {
  for (const char* prefix : {"cuda", "vulkan", "rocm", "sycl", "mtl", "rpc", "opencl", "cann", "musa", "hip"}) {
    const std::string p = prefix;
    if (name.size() > p.size() && name.rfind(p, 0) == 0 &&
        std::all_of(name.begin() + static_cast<std::ptrdiff_t>(p.size()), name.end(),
                    [](char c) { return c >= '0' && c <= '9'; }))
      return true;
  }
  return false;
}

std::string gbps_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", v);
  return buf;
}

}  // namespace

std::vector<const DeviceInfo*> default_machine_devices(const MachineInfo& machine) {
  std::vector<const DeviceInfo*> out;
  for (const char* type : {"gpu", "igpu"}) {
    for (const DeviceInfo& g : machine.gpus) {
      if (hw::offloadable(g) && g.type == type) out.push_back(&g);
    }
    if (!out.empty()) break;
  }
  if (out.size() > 1 && out.front()->type == "igpu") out.resize(1);
  return out;
}

Target this_machine(const MachineInfo& machine, double host_bw) {
  const std::vector<const DeviceInfo*> gpus = default_machine_devices(machine);
  return machine_device_target(machine, host_bw, gpus.empty() ? nullptr : gpus.front());
}

Target machine_device_target(const MachineInfo& machine, double host_bw, const DeviceInfo* gpu) {
  Target t;
  t.host_ram_bytes = machine.ram_bytes;
  t.host_bandwidth_gbps = host_bw;
  if (gpu != nullptr) {
    t.name = "this machine: " + gpu->name + " (" + gpu->description + ")";
    t.backend = backend_of(gpu->name);
    t.unified = t.backend == "metal";
    t.capacity_bytes = gpu->memory_free_bytes;
    t.bandwidth_gbps = 0;  // unknown without a probe on the device; the bound then says 0
    return t;
  }
  t.name = "this machine: " + machine.cpu + " (RAM)";
  t.backend = "cpu";
  t.capacity_bytes = machine.ram_bytes;
  t.bandwidth_gbps = host_bw;
  return t;
}

std::string MachineDevices::devices_spec() const {
  if (!named) return BenchParams{}.devices;
  if (gpus.empty()) return "none";
  std::string out;
  for (const DeviceInfo* g : gpus) out += (out.empty() ? "" : "/") + g->name;
  return out;
}

Result<MachineDevices> resolve_machine_devices(const MachineInfo& machine, const std::string& device) {
  MachineDevices out;
  const std::string d = to_lower(trim(device));
  if (d == "all") return out;
  if (d == "auto") {
    out.on_machine = true;
    out.gpus = default_machine_devices(machine);
    return out;
  }
  out.on_machine = out.named = true;
  if (d == "none") return out;
  // Layers go to GPUs (discrete or integrated), never to an accelerator such as BLAS.
  const auto holds_layers = [](const DeviceInfo& g) { return hw::offloadable(g) && g.type != "accel"; };
  std::vector<std::string> names;
  for (const DeviceInfo& g : machine.gpus) {
    if (holds_layers(g)) names.push_back(g.name);
  }
  for (const std::string& part : split(device, '/')) {
    const std::string want = to_lower(trim(part));
    const auto it = std::find_if(machine.gpus.begin(), machine.gpus.end(),
                                 [&](const DeviceInfo& g) { return holds_layers(g) && to_lower(g.name) == want; });
    if (it != machine.gpus.end()) {
      out.gpus.push_back(&*it);
      continue;
    }
    if (device.find('/') == std::string::npos && !looks_like_ggml_device(want))
      return MachineDevices{};  // a catalog name
    return fail(
        ErrorCode::kUsage,
        "-dev/--device " + device + ": '" + trim(part) + "' is not a device of this machine (" +
            (names.empty() ? std::string("this build sees none: `rigbench hw`") : "it has " + join(names, ", ")) +
            "), nor a catalog name");
  }
  return out;
}

Target catalog_target(const hw::CatalogDevice& d, const std::vector<hw::CatalogDevice>& catalog,
                      const HostChoice& host) {
  Target t;
  t.name = d.name;
  t.backend = d.backend;
  t.unified = d.kind == "apple" || d.kind == "unified";
  t.capacity_bytes = d.visible_bytes();
  t.bandwidth_gbps = d.bandwidth_gbps;
  t.host_bandwidth_gbps = d.bandwidth_gbps;  // unified and CPU entries: one memory
  if (d.kind != "gpu") return t;
  const auto entry = std::find_if(catalog.begin(), catalog.end(), [&](const hw::CatalogDevice& h) {
    return h.kind == "cpu" && !d.host.empty() && h.name == d.host;
  });
  const bool stated = entry != catalog.end();
  t.host_ram_bytes = host.ram_bytes.value_or(stated ? entry->memory_bytes : host.machine_ram_bytes);
  t.host_bandwidth_gbps = host.bandwidth_gbps.value_or(stated ? entry->bandwidth_gbps : host.machine_bandwidth_gbps);
  const std::string ram = std::to_string(t.host_ram_bytes >> 30) + " GiB";
  if (!host.ram_bytes && !host.bandwidth_gbps && stated) {
    t.host_name = entry->name + " at " + gbps_text(t.host_bandwidth_gbps) + ", the entry's stated host";
  } else {
    const std::string origin = stated ? "stated host" : "this machine";
    t.host_name = ram + " of RAM" + (host.ram_bytes ? " (--host-ram)" : " (" + origin + ")") + " at " +
                  gbps_text(t.host_bandwidth_gbps) +
                  (host.bandwidth_gbps ? " (--host-bandwidth)"
                   : stated            ? " (stated host)"
                                       : " (this machine's, measured)");
  }
  return t;
}

}  // namespace rigbench::fit
