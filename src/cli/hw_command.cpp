#include "cli/hw_command.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/build_info.h"
#include "hw/bandwidth.h"
#include "hw/catalog.h"
#include "hw/machine.h"
#include "power/meters.h"
#include "report/hw_printer.h"
#include "report/listings.h"

namespace rigbench::cli {

CLI::App* add_hw_command(CLI::App& app, HwOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("hw", "This machine: CPU, RAM, OS, GPUs, ggml backends, energy meters, memory bandwidth");
  cmd->add_flag("--bandwidth", o.bandwidth,
                "measure memory bandwidth (read and triad, about a second); replaces the cached "
                "figure behind fit's and bench's tg bound");
  cmd->add_option("-o,--output", o.output,
                  "md (tables within 120 columns), csv (section,name,key,value), json or jsonl (json on one line)")
      ->capture_default_str();
  cmd->footer(R"(
Examples:
  rigbench hw                    this machine, its GPUs and energy meters (each meter's reason and fix)
  rigbench hw --bandwidth        also measure memory bandwidth
  rigbench hw -o json            every field, keys with units (_bytes, _gbps)

Exit codes: 0 success, 2 a bad flag or value.)");
  return cmd;
}

CLI::App* add_devices_command(CLI::App& app, DevicesOptions& o) {
  CLI::App* cmd = app.add_subcommand("devices", "The hardware catalog, with cost per GiB of memory");
  cmd->add_option("-o,--output", o.output, "md, csv, json or jsonl (json: with each figure's source)")
      ->capture_default_str();
  cmd->footer(R"(
Examples:
  rigbench devices                           the catalog: memory, bandwidth, power, price, cost per GiB
  rigbench devices -o json                   each figure with its source
  rigbench fit model.gguf --device all       which of them a model fits (names as listed here)

Exit codes: 0 success; 1 the catalog cannot be read; 2 a bad flag or value.)");
  return cmd;
}

Status run_hw_command(const HwOptions& o) {
  const auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  report::HwReport r;
  r.machine = machine_info();  // the same description bench puts in its records
  r.ram_available_bytes = hw::available_ram_bytes();
  r.meters = power::list_meters(power::MeterConfig{});
  if (o.bandwidth) {
    if (!std::getenv("RIGBENCH_PROBE_FOR_BENCH"))
      std::fprintf(stderr, "rigbench: probing memory bandwidth (about a second)\n");
    r.bandwidth = hw::measure_bandwidth(r.machine.cores);
    // The tg bound of fit and bench uses the best recent reading: a disturbed one does not replace it.
    const hw::StoredBandwidth kept = hw::store_bandwidth(r.machine, *r.bandwidth);
    if (r.bandwidth->disturbed) {
      std::fprintf(stderr,
                   "rigbench: warning: the bandwidth probe was disturbed: other processes used %.0f %% of the CPUs "
                   "while it ran, so %.1f GB/s reads low; run it again on an idle machine\n",
                   r.bandwidth->others_cpu_pct, r.bandwidth->read_gbps);
    }
    if (kept.kept_better) {
      std::fprintf(stderr,
                   "rigbench: this reading (%.1f GB/s) is below the best recent one (%.1f GB/s, %s), which stays the "
                   "figure behind the tg bound\n",
                   r.bandwidth->read_gbps, kept.better_gbps, kept.better_time.c_str());
    }
  }
  r.cached_bandwidth_gbps = hw::cached_bandwidth_gbps(r.machine);  // after a probe: what it left as the figure
  report::print_hw(r, *format, std::cout);
  return {};
}

Status run_devices_command(const DevicesOptions& o) {
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  auto catalog = hw::load_catalog(hw::catalog_path());
  if (!catalog) return std::unexpected(catalog.error());
  report::print_devices(*catalog, hw::catalog_path(), *format, std::cout);
  return {};
}

}  // namespace rigbench::cli
