#include "cli/synth_command.h"

#include <iostream>

#include "cli/args.h"
#include "cli/interrupt.h"
#include "core/strings.h"
#include "model/preset.h"
#include "model/tensor_layout.h"
#include "report/listings.h"
#include "report/synth_printer.h"
#include "synth/synthesis.h"

namespace rigbench::cli {

namespace {

uint64_t count_params(const model::Preset& p) {
  uint64_t n = 0;
  for (const auto& t : model::tensor_layout(p)) n += t.n_elements();
  return n;
}

}  // namespace

CLI::App* add_synth_command(CLI::App& app, SynthOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("synth", "Write a synthetic GGUF: a real model's tensors and metadata, random weights");
  auto* preset = cmd->add_option("--preset", o.preset, "preset name (see `rigbench presets`)");
  auto* config = cmd->add_option("--config", o.config, "a Hugging Face config.json instead of a preset");
  preset->excludes(config);
  cmd->add_option("--quant", o.quant, "llama.cpp file type: F32, F16, Q8_0, Q4_0, Q4_K_M, Q5_K_M, Q6_K, Q3_K_S, ...")
      ->capture_default_str();
  // Required, checked after -o (run_synth_command): `-o x.gguf` is told about --output-file.
  cmd->add_option("--output-file", o.output_file,
                  "the GGUF file to write (written beside it, renamed at the end); required");
  cmd->add_flag("--header-only", o.header_only, "write metadata and tensor infos; leave the data as a sparse hole");
  cmd->add_option("--seed", o.seed, "seed of the random values, >= 0 (sizes and shapes do not depend on it)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return v.find('-') == std::string::npos ? std::string() : "'" + v + "': expected 0 or more";
          },
          "N >= 0"))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "format of the summary printed: md, csv, json or jsonl")
      ->capture_default_str();
  cmd->footer(R"(Examples:
  rigbench synth --preset Llama-3.1-8B --quant Q4_K_M --output-file llama8b.gguf
  rigbench synth --preset DeepSeek-V3 --header-only --output-file dsv3.gguf -o json
Exit codes: 0 written; 1 the file cannot be written or the config is bad; 2 a bad flag or value;
130/143 interrupted (Ctrl-C/SIGTERM; the partial file is removed).
)");
  return cmd;
}

CLI::App* add_presets_command(CLI::App& app, PresetsOptions& o) {
  CLI::App* cmd = app.add_subcommand("presets", "List the model presets (architecture shapes of real models)");
  cmd->add_option("-o,--output", o.output, "md, csv, json or jsonl (csv/json: with each config.json's address)")
      ->capture_default_str();
  cmd->footer(R"(
Examples:
  rigbench presets                           every preset: architecture, parameters, context
  rigbench synth --preset Llama-3.1-8B --quant Q4_K_M --output-file l8.gguf
  rigbench fit --preset Llama-3.1-70B --device all

Exit codes: 0 success; 1 the presets file (data/presets.json) cannot be read; 2 a bad flag or value.)");
  return cmd;
}

Status run_synth_command(const SynthOptions& o) {
  // -o is checked before anything is written; a file name there is told about --output-file.
  const auto format = report::parse_output_format(o.output, report::FileAdvice::kOutputFileFlag);
  if (!format) return std::unexpected(format.error());
  if (o.output_file.empty()) return fail(ErrorCode::kUsage, "--output-file is required (see rigbench synth --help)");
  synth::SynthRequest request;
  request.preset = o.preset;
  request.config = o.config;
  request.quant = o.quant;
  request.output_path = o.output_file;
  request.header_only = o.header_only;
  request.seed = o.seed;
  auto outcome = synth::run_synth(request, &install_interrupt_flag());
  if (!outcome) return std::unexpected(outcome.error());
  report::SynthSummary summary;
  summary.path = o.output_file;
  summary.preset = outcome->preset.name;
  summary.arch = outcome->preset.arch;
  summary.file_type = o.quant;
  summary.size_bytes = outcome->written.size_bytes;
  summary.tensor_bytes = outcome->written.tensor_bytes;
  summary.n_params = count_params(outcome->preset);
  summary.header_only = o.header_only;
  summary.tokenizer = outcome->written.tokenizer;
  summary.seed = o.seed;
  summary.elapsed_s = outcome->seconds;
  report::print_synth_summary(summary, *format, std::cout);
  return {};
}

Status run_presets_command(const PresetsOptions& o) {
  auto format = report::parse_output_format(o.output);
  if (!format) return std::unexpected(format.error());
  const auto& all = model::presets();
  if (!all) return std::unexpected(all.error());
  report::print_presets(*all, *format, std::cout);
  return {};
}

}  // namespace rigbench::cli
