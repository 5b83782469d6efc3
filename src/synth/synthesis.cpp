#include "synth/synthesis.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "engine/llama_quant.h"
#include "model/file_type.h"
#include "model/synth_values.h"
#include "model/tensor_layout.h"
#include "store/writable.h"

namespace rigbench::synth {

namespace fs = std::filesystem;

std::string vocab_dir() {
  const char* env = std::getenv("RIGBENCH_VOCAB_DIR");
  return env && *env ? env : RIGBENCH_VOCAB_DIR;
}

Result<model::SynthResult> synthesize(const model::Preset& preset, const std::string& quant, const std::string& path,
                                      bool header_only, uint64_t seed, const std::atomic<bool>* cancel) {
  const auto file_type = model::file_type_from_name(quant);
  if (!file_type) {
    return fail(ErrorCode::kUsage, "--quant '" + quant + "': unknown type (" + model::file_type_names() + ")");
  }
  model::SynthSpec spec;
  spec.preset = preset;
  spec.tensors = model::tensor_layout(preset);
  auto types = engine::quant_types(preset, spec.tensors, *file_type);
  if (!types) return std::unexpected(types.error());
  spec.types = std::move(*types);
  spec.file_type = *file_type;
  spec.output_path = path;
  spec.header_only = header_only;
  spec.seed = seed;
  spec.vocab_dir = vocab_dir();
  spec.cancel = cancel;
  return model::write_synthetic(spec);
}

Result<PresetHeader> PresetHeader::write(const model::Preset& preset, const std::string& quant) {
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  if (ec) return fail(ErrorCode::kRuntime, "no temporary directory for the preset's header: " + ec.message());
  std::string pattern = (tmp / "rigbench-preset-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return fail(ErrorCode::kRuntime, "cannot make a folder in " + tmp.string() + " for the preset's header: " +
                                         std::error_code(errno, std::generic_category()).message());
  }
  PresetHeader h;
  h.dir_ = pattern;
  h.path_ = (fs::path(pattern) / "preset.gguf").string();  // not the preset's name: no '/' to mind
  auto written = synthesize(preset, quant, h.path_, /*header_only=*/true);
  if (!written) return std::unexpected(written.error());  // h's destructor removes the folder
  return h;
}

PresetHeader::PresetHeader(PresetHeader&& other) noexcept
    : dir_(std::exchange(other.dir_, {})), path_(std::exchange(other.path_, {})) {}

PresetHeader& PresetHeader::operator=(PresetHeader&& other) noexcept {
  if (this != &other) {
    PresetHeader old(std::move(*this));
    dir_ = std::exchange(other.dir_, {});
    path_ = std::exchange(other.path_, {});
  }
  return *this;
}

PresetHeader::~PresetHeader() {
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

Result<SynthOutcome> run_synth(const SynthRequest& r, const std::atomic<bool>* cancel) {
  if (r.preset.empty() == r.config.empty())
    return fail(ErrorCode::kUsage, "synth: give --preset NAME or --config FILE");
  if (Status s = store::check_writable("--output-file", r.output_path, "name the .gguf file to write"); !s) {
    return std::unexpected(s.error());
  }
  auto preset = r.config.empty() ? model::find_preset(r.preset)
                                 : model::preset_from_hf_config(r.config, fs::path(r.output_path).stem().string());
  if (!preset) return std::unexpected(preset.error());
  const auto t0 = std::chrono::steady_clock::now();
  auto written = synthesize(*preset, r.quant, r.output_path, r.header_only, r.seed, cancel);
  if (!written) return std::unexpected(written.error());
  SynthOutcome out;
  out.preset = std::move(*preset);
  out.written = std::move(*written);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

Result<std::string> default_bench_model(const std::atomic<bool>* cancel,
                                        const std::function<void(const std::string&)>& note) {
  // A real small model people run, at the type they run it: about a minute on 2 cores.
  constexpr const char* kPreset = "Llama-3.2-1B";
  constexpr const char* kQuant = "Q4_K_M";
  fs::path dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) dir = fs::path(xdg) / "rigbench" / "models";
  else if (const char* home = std::getenv("HOME"); home && *home)
    dir = fs::path(home) / ".cache" / "rigbench" / "models";
  else return fail(ErrorCode::kRuntime, "default model: neither XDG_CACHE_HOME nor HOME is set; name a model file");
  // The values version in the name: a file from an older recipe is not reused.
  const fs::path path =
      dir / (std::string(kPreset) + "-" + kQuant + ".synthetic-v" + std::to_string(model::kValuesVersion) + ".gguf");
  std::error_code ec;
  if (fs::exists(path, ec)) return path.string();
  if (Status s = store::check_writable("default model cache", path.string(), "name a model file"); !s) {
    return std::unexpected(s.error());
  }
  if (note)
    note("writing the default model (synthetic " + std::string(kPreset) + " " + kQuant + ") to " + path.string());
  auto preset = model::find_preset(kPreset);
  if (!preset) return std::unexpected(preset.error());
  auto written = synthesize(*preset, kQuant, path.string(), /*header_only=*/false, model::SynthSpec{}.seed, cancel);
  if (!written) return std::unexpected(written.error());
  // Now that it is written, files of older recipes go: "<stem>.gguf" (version 1) and
  // "<stem>-vN.gguf" with N below this one. Newer versions' files (another build's) stay.
  const std::string stem = std::string(kPreset) + "-" + kQuant + ".synthetic";
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(stem, 0) != 0 || entry.path().extension() != ".gguf") continue;
    const std::string version = name.substr(stem.size(), name.size() - stem.size() - 5);  // "" or "-vN"
    const int n = version.empty() ? 1 : (version.rfind("-v", 0) == 0 ? std::atoi(version.c_str() + 2) : 0);
    if (n < 1 || n >= static_cast<int>(model::kValuesVersion)) continue;
    std::error_code rm;
    if (fs::remove(entry.path(), rm) && note)
      note("removed " + entry.path().string() + " (an older recipe's default model)");
  }
  return path.string();
}

}  // namespace rigbench::synth
