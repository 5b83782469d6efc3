// rigbench: the settings of a record's run that `rigbench compare` keeps runs apart by, and
// their label ("ngl=99 ... threads=8"). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/record.h"

namespace rigbench::report {

// One setting of a record's run that compare keeps runs apart by: a compare-key knob
// (core/knobs.h, by its table header) or a setting a source recorded that no knob declares
// (RunRecord::source_fields, is_source_knob: by its field name).
struct KnobSetting {
  std::string name;      // Knob::header, or the source's field
  std::string value;     // knob_text, or the source's text
  bool in_label = true;  // knobs_label names it: false for a knob bench does not set (no flag, or
                         // quiet_default) at its default
  bool operator==(const KnobSetting&) const = default;
};
using KnobSettings = std::vector<KnobSetting>;

// Every compare-key knob of a record's run, in knobs() order, each with its value (at its
// default too), then the source's settings that are knobs, in field order. Two records ran the
// same knobs when their settings are equal. What compare decides about knobs (which differ
// between rows or cells) it decides on these, never by reading knobs_label back.
KnobSettings knob_settings(const RunRecord& rec);

// The settings as text, those in_label only, by name, e.g.
// "ngl=99 lm=auto n_batch=2048 n_ubatch=512 type_k=f16 type_v=f16 fa=on poll=50 cpu_strict=0 threads=8 n_depth=0";
// a knob bench does not set (no flag: n_cpu_moe, sm, ...) only where it is not at its default ("... n_cpu_moe=30").
std::string knobs_label(const KnobSettings& settings);
std::string knobs_label(const RunRecord& rec);  // knobs_label(knob_settings(rec))

}  // namespace rigbench::report
