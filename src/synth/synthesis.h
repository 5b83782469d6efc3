// rigbench: the synth use case, below cli (which only parses, calls and prints): making a
// synthetic model file from a preset or a config.json (the layout from model/, the tensor
// types llama.cpp's quantizer would choose from engine/, the writer from model/), and the
// embedded default model of `rigbench bench`, kept in the cache.
//
// Interruption: every call takes the cancel flag that SIGINT/SIGTERM set (cli/interrupt.h);
// the writer checks it between writes, removes its partial file and returns kInterrupted.
// Nothing here prints; notes go through the `note` callback.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "core/status.h"
#include "model/preset.h"
#include "model/synth_writer.h"

namespace rigbench::synth {

// Writes `preset` at file type `quant` (a llama.cpp name such as "Q4_K_M") to `path`, its
// random values drawn from `seed`; `cancel` (may be null) stops it, leaving no file.
// Errors: kUsage for an unknown type name (listing the known ones); those of
// model::write_synthetic (kInterrupted when `cancel` was set).
Result<model::SynthResult> synthesize(const model::Preset& preset, const std::string& quant, const std::string& path,
                                      bool header_only, uint64_t seed = model::SynthSpec{}.seed,
                                      const std::atomic<bool>* cancel = nullptr);

// A preset written header-only (tensor data a sparse hole) into a fresh private folder under
// the system's temporary directory (mkdtemp, mode 0700: no other user can plant a link there or
// read it), for the commands that need a preset's shape or a file to hand to llama.cpp (fit
// --preset, the report's what-to-buy). The folder and the file are removed with the object.
class PresetHeader {
 public:
  // Errors: kRuntime naming the temporary directory when no folder can be made there; those
  // of synthesize() (kUsage for an unknown type name).
  static Result<PresetHeader> write(const model::Preset& preset, const std::string& quant);

  PresetHeader(PresetHeader&& other) noexcept;
  PresetHeader& operator=(PresetHeader&& other) noexcept;
  PresetHeader(const PresetHeader&) = delete;
  PresetHeader& operator=(const PresetHeader&) = delete;
  ~PresetHeader();

  const std::string& path() const { return path_; }  // the GGUF inside the private folder

 private:
  PresetHeader() = default;
  std::string dir_;
  std::string path_;
};

// What `rigbench synth` asks for.
struct SynthRequest {
  std::string preset;            // a preset name, or
  std::string config;            // a Hugging Face config.json (the model is named after the output file)
  std::string quant = "Q4_K_M";  // llama.cpp file type name
  std::string output_path;       // the GGUF to write (beside it, renamed at the end)
  bool header_only = false;      // tensor data left as a sparse hole
  uint64_t seed = model::SynthSpec{}.seed;
};

struct SynthOutcome {
  model::Preset preset;  // the shape written
  model::SynthResult written;
  double seconds = 0;  // wall time of the write
};

// Checks the request (exactly one of preset/config; the output path can be written, see
// store/writable.h), resolves the shape and writes it. Errors: kUsage (neither or both of
// preset and config, unknown preset or type); kNotFound/kInvalidInput for the config file;
// kRuntime naming --output-file and why it cannot be written; kInterrupted.
Result<SynthOutcome> run_synth(const SynthRequest& request, const std::atomic<bool>* cancel);

// The embedded default of `rigbench bench`: a synthetic Llama-3.2-1B at Q4_K_M in the cache
// ($XDG_CACHE_HOME/rigbench/models, else ~/.cache/rigbench/models), written on first use and
// named with the values version (model::kValuesVersion); older versions' files there are
// removed. `note` receives one line each for the first write and for each file removed.
// Errors: those of synthesize() (kInterrupted leaves no partial file in the cache), or
// kRuntime when no cache folder can be made.
Result<std::string> default_bench_model(const std::atomic<bool>* cancel,
                                        const std::function<void(const std::string&)>& note);

// Folder holding llama.cpp's vocab-only GGUFs: $RIGBENCH_VOCAB_DIR, else the bundled
// llama.cpp's models/ folder.
std::string vocab_dir();

}  // namespace rigbench::synth
