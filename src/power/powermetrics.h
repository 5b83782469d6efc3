// rigbench: Apple's `powermetrics` text output, parsed. powermetrics needs root; a user runs
// e.g. `sudo powermetrics --samplers cpu_power,gpu_power -i 200 -o FILE` and rigbench reads
// the text. Pure functions over text; no I/O.
//
// The format, per sample (Apple Silicon; values in mW, or W with a "W" unit):
//   *** Sampled system activity (Wed Nov 29 14:08:04 2026 +0100) (201.35ms elapsed) ***
//   CPU Power: 1234 mW
//   GPU Power: 56 mW
//   ANE Power: 0 mW
//   Combined Power (CPU + GPU + ANE): 1290 mW
// Intel Macs print "Intel energy model derived package power (CPUs+GT+SA): 1.53W" instead.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "power/meter.h"

namespace rigbench::power {

// One powermetrics sample: average power over its interval, watts (NaN when not printed).
struct PowermetricsSample {
  std::string time_text;     // the header's date, as printed ("Wed Nov 29 14:08:04 2026 +0100")
  double elapsed_s = 0;      // seconds the sample covers, from "(N ms elapsed)"
  double cpu_w = kNaN;       // "CPU Power"
  double gpu_w = kNaN;       // "GPU Power" (the first one in the sample)
  double ane_w = kNaN;       // "ANE Power"
  double combined_w = kNaN;  // "Combined Power (CPU + GPU + ANE)", else "Intel energy model derived package power"
};

// Parses every sample in `text`; lines it does not know are ignored.
// Errors: kInvalidInput naming `input_name` when no sample header is found, or a known line
// or a header has a value that is not a number.
Result<std::vector<PowermetricsSample>> parse_powermetrics(std::string_view text, const std::string& input_name);

// Energy over samples, joules: sum of power × elapsed per field (samples are interval averages,
// so the sum is exact for the interval they cover); NaN for a field absent in any sample.
struct PowermetricsEnergy {
  double seconds = 0;
  double cpu_j = 0;
  double gpu_j = 0;
  double ane_j = 0;
  double combined_j = 0;
};
PowermetricsEnergy powermetrics_energy(const std::vector<PowermetricsSample>& samples);

}  // namespace rigbench::power
