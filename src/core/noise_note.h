// rigbench: a noise note (NoiseNote, core/record.h) for people, and old records' notes read as
// today's. The note's text says what was seen; its phase is a field of its own, and this is
// the one place that writes it before the text, for every printer (bench's md notes, export's
// csv and sql noise_notes, compare's notes and cells, the HTML report).
#pragma once

#include <string>

#include "core/record.h"

namespace rigbench {

// "tg: the repetitions vary by 7.3 % (...); run on a quiet machine": the phase (when the note
// has one), the text, and the remedy (when it has one).
std::string noise_note_text(const NoiseNote& note);

// Whether a note's `code` says the whole run was disturbed rather than a few of its
// repetitions: machine_busy, steal, thermal_throttle, governor, drift. Under them a run's
// repetitions are not independent draws of one speed (another process, the hypervisor, the
// clock or the heat moved all of them), so their spread understates how far a second run could
// land: compare's verdicts (report/row_ranking.h test_cells) and tune's answer say so.
bool disturbs_run(const std::string& code);

// The text without the "<phase>: " that records of earlier builds kept at its start
// (their text repeated the phase: "tg: the repetitions vary by 7.3 %"); the text itself otherwise.
std::string noise_text_without_phase(const std::string& phase, const std::string& text);

}  // namespace rigbench
