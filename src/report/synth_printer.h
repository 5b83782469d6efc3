// rigbench: what `rigbench synth` prints about the file it wrote, in the formats every
// subcommand takes (-o):
//   md     one sentence: "wrote PATH: synthetic PRESET (ARCH) TYPE, SIZE (N bytes), ..."
//   csv    a header of the keys below, then one line
//   json   one object: path, preset, arch, file_type, size_bytes, tensor_bytes, n_params,
//          header_only, tokenizer, synthetic (true), seed, elapsed_s
//   jsonl  that object on one line
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "report/table.h"

namespace rigbench::report {

struct SynthSummary {
  std::string path;           // the GGUF file written (--output-file, as given)
  std::string preset;         // preset (or config.json's) name
  std::string arch;           // GGUF general.architecture
  std::string file_type;      // --quant
  uint64_t size_bytes = 0;    // bytes, the file (a header-only file: its apparent size)
  uint64_t tensor_bytes = 0;  // bytes, tensor data
  uint64_t n_params = 0;      // elements of every tensor
  bool header_only = false;   // --header-only: the data is a sparse hole
  std::string tokenizer;      // where the tokenizer came from
  uint64_t seed = 0;          // --seed of the random values
  double elapsed_s = 0;       // seconds, writing
};

// `format`: md, csv, json or jsonl (sql is not offered: parse_output_format's default list).
void print_synth_summary(const SynthSummary& s, OutputFormat format, std::ostream& out);

}  // namespace rigbench::report
