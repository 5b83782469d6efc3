// rigbench: making a synthetic model file from a preset: the layout (model/), the tensor
// types llama.cpp's quantizer would choose (engine/), and the writer (model/).
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"
#include "model/preset.h"
#include "model/synth_writer.h"

namespace rigbench::cli {

// Writes `preset` at file type `quant` (a llama.cpp name such as "Q4_K_M") to `path`, its
// random values drawn from `seed`.
// Errors: kUsage for an unknown type name (listing the known ones); those of
// model::write_synthetic.
Result<model::SynthResult> synthesize(const model::Preset& preset, const std::string& quant, const std::string& path,
                                      bool header_only, uint64_t seed = model::SynthSpec{}.seed);

// The embedded default of `rigbench bench`: a synthetic Llama-3.2-1B at Q4_K_M in the cache
// ($XDG_CACHE_HOME/rigbench/models, else ~/.cache/rigbench/models), written on first use and
// named with the values version (model::kValuesVersion); older versions' files there are removed.
// Errors: those of synthesize(), or kRuntime when no cache folder can be made.
Result<std::string> default_bench_model();

// Folder holding llama.cpp's vocab-only GGUFs: $RIGBENCH_VOCAB_DIR, else the bundled
// llama.cpp's models/ folder.
std::string vocab_dir();

}  // namespace rigbench::cli
