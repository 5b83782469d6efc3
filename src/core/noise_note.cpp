#include "core/noise_note.h"

namespace rigbench {

std::string noise_note_text(const NoiseNote& note) {
  return (note.phase.empty() ? "" : note.phase + ": ") + note.text + (note.remedy.empty() ? "" : "; " + note.remedy);
}

std::string noise_text_without_phase(const std::string& phase, const std::string& text) {
  const std::string prefix = phase + ": ";
  return !phase.empty() && text.starts_with(prefix) ? text.substr(prefix.size()) : text;
}

bool disturbs_run(const std::string& code) {
  return code == "machine_busy" || code == "steal" || code == "thermal_throttle" || code == "governor" ||
         code == "drift";
}

}  // namespace rigbench
