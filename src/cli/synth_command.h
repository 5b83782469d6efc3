// rigbench: `rigbench synth` (write a synthetic model) and `rigbench presets` (list them).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "core/status.h"
#include "model/synth_writer.h"

namespace rigbench::cli {

struct SynthOptions {
  std::string preset;                       // --preset NAME (see `rigbench presets`)
  std::string config;                       // --config FILE: a Hugging Face config.json instead of a preset
  std::string quant = "Q4_K_M";             // --quant TYPE: llama.cpp file type name
  std::string output_file;                  // --output-file FILE.gguf (required)
  bool header_only = false;                 // --header-only: tensor data left as a sparse hole
  uint64_t seed = model::SynthSpec{}.seed;  // --seed N: seed of the random values
  std::string output = "md";                // -o md|json: how the summary is printed
};

struct PresetsOptions {
  std::string output = "md";  // -o md|json
};

CLI::App* add_synth_command(CLI::App& app, SynthOptions& opts);
CLI::App* add_presets_command(CLI::App& app, PresetsOptions& opts);

Status run_synth_command(const SynthOptions& opts);
Status run_presets_command(const PresetsOptions& opts);

}  // namespace rigbench::cli
