// `rigbench hw` and `rigbench devices`.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/build_info.h"
#include "cli/fit_command.h"
#include "cli/hw_printer.h"
#include "hw/bandwidth.h"
#include "hw/catalog.h"
#include "hw/machine.h"
#include "power/meters.h"

namespace rigbench::cli {

CLI::App* add_hw_command(CLI::App& app, HwOptions& o) {
  CLI::App* cmd = app.add_subcommand("hw", "This machine: CPU, RAM, OS, GPUs, ggml backends, energy meters, memory bandwidth");
  cmd->add_flag("--bandwidth", o.bandwidth, "measure memory bandwidth (read and triad, about a second); replaces the cached "
                                            "figure behind fit's and bench's tg bound");
  cmd->add_option("-o,--output", o.output, "md (tables within 120 columns), csv (section,name,key,value) or json")
      ->capture_default_str();
  cmd->footer(
      "\nExamples:\n"
      "  rigbench hw                    this machine, its GPUs and energy meters (each meter's reason and fix)\n"
      "  rigbench hw --bandwidth        also measure memory bandwidth\n"
      "  rigbench hw -o json            every field, keys with units (_bytes, _gbps)\n"
      "\nExit codes: 0 success, 2 a bad flag or value.");
  return cmd;
}

CLI::App* add_devices_command(CLI::App& app, DevicesOptions& o) {
  CLI::App* cmd = app.add_subcommand("devices", "The hardware catalog, with cost per GiB of memory");
  cmd->add_option("-o,--output", o.output, "md or json")->check(CLI::IsMember({"md", "json"}))->capture_default_str();
  return cmd;
}

Status run_hw_command(const HwOptions& o) {
  const auto format = parse_hw_format(o.output);
  if (!format) return std::unexpected(format.error());
  HwReport r;
  r.machine = machine_info();  // the same description bench puts in its records
  r.ram_available_bytes = hw::available_ram_bytes();
  r.meters = power::list_meters(power::MeterConfig{});
  if (o.bandwidth) {
    r.bandwidth = hw::measure_bandwidth(r.machine.cores);
    hw::store_bandwidth(r.machine, *r.bandwidth);  // the tg bound of fit and bench uses this deliberate measurement
  }
  print_hw(r, *format, std::cout);
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
