// `rigbench hw` and `rigbench devices`.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/fit_command.h"
#include "cli/targets.h"
#include "core/strings.h"
#include "engine/llama_engine.h"
#include "hw/bandwidth.h"
#include "hw/catalog.h"
#include "hw/gpus_sysfs.h"
#include "hw/machine.h"
#include "power/meters.h"
#include "power/nvml_meter.h"

namespace rigbench::cli {

CLI::App* add_hw_command(CLI::App& app, HwOptions& o) {
  CLI::App* cmd = app.add_subcommand("hw", "This machine: CPU, RAM, OS, GPUs, ggml backends, memory bandwidth");
  cmd->add_flag("--bandwidth", o.bandwidth, "measure memory bandwidth (read and triad, about a second)");
  cmd->add_option("-o,--output", o.output, "md or json")->check(CLI::IsMember({"md", "json"}))->capture_default_str();
  return cmd;
}

CLI::App* add_devices_command(CLI::App& app, DevicesOptions& o) {
  CLI::App* cmd = app.add_subcommand("devices", "The hardware catalog, with cost per GiB of memory");
  cmd->add_option("-o,--output", o.output, "md or json")->check(CLI::IsMember({"md", "json"}))->capture_default_str();
  return cmd;
}

Status run_hw_command(const HwOptions& o) {
  engine::init_llama();
  MachineInfo m = hw::detect_machine();
  engine::describe_backends(m);
  // NVIDIA GPUs through NVML (loaded at run time) and AMD GPUs the driver describes, when this
  // build's backends do not see them already.
  std::vector<DeviceInfo> found = power::list_nvml_gpus();
  for (auto& g : hw::amd_gpus()) found.push_back(std::move(g));
  for (auto& g : found) {
    const bool seen = std::any_of(m.gpus.begin(), m.gpus.end(), [&](const DeviceInfo& d) { return d.description == g.description; });
    if (!seen) m.gpus.push_back(std::move(g));
  }
  const uint64_t available = hw::available_ram_bytes();
  const std::vector<power::MeterStatus> meters = power::list_meters(power::MeterConfig{});
  hw::BandwidthResult bw;
  if (o.bandwidth) {
    bw = hw::measure_bandwidth(m.cores);
    store_bandwidth(m, bw);  // the tg bound of fit and bench uses this deliberate measurement
  }
  if (o.output == "json") {
    nlohmann::ordered_json gpus = nlohmann::ordered_json::array();
    for (const auto& g : m.gpus) {
      gpus.push_back({{"name", g.name}, {"description", g.description}, {"type", g.type},
                      {"memory_total_bytes", g.memory_total_bytes}, {"memory_free_bytes", g.memory_free_bytes}});
    }
    nlohmann::ordered_json j = {{"hostname", m.hostname}, {"cpu", m.cpu}, {"cores", m.cores}, {"threads", m.threads},
                                {"ram_bytes", m.ram_bytes}, {"ram_available_bytes", available}, {"os", m.os},
                                {"kernel", m.kernel}, {"backends", m.backends}, {"gpus", gpus}};
    nlohmann::ordered_json mj = nlohmann::ordered_json::array();
    for (const auto& mt : meters) {
      mj.push_back({{"kind", mt.kind}, {"available", mt.available}, {"domains", mt.domains}, {"detail", mt.detail}, {"fix", mt.fix}});
    }
    j["meters"] = mj;
    if (o.bandwidth) {
      j["bandwidth"] = {{"read_gbps", bw.read_gbps}, {"triad_gbps", bw.triad_gbps}, {"threads", bw.threads},
                        {"array_bytes", bw.array_bytes}, {"method", bw.method}};
    }
    std::cout << j.dump(2) << "\n";
    return {};
  }
  std::printf("cpu:      %s (%d cores, %d threads)\n", m.cpu.c_str(), m.cores, m.threads);
  std::printf("ram:      %s total, %s available\n", format_bytes(m.ram_bytes).c_str(), format_bytes(available).c_str());
  std::printf("os:       %s, %s\n", m.os.c_str(), m.kernel.c_str());
  std::printf("backends: %s\n", join(m.backends, ", ").c_str());
  if (m.gpus.empty()) std::printf("gpus:     none (ggml backends, NVML and the amdgpu driver see none)\n");
  for (const auto& g : m.gpus) {
    std::printf("gpu:      %s (%s): %s total, %s free\n", g.name.c_str(), g.description.c_str(),
                format_bytes(g.memory_total_bytes).c_str(), format_bytes(g.memory_free_bytes).c_str());
  }
  for (const auto& mt : meters) {
    std::printf("meter:    %-9s %s: %s%s%s\n", mt.kind.c_str(), mt.available ? "available" : "not available", mt.detail.c_str(),
                mt.fix.empty() ? "" : "; fix: ", mt.fix.c_str());
  }
  if (o.bandwidth) {
    std::printf("memory bandwidth: read %.1f GB/s, triad %.1f GB/s\n  (%s)\n", bw.read_gbps, bw.triad_gbps, bw.method.c_str());
  }
  return {};
}

Status run_devices_command(const DevicesOptions& o) {
  auto catalog = hw::load_catalog(hw::catalog_path());
  if (!catalog) return std::unexpected(catalog.error());
  if (o.output == "json") {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& d : *catalog) {
      nlohmann::ordered_json j = {{"name", d.name}, {"kind", d.kind}, {"backend", d.backend}, {"memory_bytes", d.memory_bytes},
                                  {"usable_bytes", d.usable_bytes()}, {"bandwidth_gbps", d.bandwidth_gbps}};
      j["board_power_w"] = d.board_power_w ? nlohmann::ordered_json(*d.board_power_w) : nlohmann::ordered_json(nullptr);
      j["price_usd"] = d.price_usd ? nlohmann::ordered_json(*d.price_usd) : nlohmann::ordered_json(nullptr);
      j["usd_per_gib"] = d.usd_per_gib() ? nlohmann::ordered_json(*d.usd_per_gib()) : nlohmann::ordered_json(nullptr);
      j["sources"] = d.sources;
      all.push_back(std::move(j));
    }
    std::cout << all.dump(2) << "\n";
    return {};
  }
  std::printf("| device | memory GiB | usable GiB | bandwidth GB/s | board power W | launch price USD | USD per GiB |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const auto& d : *catalog) {
    auto opt = [](const std::optional<double>& v, const char* fmt) {
      if (!v) return std::string("-");
      char buf[32];
      std::snprintf(buf, sizeof buf, fmt, *v);
      return std::string(buf);
    };
    std::printf("| %s | %.1f | %.1f | %.1f | %s | %s | %s |\n", d.name.c_str(), static_cast<double>(d.memory_bytes) / (1ull << 30),
                static_cast<double>(d.usable_bytes()) / (1ull << 30), d.bandwidth_gbps, opt(d.board_power_w, "%.0f").c_str(),
                opt(d.price_usd, "%.0f").c_str(), opt(d.usd_per_gib(), "%.2f").c_str());
  }
  std::printf("\nsources: %s (every figure's source is in -o json)\n", hw::catalog_path().c_str());
  return {};
}

}  // namespace rigbench::cli
