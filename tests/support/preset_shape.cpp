#include "support/preset_shape.h"

#include <filesystem>
#include <stdexcept>

#include "support/temp_dir.h"
#include "synth/synthesis.h"

namespace rigbench::testing {

std::string preset_file(const std::string& preset, const std::string& quant, const std::string& config) {
  static const TempDir dir;  // removed when the binary exits
  const std::string path =
      dir.file((config.empty() ? preset : std::filesystem::path(config).stem().string()) + "-" + quant + ".gguf");
  if (!std::filesystem::exists(path)) {
    synth::SynthRequest req;
    req.preset = preset;
    req.config = config;
    req.quant = quant;
    req.output_path = path;
    req.header_only = true;
    auto written = synth::run_synth(req, nullptr);
    if (!written) throw std::runtime_error(path + ": " + written.error().message);
  }
  return path;
}

model::ModelShape preset_shape(const std::string& preset, const std::string& quant, const std::string& config) {
  const std::string path = preset_file(preset, quant, config);
  auto shape = model::read_shape(path);
  if (!shape) throw std::runtime_error(path + ": " + shape.error().message);
  return *shape;
}

}  // namespace rigbench::testing
