// rigbench: `rigbench hw` (this machine: CPU, RAM, OS, GPUs, ggml backends, energy meters,
// memory bandwidth) and `rigbench devices` (the hardware catalog).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "core/status.h"

namespace rigbench::cli {

struct HwOptions {
  bool bandwidth = false;     // --bandwidth: run the probe (about a second) and cache its figure
  std::string output = "md";  // -o: md | csv | json | jsonl
};

struct DevicesOptions {
  std::string output = "md";  // -o: md | csv | json | jsonl
};

// Declare the subcommands and their flags on `app`; `o` receives the parsed values.
CLI::App* add_hw_command(CLI::App& app, HwOptions& o);
CLI::App* add_devices_command(CLI::App& app, DevicesOptions& o);

// Prints this machine (hw::describe, the meters, the cached or measured bandwidth) to stdout.
// Errors: kUsage for an unknown -o.
Status run_hw_command(const HwOptions& o);

// Prints the catalog (data/devices.json) to stdout. Errors: kUsage for an unknown -o; the
// catalog's (kNotFound, kInvalidInput) when it cannot be read.
Status run_devices_command(const DevicesOptions& o);

}  // namespace rigbench::cli
