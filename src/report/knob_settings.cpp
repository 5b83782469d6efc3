#include "report/knob_settings.h"

#include "core/knobs.h"

namespace rigbench::report {

KnobSettings knob_settings(const RunRecord& rec) {
  KnobSettings out;
  for (const Knob& k : knobs()) {
    if (!k.compare_key || !knob_applies(k, rec)) continue;
    std::string value = knob_text(k, rec.params);
    // A knob bench does not set is named only away from its default: the label stays short
    // and still tells every configuration apart.
    const bool in_label = !((k.flags.empty() || k.quiet_default) && value == knob_default(k));
    out.push_back({k.header, std::move(value), in_label});
  }
  // Settings a source recorded that no knob declares (another llama-bench version's).
  for (const auto& [field, value] : rec.source_fields) {
    if (is_source_knob(field)) out.push_back({field, value, true});
  }
  return out;
}

std::string knobs_label(const KnobSettings& settings) {
  std::string label;
  for (const KnobSetting& s : settings) {
    if (s.in_label) label += (label.empty() ? "" : " ") + s.name + "=" + s.value;
  }
  return label;
}

std::string knobs_label(const RunRecord& rec) { return knobs_label(knob_settings(rec)); }

}  // namespace rigbench::report
